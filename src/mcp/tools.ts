/**
 * The MCP tools: one per named operation in `tools/*.graphql`. A tool's description is the comment
 * block above its operation plus the calls the gateway's own estimator gives it; its text is the
 * safelisted document codegen printed for it (with the fragments it shares with src/operations/, so
 * it passes PERSISTED_OPERATIONS=only as it is); its input schema comes from the operation's
 * variables, its output schema from the selection set. List tools (an `$after` variable on a
 * connection) take `cursor` and `limit` instead of `after` and `first`; a `$clientMutationId` is
 * never asked for: the gateway derives it from the call (see call.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import {
  Kind,
  OperationTypeNode,
  parse,
  typeFromAST,
  type DocumentNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Tool as ToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import {
  defaultCostModel,
  estimateOperationCost,
  fragmentsOf,
  operationsOf,
  type CostEstimate,
} from '../http/plugins/operation-cost.js';
import { loadSafelist } from '../http/persisted.js';
import { isPermission, type Permission } from '../identity/principal.js';
import { inputSchema, outputSchema, variableDescriptions, type JsonSchema } from './json-schema.js';

export interface Tool {
  /** What `tools/list` shows. */
  definition: ToolDefinition;
  write: boolean;
  /** The operation's text and its id in the safelist, sent to the gateway's own GraphQL endpoint. */
  query: string;
  documentId: string;
  /** The root field holding the connection, for list tools. */
  list?: string;
  /** Takes a `clientMutationId` derived from the call, so a retried call creates once. */
  idempotent: boolean;
  /** What a caller needs for the tool to be listed (write tools). */
  permissions: Permission[];
  estimate: { default: CostEstimate; max: CostEstimate };
}

interface ToolOptions {
  schema: GraphQLSchema;
  maxRecords: number;
  maxChars: number;
}

/** A safelisted document, parsed, with its one operation. */
interface Safelisted {
  id: string;
  text: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

const FOLDER = new URL('./tools/', import.meta.url);
/** Variables the tool renames or fills itself. */
const RENAMED: Record<string, string> = { after: 'cursor', first: 'limit' };
const HIDDEN = new Set(['clientMutationId']);

export function loadTools(options: ToolOptions): Tool[] {
  const safelist = new Map<string, Safelisted>();
  for (const [id, text] of loadSafelist()) {
    const document = parse(text);
    const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (operation?.name) safelist.set(operation.name.value, { id, text, document, operation });
  }
  return readdirSync(FOLDER)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .flatMap((file) => {
      const source = readFileSync(new URL(file, FOLDER), 'utf8');
      return operationsOf(parse(source)).map((op) => {
        const listed = safelist.get(op.name?.value ?? '');
        if (!listed) throw new Error(`The MCP tool ${op.name?.value} is not in the safelist: run \`npm run codegen\`.`);
        return toolOf(listed, commentAbove(source, op.loc?.start ?? 0), options);
      });
    });
}

/** The contiguous `#` lines right above `offset`, joined into one paragraph. */
function commentAbove(source: string, offset: number): string {
  const lines = source.slice(0, offset).split('\n').slice(0, -1);
  const comment: string[] = [];
  for (let i = lines.length - 1; i >= 0 && lines[i]!.startsWith('#'); i--)
    comment.unshift(lines[i]!.replace(/^#\s?/, ''));
  return comment.join(' ');
}

function toolOf({ id, text, document, operation: op }: Safelisted, comment: string, options: ToolOptions): Tool {
  const { schema } = options;
  const name = op.name?.value;
  if (!name || op.operation === OperationTypeNode.SUBSCRIPTION)
    throw new Error('MCP tools are named queries or mutations.');
  const root = schema.getRootType(op.operation)!;
  const fields = op.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s] : []));
  const vars = new Set((op.variableDefinitions ?? []).map((v) => v.variable.name.value));
  const list = vars.has('after') ? fields[0]?.name.value : undefined;
  const estimate = {
    default: estimateOperationCost(schema, document, name, {}).total,
    max: estimateOperationCost(schema, document, name, { first: options.maxRecords }).total,
  };
  const write = op.operation === OperationTypeNode.MUTATION;
  const definition: ToolDefinition = {
    name,
    description: [comment, costSentence(estimate), list ? pagingSentence(options) : ''].filter(Boolean).join(' '),
    inputSchema: toolInput(schema, op, options.maxRecords) as ToolDefinition['inputSchema'],
    outputSchema: toolOutput(schema, document, op, list) as ToolDefinition['outputSchema'],
    annotations: write
      ? {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: vars.has('clientMutationId') || !/^create/.test(fields[0]?.name.value ?? ''),
          openWorldHint: false,
        }
      : { readOnlyHint: true, openWorldHint: false },
  };
  return {
    definition,
    write,
    query: text,
    documentId: id,
    list,
    idempotent: vars.has('clientMutationId'),
    permissions: write ? fields.flatMap((f) => permissionsOf(root.getFields()[f.name.value])) : [],
    estimate,
  };
}

/** A write's permission: scope-auth's rule on the field, else `<upstream>:write`. */
function permissionsOf(field: GraphQLField<unknown, unknown> | undefined): Permission[] {
  if (!field) return [];
  const scopes = (field.extensions as { pothosOptions?: { authScopes?: object } }).pothosOptions?.authScopes;
  const declared = Object.keys(scopes ?? {}).filter(isPermission);
  if (declared.length) return declared;
  const type = field.type.toString().replace(/[[\]!]/g, '');
  const upstream = defaultCostModel.typeUpstreams.find((u) => type.startsWith(u.prefix))?.upstream;
  return [`${upstream ?? defaultCostModel.defaultUpstream}:write`];
}

function costSentence({ default: d, max }: Tool['estimate']): string {
  const fmt = (e: CostEstimate) =>
    Object.entries(e)
      .filter(([, n]) => n)
      .map(([u, n]) => `${n} ${u}`)
      .join(' + ') || '0';
  const a = fmt(d);
  const b = fmt(max);
  return `Estimated upstream calls: ${a}${a === b ? '' : ` by default, up to ${b} at the largest limit`}; a repeat within the cache's freshness costs 0.`;
}

function pagingSentence({ maxRecords, maxChars }: ToolOptions): string {
  return `Returns at most ${maxRecords} records and ${maxChars} characters; pass nextCursor as cursor for more (truncated: true says a result was cut).`;
}

function toolInput(schema: GraphQLSchema, op: OperationDefinitionNode, maxRecords: number): JsonSchema {
  const described = variableDescriptions(schema, op);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const v of op.variableDefinitions ?? []) {
    const name = v.variable.name.value;
    if (HIDDEN.has(name)) continue;
    const type = typeFromAST(schema, v.type) as GraphQLInputType;
    const key = RENAMED[name] ?? name;
    properties[key] =
      name === 'first'
        ? {
            type: 'integer',
            minimum: 1,
            maximum: maxRecords,
            description: `How many records (default and most: ${maxRecords}).`,
          }
        : name === 'after'
          ? { type: 'string', description: 'The nextCursor of the previous result, to continue the list.' }
          : { ...inputSchema(type), ...(described.get(name) ? { description: described.get(name) } : {}) };
    if (v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue) required.push(key);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** Every result: the data (a list tool's records as `items`), paging, cost, and the error if any. */
function toolOutput(
  schema: GraphQLSchema,
  document: DocumentNode,
  op: OperationDefinitionNode,
  list: string | undefined,
): JsonSchema {
  const root = schema.getRootType(op.operation)!;
  const data = outputSchema(root, op.selectionSet, fragmentsOf(document));
  const cost = {
    type: 'object',
    description: 'Upstream calls this call spent, and what is left of each account budget.',
    properties: { calls: { type: 'object' }, budgetLeft: { type: 'object' }, cached: { type: 'boolean' } },
  };
  const paging = list
    ? {
        items: { type: 'array', items: nodeSchema(data, list) },
        totalCount: { type: ['integer', 'null'] },
        nextCursor: { type: ['string', 'null'] },
        hasNextPage: { type: 'boolean' },
        truncated: { type: 'boolean' },
      }
    : { data };
  return { type: 'object', properties: { ...paging, errors: { type: 'array' }, cost, error: { type: 'object' } } };
}

/** The schema of one record of a list tool: `<list>.edges[].node`. */
function nodeSchema(data: JsonSchema, list: string): JsonSchema {
  let s: JsonSchema | undefined = data;
  for (const step of [list, 'edges', '[]', 'node'])
    s = step === '[]' ? (s?.items as JsonSchema) : (s?.properties as Record<string, JsonSchema> | undefined)?.[step];
  return s ?? {};
}

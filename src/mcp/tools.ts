/**
 * The MCP tools: one per named operation in `tools/*.graphql`. A tool's description is the comment
 * block above its operation plus the calls the gateway's own estimator gives it; a `$name: …` line in
 * that block describes the argument `name` (else the GraphQL argument or input field it is passed to
 * does). Its text is the safelisted document codegen printed for it (with the fragments it shares
 * with src/operations/, so it passes PERSISTED_OPERATIONS=only as it is); its input schema comes from
 * the operation's variables, its output schema from the selection set. List tools (an `$after`
 * variable on a connection) take `cursor` and `limit` instead of `after` and `first`; a
 * `$clientMutationId` is never asked for: the gateway derives it from the call (see call.ts).
 * A tool needs every permission its root fields' rules name (reads included); a delete is destructive.
 */
import { readdirSync, readFileSync } from 'node:fs';
import {
  getNamedType,
  isInputObjectType,
  isNonNullType,
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
import type { Tool as ToolDefinition } from '@modelcontextprotocol/server';
import { estimateOperationCost, fragmentsOf, operationsOf, type CostEstimate } from '../http/plugins/operation-cost.js';
import { loadSafelist } from '../http/persisted.js';
import { isPermission, type Permission } from '../identity/principal.js';
import { inputSchema, outputSchema, variableUses, type JsonSchema, JSON_SCHEMA_DIALECT } from './json-schema.js';

export interface Tool {
  /** What `tools/list` shows. */
  definition: ToolDefinition;
  write: boolean;
  /** Cannot be undone (a delete): asks for confirmation first. */
  destructive: boolean;
  /** The operation's text and its id in the safelist, sent to the gateway's own GraphQL endpoint. */
  query: string;
  /** The parsed operation and the schema, for a call's own estimate. */
  document: DocumentNode;
  schema: GraphQLSchema;
  documentId: string;
  /** The root field holding the connection, for list tools. */
  list?: string;
  /** Takes a `clientMutationId` derived from the call, so a retried call creates once. */
  idempotent: boolean;
  /** What a caller needs for the tool to be listed and called: every root field's permission. */
  permissions: Permission[];
  /** Each tool argument: the variable (and the field of a spread one) it goes to, and its path in the operation. */
  arguments: ToolArgument[];
  estimate: { default: CostEstimate; max: CostEstimate };
}

interface ToolOptions {
  schema: GraphQLSchema;
  maxRecords: number;
  maxChars: number;
}

export interface ToolArgument {
  argument: string;
  variable: string;
  /** The input field, for an argument spread from an input-object variable. */
  field?: string;
  /** Where the operation passes it (`input.title`, `filter.startsAfter`), for error messages. */
  path: string;
}

/** A safelisted document, parsed, with its one operation. */
interface Safelisted {
  id: string;
  text: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

/** An operation's comment block: the tool's description, its arguments' own, and the spread variables' fields. */
interface Comment {
  text: string;
  args: Map<string, string>;
  spread: Map<string, string[]>;
}

const FOLDER = new URL('./tools/', import.meta.url);
/** Variables the tool renames or fills itself. */
export const RENAMED: Record<string, string> = { after: 'cursor', first: 'limit' };
const HIDDEN = new Set(['clientMutationId']);

export function loadTools(options: ToolOptions): Tool[] {
  const safelist = new Map<string, Safelisted>();
  for (const [id, text] of loadSafelist()) {
    const document = parse(text);
    const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (operation?.name) safelist.set(operation.name.value, { id, text, document, operation });
  }
  const tools = readdirSync(FOLDER)
    .filter((f) => f.endsWith('.graphql'))
    .flatMap((file) => {
      const source = readFileSync(new URL(file, FOLDER), 'utf8');
      return operationsOf(parse(source)).map((op) => {
        const listed = safelist.get(op.name?.value ?? '');
        if (!listed) throw new Error(`The MCP tool ${op.name?.value} is not in the safelist: run \`npm run codegen\`.`);
        return toolOf(listed, commentAbove(source, op.loc?.start ?? 0), options);
      });
    });
  // One order for every caller and replica (clients and models cache the list).
  return tools.sort((a, b) => (a.definition.name < b.definition.name ? -1 : 1));
}

/** The contiguous `#` lines right above `offset`: `$name: …` lines describe arguments, the rest the tool. */
function commentAbove(source: string, offset: number): Comment {
  const lines = source.slice(0, offset).split('\n').slice(0, -1);
  const text: string[] = [];
  const args = new Map<string, string>();
  const spread = new Map<string, string[]>();
  for (let i = lines.length - 1; i >= 0 && lines[i]!.startsWith('#'); i--) {
    const line = lines[i]!.replace(/^#\s?/, '');
    const arg = /^\$(\w+):\s*(.+)$/.exec(line);
    const fields = /^\$(\w+) \{ ([\w! ]+) \}$/.exec(line);
    if (arg) args.set(arg[1]!, arg[2]!);
    else if (fields) spread.set(fields[1]!, fields[2]!.split(' '));
    else text.unshift(line);
  }
  return { text: text.join(' '), args, spread };
}

function toolOf({ id, text, document, operation: op }: Safelisted, comment: Comment, options: ToolOptions): Tool {
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
  const destructive = write && fields.some((f) => f.name.value.startsWith('delete'));
  const uses = variableUses(schema, op);
  const description = [comment.text, costSentence(estimate), list ? pagingSentence(options) : '']
    .filter(Boolean)
    .join(' ');
  const definition: ToolDefinition = {
    name,
    title: titleOf(name),
    description,
    inputSchema: toolInput(schema, op, comment, uses, options.maxRecords) as ToolDefinition['inputSchema'],
    outputSchema: toolOutput(schema, document, op, list),
    annotations: {
      readOnlyHint: !write,
      ...(write
        ? {
            destructiveHint: destructive,
            idempotentHint: vars.has('clientMutationId') || !/^create/.test(fields[0]?.name.value ?? ''),
          }
        : {}),
      openWorldHint: false,
    },
  };
  return {
    definition,
    write,
    destructive,
    query: text,
    document,
    schema,
    documentId: id,
    list,
    idempotent: vars.has('clientMutationId'),
    permissions: [...new Set(fields.flatMap((f) => permissionsOf(root.getFields()[f.name.value])))],
    arguments: [...vars]
      .filter((v) => !HIDDEN.has(v))
      .flatMap((v): ToolArgument[] => {
        const path = uses.get(v)?.path ?? v;
        const fields = comment.spread.get(v);
        if (!fields) return [{ argument: RENAMED[v] ?? v, variable: v, path }];
        return fields
          .map((f) => f.replace(/!$/, ''))
          .map((field) => ({ argument: field, variable: v, field, path: `${path}.${field}` }));
      }),
    estimate,
  };
}

/** `FindEntities` → `Find entities`. */
function titleOf(name: string): string {
  return name.replace(/(?<=[a-z])([A-Z])/g, (c) => ` ${c.toLowerCase()}`);
}

/** The permissions scope-auth's rule on the field names (none: anyone may call it). */
function permissionsOf(field: GraphQLField<unknown, unknown> | undefined): Permission[] {
  const scopes = (field?.extensions as { pothosOptions?: { authScopes?: object } } | undefined)?.pothosOptions
    ?.authScopes;
  return Object.keys(scopes ?? {}).filter(isPermission);
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

function toolInput(
  schema: GraphQLSchema,
  op: OperationDefinitionNode,
  comment: Comment,
  uses: ReturnType<typeof variableUses>,
  maxRecords: number,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (key: string, s: JsonSchema, description: string | undefined, mandatory: boolean) => {
    properties[key] = { ...s, ...(description ? { description } : {}) };
    if (mandatory) required.push(key);
  };
  for (const v of op.variableDefinitions ?? []) {
    const name = v.variable.name.value;
    if (HIDDEN.has(name)) continue;
    const type = typeFromAST(schema, v.type) as GraphQLInputType;
    const spread = comment.spread.get(name);
    const named = getNamedType(type);
    if (spread && isInputObjectType(named)) {
      for (const spelled of spread) {
        const field = spelled.replace(/!$/, '');
        const f = named.getFields()[field];
        if (!f) throw new Error(`${op.name?.value}: ${named.name} has no field ${field}.`);
        const mandatory = isNonNullType(f.type) || spelled.endsWith('!');
        add(field, inputSchema(f.type, 1), comment.args.get(field) ?? f.description ?? undefined, mandatory);
      }
      continue;
    }
    const mandatory = v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue;
    if (name === 'first')
      add(
        'limit',
        { type: 'integer', minimum: 1, maximum: maxRecords },
        `How many records (default and most: ${maxRecords}).`,
        false,
      );
    else if (name === 'after')
      add('cursor', { type: 'string' }, 'The nextCursor of the previous result, to continue the list.', false);
    else add(name, inputSchema(type), comment.args.get(name) ?? uses.get(name)?.description, mandatory);
  }
  return {
    $schema: JSON_SCHEMA_DIALECT,
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
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
  const count = { type: 'object', additionalProperties: { type: 'integer' } };
  // Upstream calls this call spent, and what is left of each account budget.
  const cost = { type: 'object', properties: { calls: count, budgetLeft: count, cached: { type: 'boolean' } } };
  const paging = list
    ? {
        items: { type: 'array', items: nodeSchema(data, list) },
        totalCount: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        nextCursor: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        hasNextPage: { type: 'boolean' },
        truncated: { type: 'boolean' },
      }
    : { data };
  // Why the call failed: a code and a sentence saying what to do (with a wait or version when it names one).
  const error = { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } };
  return {
    $schema: JSON_SCHEMA_DIALECT,
    type: 'object',
    properties: { ...paging, errors: { type: 'array', items: { type: 'object' } }, cost, error },
  };
}

/** The schema of one record of a list tool: `<list>.edges[].node` (through the nullable wrappers). */
function nodeSchema(data: JsonSchema, list: string): JsonSchema {
  let s: JsonSchema | undefined = data;
  for (const step of [list, 'edges', '[]', 'node']) {
    const t: JsonSchema | undefined = s?.anyOf ? (s.anyOf as JsonSchema[])[0] : s;
    s = step === '[]' ? (t?.items as JsonSchema) : (t?.properties as Record<string, JsonSchema> | undefined)?.[step];
  }
  return s ?? { type: 'object' };
}

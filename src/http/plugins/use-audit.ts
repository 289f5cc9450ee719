/**
 * Builds the audit event of every mutation attempt and of every MCP tool call, reads included (see
 * observability/audit.ts; a tool call's event names the tool): after execution,
 * or after a refusal that stopped it (cost, budget, operations per minute; this plugin sits before
 * those), or after a validation failure. One event per mutation operation; each root field is one
 * write with the records its arguments name (and a create's new id), its outcome and, if refused
 * or failed, the error's code and message as the client sees it.
 */
import {
  getArgumentValues,
  getOperationAST,
  GraphQLError,
  Kind,
  OperationTypeNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graph/context.js';
import { ErrorCode, maskError } from '../../graph/errors.js';
import { principalOf, type Principal } from '../../identity/principal.js';
import {
  argsHash,
  overallOutcome,
  recordsIn,
  type AuditCaller,
  type AuditEvent,
  type AuditOutcome,
  type AuditTrail,
  type AuditWrite,
} from '../../observability/audit.js';
import { requestIdOf } from '../../observability/request-id.js';
import { executionOf, graphqlErrors, validatedDocument } from './hook-args.js';

type AuditContext = Context & { request?: Request; req?: object };

export function useAudit(trail: AuditTrail): Plugin<Context> {
  const emit = (
    ctx: AuditContext,
    operation: OperationDefinitionNode,
    writes: AuditWrite[],
    args: Record<string, unknown>,
    outcome = overallOutcome(writes),
  ) =>
    trail.record({
      requestId: ctx.requestId ?? (ctx.request ? requestIdOf(ctx.request) : ''),
      caller: callerOf(ctx),
      ...(ctx.mcp ? { tool: ctx.mcp.tool } : {}),
      ...(ctx.mcp?.confirmed ? { confirmed: ctx.mcp.confirmed } : {}),
      ...(ctx.mcp?.task ? { task: ctx.mcp.task } : {}),
      operation: operation.name?.value ?? null,
      outcome,
      writes,
      argsHash: argsHash(args),
      upstreamCalls: Object.fromEntries(
        Object.entries(ctx.usage?.toJSON() ?? {}).map(([upstream, u]) => [upstream, u.requests]),
      ),
    });

  return {
    onValidate({ params, context }) {
      return ({ valid, result }) => {
        if (valid) return;
        const operation = getOperationAST(validatedDocument(params));
        if (!operation || !audited(operation, context)) return;
        const first = graphqlErrors(result)[0];
        const given = first?.extensions?.code;
        const code = typeof given === 'string' ? given : 'GRAPHQL_VALIDATION_FAILED';
        const message = first?.message ?? 'The operation is not valid.';
        if (operation.operation !== OperationTypeNode.MUTATION) return emit(context, operation, [], {}, 'refused');
        const writes = rootFields(operation).map((node) => refused(node, code, message));
        emit(context, operation, writes, {});
      };
    },
    onExecute({ args }) {
      const execution = executionOf(args);
      const operation = getOperationAST(execution.document, execution.operationName);
      if (!operation || !audited(operation, args.contextValue)) return;
      return {
        onExecuteDone({ result }) {
          if (!('data' in result) && !('errors' in result)) return; // incremental delivery: not for mutations
          const variables = execution.variableValues ?? {};
          if (operation.operation !== OperationTypeNode.MUTATION)
            return emit(args.contextValue, operation, [], variables, readOutcome(result));
          const schema = execution.schema;
          const fieldArgs: Record<string, unknown> = {};
          const writes = rootFields(operation).map((node) => {
            const key = node.alias?.value ?? node.name.value;
            const values = argumentsOf(schema, node, variables);
            fieldArgs[key] = values;
            return write(node, values, result);
          });
          emit(args.contextValue, operation, writes, fieldArgs);
        },
      };
    },
  };
}

/** Mutations, and whatever an MCP tool runs. */
function audited(operation: OperationDefinitionNode, ctx: AuditContext): boolean {
  return operation.operation === OperationTypeNode.MUTATION || ctx.mcp !== undefined;
}

/** A read: `applied` when answered, `partial` with errors beside data, else as its first error says. */
function readOutcome(result: ExecutionResult): AuditEvent['outcome'] {
  const [first] = result.errors ?? [];
  if (!first) return 'applied';
  if (result.data && Object.values(result.data).some((v) => v != null)) return 'partial';
  return outcomeOf(codeOf(maskError(first, 'Unexpected error.')));
}

/** The code of an error as the client sees it (masked); an uncoded one is an internal error. */
function codeOf(masked: Error): string {
  const given = masked instanceof GraphQLError ? masked.extensions?.code : undefined;
  return typeof given === 'string' ? given : ErrorCode.INTERNAL_SERVER_ERROR;
}

function rootFields(operation: OperationDefinitionNode): FieldNode[] {
  return operation.selectionSet.selections.filter(
    (s): s is FieldNode => s.kind === Kind.FIELD && !s.name.value.startsWith('__'),
  );
}

function argumentsOf(schema: GraphQLSchema, node: FieldNode, variables: Record<string, unknown>) {
  const field = schema.getMutationType()?.getFields()[node.name.value];
  if (!field) return {};
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    return {}; // invalid arguments: the result's error says so
  }
}

/** `createEntity` → `entity`, `moveEntityToStage` → `entity`, `addSchemaAttribute` → `schemaAttribute`. */
function ownKind(field: string): string {
  const noun = field.replace(/^(create|update|delete|move|add|remove|set)/, '').replace(/To[A-Z]\w*$/, '');
  return noun ? noun.charAt(0).toLowerCase() + noun.slice(1) : field;
}

function write(node: FieldNode, args: Record<string, unknown>, result: ExecutionResult): AuditWrite {
  const field = node.name.value;
  const key = node.alias?.value ?? field;
  const kind = ownKind(field);
  const records = recordsIn(args, kind);
  const value = result.data?.[key];
  if (field.startsWith('create') && value && typeof value === 'object' && 'id' in value)
    records.push({ kind, id: String(value.id) });
  // The field's own error (not one of a sub-field of what it wrote), or one of the whole operation.
  const error =
    result.errors?.find((e) => e.path?.length === 1 && e.path[0] === key) ?? result.errors?.find((e) => !e.path);
  if (!error) return { ...named(node), records, outcome: result.data ? 'applied' : 'refused' };
  const masked = maskError(error, 'Unexpected error.');
  const code = codeOf(masked);
  return { ...named(node), records, outcome: outcomeOf(code), code, reason: masked.message.slice(0, 300) };
}

function refused(node: FieldNode, code: string, reason: string): AuditWrite {
  return { ...named(node), records: [], outcome: 'refused', code, reason: reason.slice(0, 300) };
}

/** The write's field, and its alias when the operation renamed it. */
function named(node: FieldNode): Pick<AuditWrite, 'field' | 'alias'> {
  return { field: node.name.value, ...(node.alias ? { alias: node.alias.value } : {}) };
}

/** Refused: the gateway or the platform said no and nothing changed. Failed: it could not be done. */
function outcomeOf(code: string): AuditOutcome {
  if (code === ErrorCode.UPSTREAM_OUTCOME_UNKNOWN) return 'unknown';
  if (
    code === ErrorCode.UPSTREAM_UNAVAILABLE ||
    code === ErrorCode.UPSTREAM_CONTRACT ||
    code === ErrorCode.INTERNAL_SERVER_ERROR
  )
    return 'failed';
  return 'refused';
}

/**
 * The audit event of an MCP tool call refused before it ran (a permission the caller lacks): it
 * names the tool, as the call's `Mcp-Name` header did, and sends nothing upstream.
 */
export function auditRefusedToolCall(trail: AuditTrail) {
  return (request: Request, principal: Principal, call: { tool: string; args: unknown; reason: string }): void =>
    trail.record({
      requestId: requestIdOf(request),
      caller: callerFields(principal),
      tool: call.tool,
      operation: null,
      outcome: 'refused',
      writes: [],
      argsHash: argsHash(call.args),
      upstreamCalls: {},
      reason: call.reason,
    });
}

function callerOf(ctx: AuditContext): AuditCaller {
  return callerFields(principalOf(ctx.req) ?? principalOf(ctx.request));
}

function callerFields(p: Principal | undefined): AuditCaller {
  if (!p) return { id: 'anonymous', kind: 'anonymous' };
  return {
    id: p.id,
    kind: p.kind,
    ...(p.subject ? { sub: p.subject } : {}),
    ...(p.issuer ? { iss: p.issuer } : {}),
    ...(p.clientId ? { clientId: p.clientId } : {}),
    ...(p.agent ? { agent: p.agent } : {}),
  };
}

/**
 * The audit trail: one structured event per mutation attempt (applied, refused, failed or of unknown
 * outcome) and per MCP tool call, on a sink of its own, apart from the request log. JSON lines to stdout or to a file
 * (`AUDIT_SINK`), and, when tracing is on, an `audit` event on the operation's span (span events on
 * the existing tracer: the OpenTelemetry logs SDK would be two more packages for the same record).
 * An event names records by id and kind and holds a hash of the arguments, never their values: no
 * secret, token or password reaches the trail. No GraphQL here; `http/plugins/use-audit.ts` builds
 * the events.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { canonicalJson } from '../core/canonical-json.js';
import { isRecord } from '../core/records.js';

export type AuditOutcome = 'applied' | 'refused' | 'failed' | 'unknown';

export interface AuditRecordRef {
  kind: string;
  id: string;
}

export interface AuditCaller {
  /** The principal's id (`issuer|subject`, `key:<name>`, `anonymous`). */
  id: string;
  kind: string;
  sub?: string;
  iss?: string;
  clientId?: string;
  agent?: string;
}

/** One root field of a mutation: what it touched and how it ended. */
export interface AuditWrite {
  /** The mutation field (`moveEntityToStage`); `alias` when the operation renamed it. */
  field: string;
  alias?: string;
  records: AuditRecordRef[];
  outcome: AuditOutcome;
  /** Why it was refused or failed: the error's code and message. */
  code?: string;
  reason?: string;
}

export interface AuditEvent {
  /** ISO 8601 time the attempt ended. */
  time: string;
  requestId: string;
  caller: AuditCaller;
  operation: string | null;
  /** `applied` when every write was, `refused`/`failed`/`unknown` when every one was that, else `partial`. */
  outcome: AuditOutcome | 'partial';
  writes: AuditWrite[];
  /** sha256 of the fields' arguments as canonical JSON (secret-named arguments left out). */
  argsHash: string;
  /** Requests this attempt sent to each upstream. */
  upstreamCalls: Record<string, number>;
  /** The MCP tool an agent called (`/mcp`): its reads are audited too, with no writes. */
  tool?: string;
  /** How the user confirmed the tool call (`elicitation`: asked by a 2026-07-28 client; `token`: the call repeated with the confirmation). */
  confirmed?: 'elicitation' | 'token';
  /** The MCP task that ran the call once the budget freed. */
  task?: string;
  /** Why an MCP tool call was refused before it ran (its writes are then empty). */
  reason?: string;
}

export interface AuditTrail {
  /** Writes the event, stamped with the trail's clock. */
  record(event: Omit<AuditEvent, 'time'>): void;
  close(): Promise<void>;
}

/** `AUDIT_SINK`: `off`, `stdout`, or a file path (appended to). */
export interface AuditTrailOptions {
  sink: string;
  /** Replaces stdout / the file (tests read the lines from it). */
  write?: (line: string) => void;
  /** Also told every event (tracing adds it to the operation's span). */
  also?: (event: AuditEvent) => void;
  /** Epoch ms of an event (tests replay a day). */
  clock?: () => number;
}

export function createAuditTrail({ sink, write, also, clock = Date.now }: AuditTrailOptions): AuditTrail | undefined {
  if (sink === 'off' && !write) return undefined;
  let file: WriteStream | undefined;
  if (!write && sink !== 'stdout' && sink !== 'off') {
    file = createWriteStream(sink, { flags: 'a' });
    // A failing audit file is reported once per error, never thrown into a request.
    file.on('error', (e) =>
      process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'audit sink', error: e.message })}\n`),
    );
  }
  const out =
    write ?? (file ? (line: string) => file.write(`${line}\n`) : (line: string) => process.stdout.write(`${line}\n`));
  return {
    record(fields) {
      const event: AuditEvent = { time: new Date(clock()).toISOString(), ...fields };
      out(JSON.stringify({ audit: true, ...event }));
      also?.(event);
    },
    close: () => new Promise<void>((resolve) => (file ? file.end(resolve) : resolve())),
  };
}

/** The overall outcome of an attempt from its writes'. */
export function overallOutcome(writes: readonly AuditWrite[]): AuditEvent['outcome'] {
  const kinds = new Set(writes.map((w) => w.outcome));
  const [only] = kinds;
  if (only && kinds.size === 1) return only;
  if (kinds.has('unknown')) return 'unknown';
  return kinds.size === 0 ? 'refused' : 'partial';
}

const SECRET_NAME = /pass(word)?|secret|token|credential|authorization|api[-_]?key/i;

/** sha256 of canonical JSON (sorted keys), with secret-named values replaced. */
export function argsHash(args: unknown): string {
  return `sha256:${createHash('sha256')
    .update(canonicalJson(args, (key, value) => (SECRET_NAME.test(key) ? '*' : value)))
    .digest('hex')}`;
}

/**
 * The records an argument object names: `id` (of the field's own kind), `<kind>Id` and `<kind>Ids`,
 * and `<x>StageName` (a workflow stage, by name). Secret-named values are never taken.
 */
export function recordsIn(args: unknown, ownKind: string): AuditRecordRef[] {
  const out: AuditRecordRef[] = [];
  const visit = (value: unknown, key: string | undefined) => {
    if (value === null || value === undefined || (key && SECRET_NAME.test(key))) return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, key);
      return;
    }
    if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) visit(v, k);
      return;
    }
    if (!key || (typeof value !== 'string' && typeof value !== 'number')) return;
    const id = String(value);
    if (key === 'id') out.push({ kind: ownKind, id });
    else if (/StageName$/.test(key)) out.push({ kind: 'stage', id });
    else {
      const [, kind] = /^(\w+?)Ids?$/.exec(key) ?? [];
      if (kind && kind !== 'clientMutation') out.push({ kind, id });
    }
  };
  visit(args, undefined);
  return out;
}

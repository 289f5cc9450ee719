/**
 * Graceful shutdown at the HTTP edge. `begin()` turns the gateway to draining: /ready answers 503
 * at once while the listener stays open (so probes and balancers see it), new operations get 503
 * with Retry-After and Connection: close, and operations already running may finish, with their
 * upstream writes, until the drain deadline. Whatever still runs then is answered with a typed
 * error, never a dropped socket: OUTCOME_UNKNOWN for a mutation (its write may or may not have
 * been applied), SHUTTING_DOWN otherwise; an SSE stream gets a final error event and `complete`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { getOperationAST, OperationTypeNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { executionOf, incomingOf } from './plugins/hook-args.js';

export interface DrainOptions {
  drainMs: number;
  retryAfterS: number;
  log?: (line: string) => void;
}

interface InFlight {
  res: ServerResponse;
  write: boolean;
  /** Answered as Server-Sent Events (the node adapter's headers are not readable back from `res`). */
  events?: boolean;
}

export class Drain {
  private readonly inFlight = new Map<IncomingMessage, InFlight>();
  private draining = false;
  private finished = 0;
  private onIdle?: () => void;

  constructor(private readonly options: DrainOptions) {}

  /** Wraps the gateway's request listener: tracks what runs and refuses what arrives too late. */
  wrap(listener: RequestListener): RequestListener {
    return (req, res) => {
      if (this.draining) return this.refuse(req, res);
      const entry: InFlight = { res, write: false };
      this.inFlight.set(req, entry);
      // After a cut-off answer the operation may still try to write; that must not crash the process.
      res.on('error', () => {});
      res.once('close', () => {
        if (this.inFlight.delete(req) && this.draining) {
          this.finished++;
          if (this.inFlight.size === 0) this.onIdle?.();
        }
      });
      listener(req, res);
    };
  }

  /**
   * Marks requests that execute a mutation, so the deadline can report their outcome as unknown,
   * and answers sent as Server-Sent Events, so the deadline can end them with a last event.
   */
  plugin(): Plugin {
    return {
      onResponse: ({ response, serverContext }) => {
        const req = incomingOf(serverContext);
        const entry = req && this.inFlight.get(req);
        if (entry) entry.events = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
      },
      onExecute: ({ args }) => {
        const { contextValue, document, operationName } = executionOf(args);
        const entry = contextValue.req && this.inFlight.get(contextValue.req);
        if (entry && getOperationAST(document, operationName)?.operation === OperationTypeNode.MUTATION)
          entry.write = true;
      },
    };
  }

  /**
   * Starts draining; resolves when everything in flight is answered, with how many operations
   * `finished` on their own and how many were cut off at the deadline (`writes` as OUTCOME_UNKNOWN).
   */
  async begin() {
    this.draining = true;
    // Keep-alive connections of the requests in flight close after their answer.
    for (const { res } of this.inFlight.values()) if (!res.headersSent) res.setHeader('connection', 'close');
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.onIdle = resolve;
        timer = setTimeout(resolve, this.options.drainMs);
      });
      clearTimeout(timer);
    }
    const cutOff = { writes: 0, reads: 0 };
    const answered: Promise<void>[] = [];
    for (const [req, entry] of this.inFlight) {
      if (entry.write) cutOff.writes++;
      else cutOff.reads++;
      answered.push(this.cutOff(req, entry));
    }
    await Promise.all(answered);
    return { finished: this.finished, cutOff };
  }

  private refuse(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    // Liveness stays green: the process is healthy, only leaving.
    if (path === '/health') return closing(res, 200, {}, '{"status":"ok","draining":true}');
    if (path === '/ready') return closing(res, 503, { 'cache-control': 'no-store' }, '{"ready":false,"draining":true}');
    req.resume();
    this.unavailable(res, 'SHUTTING_DOWN', 'This gateway is shutting down; retry (another replica will answer).');
  }

  private unavailable(res: ServerResponse, code: string, message: string): void {
    closing(res, 503, { 'retry-after': String(this.options.retryAfterS) }, JSON.stringify(errorBody(code, message)));
  }

  private cutOff(req: IncomingMessage, { res, write, events }: InFlight): Promise<void> {
    const code = write ? 'OUTCOME_UNKNOWN' : 'SHUTTING_DOWN';
    const message = write
      ? 'The gateway shut down before this mutation finished: its upstream write may or may not have been applied. Read the record before retrying.'
      : 'The gateway shut down before this operation finished; retry.';
    const done = new Promise<void>((resolve) => {
      res.once('close', () => resolve());
      res.once('finish', () => resolve());
    });
    if (res.writableEnded) return Promise.resolve();
    if (!res.headersSent) this.unavailable(res, code, message);
    else if (events)
      res.end(`event: next\ndata: ${JSON.stringify(errorBody(code, message))}\n\nevent: complete\ndata:\n\n`);
    // A multipart (@defer/@stream) answer: end the stream; the client sees it incomplete rather than cut.
    else res.end();
    this.options.log?.(
      JSON.stringify({ level: 'warn', msg: 'drain deadline: operation cut off', code, path: req.url }),
    );
    return done;
  }
}

/** A JSON answer on a connection that closes after it. */
function closing(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers, connection: 'close' }).end(body);
}

function errorBody(code: string, message: string) {
  return { errors: [{ message, extensions: { code } }] };
}

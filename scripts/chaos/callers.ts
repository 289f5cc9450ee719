/**
 * The chaos run's callers: closed loops over the replicas, each sending the load run's mix of reads
 * and writes on both upstreams (test/support/load-workload.ts: every write a unique name), a stale
 * probe reading a few calendar records again and again, and the breaker's waves. Every operation is
 * recorded as the caller saw it (`Outcome`), for the checks.
 */
import { Agent, request } from 'undici';
import type { Operation } from '../../test/support/load-driver.js';
import type { Outcome } from './checks.js';
import type { Replica } from './world.js';

const WRITE_UPSTREAM: Record<string, 'governance' | 'calendar'> = {
  CreateDataset: 'governance',
  CreateTag: 'calendar',
};

interface Answer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: { cost?: Record<string, { staleHits?: number }> };
}

export class Callers {
  readonly outcomes: Outcome[] = [];
  /** No client timeout short of the bound the checks hold: a hang shows up as one. */
  private readonly agent: Agent;
  private stopped = false;
  private sequence = 0;
  /** The first message of each error code seen. */
  readonly samples: Record<string, string> = {};

  constructor(
    private readonly replicas: Replica[],
    hangAfterMs: number,
  ) {
    this.agent = new Agent({ headersTimeout: hangAfterMs, bodyTimeout: hangAfterMs });
  }

  /** Sends one operation to one replica and records it; resolves with the answer when one came. */
  async send(
    caller: string,
    replica: Replica,
    op: string,
    body: { query: string; variables?: Record<string, unknown> },
    extra: Partial<Outcome> = {},
  ): Promise<{ outcome: Outcome; answer?: Answer }> {
    const startedAt = Date.now();
    const t0 = performance.now();
    const outcome: Outcome = { caller, replica: replica.index, op, startedAt, ms: 0, codes: [], ...extra };
    const downAtStart = replica.state !== 'up';
    let answer: Answer | undefined;
    try {
      // A connection per request: a keep-alive socket the server closes as the request goes out is
      // the client's race, not a request the drain dropped.
      const res = await request(replica.url, {
        method: 'POST',
        dispatcher: this.agent,
        reset: true,
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify(body),
      });
      outcome.status = res.statusCode;
      const text = await res.body.text();
      answer = text.startsWith('{') ? (JSON.parse(text) as Answer) : undefined;
      for (const e of answer?.errors ?? []) {
        const code = e.extensions?.code ?? 'NONE';
        outcome.codes.push(code);
        this.samples[code] ??= `${op}: ${e.message}`;
      }
      outcome.calendarStale = answer?.extensions?.cost?.calendar?.staleHits ?? 0;
    } catch (e) {
      outcome.transport = (e as { code?: string }).code ?? (e as Error).message;
      outcome.replicaDown = downAtStart || replica.state !== 'up';
    }
    outcome.ms = performance.now() - t0;
    this.outcomes.push(outcome);
    return { outcome, answer };
  }

  /** A replica that is serving, starting from `preferred`. */
  pick(preferred: number): Replica {
    for (let i = 0; i < this.replicas.length; i++) {
      const r = this.replicas[(preferred + i) % this.replicas.length]!;
      if (r.state === 'up') return r;
    }
    return this.replicas[preferred % this.replicas.length]!;
  }

  /** `count` callers over `operations` until `stop()`, plus the stale probe over `venueIds`. */
  run(operations: Operation[], count: number, venueIds: string[]): Promise<void> {
    const table = operations.flatMap((op) => Array.from({ length: op.weight }, () => op));
    const loops = Array.from({ length: count }, (_, i) => this.loop(`caller-${i}`, table));
    return Promise.all([...loops, this.staleProbe(venueIds)]).then(() => undefined);
  }

  private async loop(caller: string, table: Operation[]): Promise<void> {
    while (!this.stopped) {
      // One sequence for every caller: each write's name is unique across the run.
      const n = this.sequence++;
      const op = table[n % table.length]!;
      const variables = op.variables(n);
      const upstream = WRITE_UPSTREAM[op.name];
      const write: Outcome['write'] = upstream ? { upstream, name: String(variables.name) } : undefined;
      const { answer } = await this.send(caller, this.pick(n), op.name, { query: op.query, variables }, { write });
      if (write && answer?.data && op.ack) write.id = op.ack(answer.data)?.id;
    }
  }

  /** Reads the same few venues again and again, so a black-holed calendar is met with cached records. */
  private async staleProbe(venueIds: string[]): Promise<void> {
    const query = 'query ($id: ID!) { venue(id: $id) { id name } }';
    for (let n = 0; !this.stopped; n++) {
      const id = venueIds[n % venueIds.length]!;
      await this.send(
        'stale-probe',
        this.pick(n),
        'StaleProbe',
        { query, variables: { id } },
        { path: `/venues/${id}` },
      );
      await new Promise((r) => setTimeout(r, 500 / venueIds.length));
    }
  }

  stop(): void {
    this.stopped = true;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

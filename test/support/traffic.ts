/**
 * Traffic tests at the `Upstream` level: a real governance emulator over HTTP and one or more sets
 * of upstreams built by `createUpstreams` from an environment (scaled-down limits and windows), with
 * helpers to get tokens through the upstream (so they count against the budget, as in production)
 * and to read what the emulator saw. Everything started here is closed in afterAll.
 */
import { afterAll } from 'vitest';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { TrafficEvent } from '../../src/core/traffic-log.js';
import type { Caller } from '../../src/core/upstream-pipeline.js';
import { UsageTracker } from '../../src/core/usage.js';
import { startGovernanceEmulator, type GovernanceEmulatorOptions } from '../../src/emulators/governance/index.js';
import { createUpstreams, type Upstreams } from '../../src/app/build-upstreams.js';

export type GovernanceEmulator = Awaited<ReturnType<typeof startGovernanceEmulator>>;

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => undefined)));
});

export async function startEmulator(options: GovernanceEmulatorOptions = {}): Promise<GovernanceEmulator> {
  const emulator = await startGovernanceEmulator(options);
  closers.push(() => emulator.close());
  return emulator;
}

export interface Gate {
  config: Config;
  upstreams: Upstreams;
  /** Traffic log events, each with `seenAt` (epoch ms when logged) and `sentBefore` (sends until then). */
  events: (TrafficEvent & { seenAt?: number; sentBefore?: number })[];
  /** Epoch ms of every request this gateway put on the wire (from the pipeline's observer). */
  sentAt: number[];
  /** A caller with a token of `client` (fetched through the governance upstream). */
  caller(client?: 'full' | 'read' | 'write'): Promise<Caller & { headers: Record<string, string> }>;
  close(): Promise<void>;
}

/** The environment of a governance-only gateway in front of `emulator` (in this process or a child). */
export function gateEnv(emulator: GovernanceEmulator): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    GOVERNANCE_URL: emulator.origin,
    GOVERNANCE_RATE_PROFILE: 'production',
    GOVERNANCE_CLIENT_ID: emulator.clients.full.clientId,
    GOVERNANCE_CLIENT_SECRET: emulator.clients.full.clientSecret,
    // Not used by these tests; createUpstreams needs both.
    CALENDAR_URL: 'http://127.0.0.1:9/wp-json/calendar/events/v1',
  };
}

/** A governance-only gateway's upstreams; `configure` has the last word on the config (fixed values, e.g. the ramp step). */
export async function startGate(
  emulator: GovernanceEmulator,
  env: Record<string, string> = {},
  configure: (config: Config) => Config = (c) => c,
): Promise<Gate> {
  const loaded = loadConfig({ ...gateEnv(emulator), ...env });
  const config = configure({ ...loaded, retry: { ...loaded.retry, baseDelayMs: 10, maxDelayMs: 50 } });
  const events: TrafficEvent[] = [];
  const sentAt: number[] = [];
  const upstreams = createUpstreams(
    config,
    {
      request: (e) => {
        if (e.upstream === 'governance') sentAt.push(Date.now());
        return () => undefined;
      },
    },
    { log: (e) => events.push({ ...e, seenAt: Date.now(), sentBefore: sentAt.length }) },
  );
  let closed = false;
  const gate: Gate = {
    config,
    upstreams,
    events,
    sentAt,
    async caller(client = 'full') {
      const usage = new UsageTracker();
      const { clientId, clientSecret } = emulator.clients[client];
      const form = new FormData();
      form.set('grant_type', 'client_credentials');
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
      // Encoded here: the transport sends strings and buffers as they are.
      const encoded = new Response(form);
      const body = Buffer.from(await encoded.arrayBuffer());
      const headers = { 'content-type': encoded.headers.get('content-type')! };
      const res = await upstreams.governance.call(
        {
          method: 'POST',
          path: '',
          url: emulator.tokenUrl,
          body,
          headers,
          idempotent: false,
          kind: 'write',
          operation: 'oauth.token',
        },
        { identity: `client:${clientId}`, usage },
      );
      const token = (res.body as { access_token: string }).access_token;
      return {
        identity: `client:${clientId}`,
        usage: new UsageTracker(),
        headers: { authorization: `Bearer ${token}` },
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await upstreams.close();
    },
  };
  closers.push(() => gate.close());
  return gate;
}

/** Ids of some seeded entities and an organization to create new ones in. */
export async function seedIds(
  gate: Gate,
  caller: Caller & { headers: Record<string, string> },
  n = 50,
): Promise<{ ids: string[]; orgId: string }> {
  const res = await gate.upstreams.governance.call(
    {
      method: 'POST',
      path: '/entity-basic-details/search',
      query: { page: 0, size: Math.min(50, n) },
      json: {},
      headers: caller.headers,
      idempotent: true,
      kind: 'page',
      operation: 'entities.basic',
    },
    caller,
  );
  const content = (res.body as { content: { id: string; orgGroupId: string }[] }).content;
  return { ids: content.map((e) => e.id), orgId: content[0]!.orgGroupId };
}

/** A GET of one entity through the upstream. */
export function getEntity(
  gate: Gate,
  caller: Caller & { headers: Record<string, string> },
  id: string,
  extra: Partial<Parameters<Gate['upstreams']['governance']['call']>[0]> = {},
) {
  return gate.upstreams.governance.call(
    {
      method: 'GET',
      path: `/entities/${id}`,
      headers: caller.headers,
      idempotent: true,
      kind: 'read',
      operation: 'entities.get',
      ...extra,
    },
    caller,
  );
}

/** Largest number of timestamps in one aligned window of `windowMs`. */
export function maxPerWindow(times: number[], windowMs: number): number {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(Math.floor(t / windowMs), (counts.get(Math.floor(t / windowMs)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

/** Sends the gateway put on the wire after it read its first 429, and when it read it. */
export function sentAfterFirst429(gate: Gate): { readAt: number; pauseMs: number; sends: number[] } {
  const event = gate.events.find((e) => e.msg.includes('429'));
  if (!event) throw new Error('no 429 was logged');
  // By order, not by time: a send in the same millisecond but before the 429 was read is not "after".
  return { readAt: event.seenAt!, pauseMs: event.pauseMs as number, sends: gate.sentAt.slice(event.sentBefore) };
}

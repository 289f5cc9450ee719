/**
 * The audit trail, over HTTP against the real emulators: a day of writes from three callers is
 * replayed (the trail's clock walks through the day), and from the audit lines alone the test
 * reconstructs who moved which model to which stage, and when. Every mutation attempt leaves exactly
 * one event (applied, refused by validation, refused by the caller's operations-per-minute cap),
 * queries leave none, and no line holds a credential.
 *
 * Every caller is a JWT signed by the development issuer (a real JWKS on a socket), sent in the
 * Authorization header; the gateway verifies it and takes the caller's identity from its claims.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { PERMISSIONS } from '../src/identity/principal.js';
import type { AuditEvent } from '../src/observability/audit.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';
import { startStack } from './support/stack.js';

const scope = PERMISSIONS.join(' ');
let issuer: DevIssuer;
/** Each caller's signed token. The agent is a service client acting as an automated agent. */
const tokens: Record<'alice' | 'bob' | 'agent', string> = { alice: '', bob: '', agent: '' };

beforeAll(async () => {
  issuer = await DevIssuer.start();
  tokens.alice = await issuer.sign({ sub: 'alice', client_id: 'portal', scope });
  tokens.bob = await issuer.sign({ sub: 'bob', client_id: 'portal', scope });
  tokens.agent = await issuer.sign({ sub: 'triage-bot', client_id: 'triage-bot', agent: 'triage', scope });
});
afterAll(() => issuer?.close());

type Caller = keyof typeof tokens;

async function start(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const day = Date.parse('2026-03-02T00:00:00Z');
  const clock = { now: day };
  const stack = await startStack({
    env: {
      AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
      // Without a verified token nothing runs: every identity in the trail comes from a token.
      AUTH_ANONYMOUS: 'none',
      // The agent may start 4 operations a minute; the others have no cap.
      FAIR_SHARE: `${issuer.issuer}|triage-bot:rpm=4`,
      ...env,
    },
    gateway: { audit: { sink: (line) => lines.push(line), clock: () => clock.now } },
  });
  const url = await stack.listen();
  const send = async (caller: Caller, query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[caller]}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] } };
  };
  return { lines, clock, day, send, governance: stack.governance, gateway: stack.gateway };
}

const MOVE = `mutation Move($id: ID!, $stage: String!) {
  moveEntityToStage(input: { entityId: $id, nextStageName: $stage }) { name }
}`;

describe('audit trail', () => {
  it('replays a day of writes from three callers; the trail alone says who moved which model to which stage, and when', async () => {
    const { lines, clock, day, send, governance } = await start();
    const models = await send('alice', '{ entities(kind: MODEL, first: 4) { nodes { id } } }');
    const ids = (models.body.data!.entities as { nodes: { id: string }[] }).nodes.map((n) => n.id);
    expect(ids.length).toBe(4);
    expect(lines).toEqual([]); // reads are not audited

    // The day: [minute of the day, caller, model, stage].
    const day1: [number, Caller, number, string][] = [
      [8 * 60 + 5, 'alice', 0, 'Development'],
      [8 * 60 + 40, 'bob', 1, 'Development'],
      [9 * 60 + 15, 'agent', 2, 'Testing'],
      [11 * 60, 'alice', 0, 'Testing'],
      [13 * 60 + 30, 'bob', 1, 'Approved'],
      [14 * 60 + 45, 'agent', 3, 'Development'],
      [16 * 60 + 10, 'alice', 0, 'Approved'],
      [17 * 60 + 55, 'bob', 0, 'Deployed'],
    ];
    let attempts = 0;
    for (const [minute, caller, model, stage] of day1) {
      clock.now = day + minute * 60_000;
      const res = await send(caller, MOVE, { id: ids[model], stage });
      attempts++;
      expect(res.body.errors).toBeUndefined();
    }
    // Refused attempts: an empty stage name (validation), and the agent past its 4 operations a minute.
    clock.now = day + 18 * 60 * 60_000;
    const bad = await send('bob', MOVE, { id: ids[2], stage: '' });
    attempts++;
    expect(bad.body.errors).toBeDefined();
    // A document that does not validate (no such argument): refused before anything runs.
    const invalid = await send('alice', 'mutation { moveEntityToStage(input: { entityId: "x" }, nope: 1) { name } }');
    attempts++;
    expect(invalid.body.errors).toBeDefined();
    const burst = [];
    for (let i = 0; i < 5; i++) {
      burst.push(await send('agent', MOVE, { id: ids[3], stage: 'Testing' }));
      attempts++;
    }
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1);

    // Exactly one event per attempt, and none holds a credential.
    expect(lines.length).toBe(attempts);
    const secret = governance.clients.full.clientSecret;
    for (const line of lines) {
      expect(line).not.toMatch(/Bearer|eyJ/);
      for (const token of Object.values(tokens)) expect(line).not.toContain(token.split('.')[2]);
      expect(line).not.toContain(secret);
    }

    // From the trail alone: who moved which model to which stage, and when.
    const events = lines.map((l) => JSON.parse(l) as AuditEvent);
    const moves = events.flatMap((e) =>
      e.writes
        .filter((w) => w.field === 'moveEntityToStage' && w.outcome === 'applied')
        .map((w) => ({
          who: e.caller.sub,
          agent: e.caller.agent,
          entity: w.records.find((r) => r.kind === 'entity')?.id,
          stage: w.records.find((r) => r.kind === 'stage')?.id,
          at: e.time,
        })),
    );
    const sub: Record<Caller, string> = { alice: 'alice', bob: 'bob', agent: 'triage-bot' };
    const expected = day1.map(([minute, caller, model, stage]) => ({
      who: sub[caller],
      agent: caller === 'agent' ? 'triage' : undefined,
      entity: ids[model],
      stage,
      at: new Date(day + minute * 60_000).toISOString(),
    }));
    // The agent's burst: the ones its cap let through were applied too, at 18:00.
    const burstApplied = burst.filter((r) => r.status === 200).length;
    expect(moves.slice(0, day1.length)).toEqual(expected);
    expect(moves.length).toBe(day1.length + burstApplied);
    // Who moved model 0 into Deployed, and when.
    expect(moves.filter((m) => m.entity === ids[0] && m.stage === 'Deployed')).toEqual([
      { who: 'bob', agent: undefined, entity: ids[0], stage: 'Deployed', at: '2026-03-02T17:55:00.000Z' },
    ]);

    // The refusals are there, with why, and cost nothing upstream.
    const refused = events.filter((e) => e.outcome === 'refused');
    expect(refused.map((e) => e.writes[0]!.code).sort()).toEqual([
      'BAD_USER_INPUT',
      'GRAPHQL_VALIDATION_FAILED',
      ...Array<string>(5 - burstApplied).fill('RATE_LIMITED'),
    ]);
    for (const e of refused) expect(e.upstreamCalls.governance ?? 0).toBe(0);
    // Each event: the request id, the caller, the operation, the arguments' hash, the upstream calls.
    const first = events[0]!;
    expect(first).toMatchObject({
      operation: 'Move',
      outcome: 'applied',
      caller: { id: `${issuer.issuer}|alice`, kind: 'user', sub: 'alice', iss: issuer.issuer, clientId: 'portal' },
    });
    expect(first.requestId).toMatch(/\S/);
    expect(first.argsHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(first.upstreamCalls.governance).toBeGreaterThanOrEqual(1);
    // The agent's token is a service client's: so says every event of it, applied or refused.
    const agents = events.filter((e) => e.caller.sub === 'triage-bot');
    expect(agents.length).toBe(2 + burst.length);
    for (const e of agents)
      expect(e.caller).toMatchObject({ kind: 'service', clientId: 'triage-bot', agent: 'triage', iss: issuer.issuer });
  });

  it('with tracing on, each event is also an audit event on the operation span', async () => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const { lines, send, gateway } = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    const res = await send('bob', MOVE, { id: '6f1c2b1e-0000-4000-8000-000000000000', stage: 'Testing' });
    expect(res.body.errors).toBeDefined(); // no such record: refused by the platform
    expect(lines.length).toBe(1);
    await gateway.observability.tracing!.flush();
    const span = receiver.spans.find((s) => s.name === 'mutation Move');
    const event = span?.events.find((e) => e.name === 'audit');
    expect(event?.attributes).toMatchObject({
      'audit.outcome': 'refused',
      'audit.caller': `${issuer.issuer}|bob`,
      'audit.operation': 'Move',
    });
    expect(JSON.parse(String(event!.attributes['audit.writes']))).toEqual((JSON.parse(lines[0]!) as AuditEvent).writes);
  });

  it('AUDIT_SINK: stdout by default, off under NODE_ENV=test, a file path as given', () => {
    const env = {
      GOVERNANCE_URL: 'http://127.0.0.1:9',
      GOVERNANCE_AUTH_MODE: 'forward',
      CALENDAR_URL: 'http://127.0.0.1:9',
    };
    expect(loadConfig({ ...env, NODE_ENV: 'development' }).observability.auditSink).toBe('stdout');
    expect(loadConfig({ ...env, NODE_ENV: 'test' }).observability.auditSink).toBe('off');
    expect(
      loadConfig({ ...env, NODE_ENV: 'test', AUDIT_SINK: '/var/log/gateway/audit.jsonl' }).observability.auditSink,
    ).toBe('/var/log/gateway/audit.jsonl');
  });
});

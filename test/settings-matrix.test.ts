/**
 * The settings production accepts, tested together: a pairwise covering set of cells over the
 * factors where guarantees broke when features met (each upstream's auth mode, AUTH_ANONYMOUS,
 * Redis on / off / lost mid-run, MCP, FEDERATION_SECRET). Every pair of factor values is in some
 * cell (checked below). Each cell is a real production process (`src/server.ts`, NODE_ENV=production)
 * in front of the same emulators and JWKS issuer on sockets, and each runs the same probes:
 * who may do what with no credential, a garbage one, a reader's token; /metrics; MCP's tool list;
 * `_entities` without the router's secret; a caller held to its cap of the account rule. The
 * emulators' request logs witness that nothing refused cost an upstream call. Production's refusals
 * to start a combination it cannot make safe are checked last.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrowawayRedis, type ThrowawayRedis } from '../scripts/throwaway-redis.js';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { refusedStart, startGateway, type GatewayProcess } from './support/gateway-process.js';
import { raw } from './support/mcp-clients.js';
import { REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

type Mode = 'configured' | 'forward';
interface Cell {
  governance: Mode;
  calendar: Mode;
  /** AUTH_ANONYMOUS: none, or one read permission. */
  anonymous: 'none' | 'governance:read';
  redis: 'on' | 'off' | 'lost';
  mcp: boolean;
  federationSecret: boolean;
}

const FACTORS = {
  governance: ['configured', 'forward'],
  calendar: ['configured', 'forward'],
  anonymous: ['none', 'governance:read'],
  redis: ['on', 'off', 'lost'],
  mcp: [false, true],
  federationSecret: [false, true],
} as const;

/** Seven cells cover every pair (six cannot: Redis's three values each need two cells of opposite values). */
const CELLS: Cell[] = (
  [
    ['forward', 'configured', 'governance:read', 'on', false, true],
    ['configured', 'configured', 'governance:read', 'lost', true, false],
    ['forward', 'forward', 'none', 'lost', false, true],
    ['configured', 'forward', 'none', 'on', true, true],
    ['forward', 'forward', 'none', 'on', true, false],
    ['configured', 'configured', 'none', 'off', false, false],
    ['forward', 'forward', 'governance:read', 'off', true, true],
  ] as const
).map(([governance, calendar, anonymous, redis, mcp, federationSecret]) => ({
  governance,
  calendar,
  anonymous,
  redis,
  mcp,
  federationSecret,
}));

const name = (c: Cell) =>
  `governance ${c.governance}, calendar ${c.calendar}, anonymous ${c.anonymous}, Redis ${c.redis}, MCP ${c.mcp ? 'on' : 'off'}, federation secret ${c.federationSecret ? 'set' : 'unset'}`;

/** The account rule of every cell, and a caller's default cap of it (25 % of 90 % of 40). */
const RULES = 'minute:0,hour:0,40/60s';
const CALLER_CAP = Math.floor(40 * 0.9 * 0.25);
const FEDERATION_SECRET = 'the-routers-shared-secret-of-this-test';
const GOVERNANCE_PERMISSIONS = ['governance:delete', 'governance:read', 'governance:workflow', 'governance:write'];
const CALENDAR_PERMISSIONS = ['calendar:read', 'calendar:write'];
/** The MCP tools of each upstream (src/mcp/tools/*.graphql); AccountBudget reads neither. */
const TOOLS = {
  governance: [
    'DeleteEntity',
    'DescribeGovernanceModel',
    'FindEntities',
    'GetEntity',
    'LinkEntities',
    'MoveEntityToStage',
    'RegisterEntity',
    'UnlinkEntities',
    'UpdateEntity',
  ],
  calendar: ['CreateEvent', 'DeleteEvent', 'FindEvents', 'GetEvent', 'UpdateEvent'],
};

const redis = await requireRedis();
let issuer: DevIssuer;
let emulators: Awaited<ReturnType<typeof emulatorPair>>;
const gateways = new Map<Cell, { process: GatewayProcess; lost?: ThrowawayRedis }>();
const closers: (() => Promise<unknown>)[] = [];

async function emulatorPair() {
  const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
  closers.push(
    () => governance.close(),
    () => calendar.close(),
  );
  return { governance, calendar };
}

/** The production environment of a cell: what an operator sets, the tenant's URLs swapped for the emulators'. */
function environment(cell: Cell, redisUrl?: string): Record<string, string> {
  const tenant = emulatorEnv(emulators.governance, emulators.calendar);
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    GOVERNANCE_URL: tenant.GOVERNANCE_URL!,
    GOVERNANCE_RATE_PROFILE: 'production',
    GOVERNANCE_RATE_LIMITS: RULES,
    GOVERNANCE_DISCOVERY_FILE: tenant.GOVERNANCE_DISCOVERY_FILE!,
    UPSTREAM_QUEUE_DEADLINE_MS: '200',
    CALENDAR_URL: tenant.CALENDAR_URL!,
    GOVERNANCE_AUTH_MODE: cell.governance,
    CALENDAR_AUTH_MODE: cell.calendar,
    // An operator forwarding callers' credentials has no credentials of its own for that upstream.
    ...(cell.governance === 'configured'
      ? {
          GOVERNANCE_CLIENT_ID: tenant.GOVERNANCE_CLIENT_ID!,
          GOVERNANCE_CLIENT_SECRET: tenant.GOVERNANCE_CLIENT_SECRET!,
        }
      : {}),
    ...(cell.calendar === 'configured'
      ? { CALENDAR_USER: tenant.CALENDAR_USER!, CALENDAR_APP_PASSWORD: tenant.CALENDAR_APP_PASSWORD! }
      : {}),
    AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
    AUTH_ANONYMOUS: cell.anonymous,
    MCP: String(cell.mcp),
    ...(cell.mcp ? { MCP_MUTATIONS: 'true', MCP_STATE_KEY: randomUUID() + randomUUID() } : {}),
    ...(cell.federationSecret ? { FEDERATION_SECRET } : {}),
    ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: uniquePrefix() } : {}),
  };
}

async function startCell(cell: Cell): Promise<void> {
  let lost: ThrowawayRedis | undefined;
  if (cell.redis === 'lost') {
    const started = await startThrowawayRedis();
    if (typeof started === 'string') throw new Error(started);
    lost = started;
    closers.push(() => started.stop());
  }
  const url = cell.redis === 'on' ? REDIS_URL : lost?.url;
  const process = await startGateway(environment(cell, url));
  closers.push(() => process.stop());
  // Its start-up probes of both upstreams are done before any cell counts upstream requests.
  await until(() => /upstream governance: /.test(process.output()) && /upstream calendar: /.test(process.output()));
  gateways.set(cell, { process, lost });
}

beforeAll(async () => {
  if (!redis) return;
  [issuer, emulators] = await Promise.all([DevIssuer.start(), emulatorPair()]);
  closers.push(() => issuer.close());
  // Three at a time: seven processes loading at once on two cores only take longer each.
  for (let i = 0; i < CELLS.length; i += 3) await Promise.all(CELLS.slice(i, i + 3).map(startCell));
}, 120_000);

afterAll(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => undefined)));
});

/**
 * Upstream requests since the last `mark()`, but the gateway's own: token requests and the readiness
 * probe (`HEAD /` without credentials, behind /ready and the start-up lines).
 */
function upstreamLog() {
  const log = () =>
    [
      ...emulators.governance.control
        .requests()
        .requests.filter((r) => !/oauth\/token/.test(r.path))
        .map((r) => ({ upstream: 'governance', ...r })),
      ...emulators.calendar.control.requests().requests.map((r) => ({ upstream: 'calendar', ...r })),
    ].filter((r) => r.route !== 'HEAD /');
  let seen = 0;
  return {
    since: () => log().slice(seen),
    mark: () => void (seen = log().length),
  };
}

interface Answer {
  status: number;
  requestId: string | null;
  body: { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, any> }[] };
}

async function graphql(origin: string, query: string, headers: Record<string, string> = {}, variables = {}) {
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  return {
    status: res.status,
    requestId: res.headers.get('x-request-id'),
    body: text ? JSON.parse(text) : {},
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const codes = (a: Answer) => (a.body.errors ?? []).map((e) => e.extensions?.code);
const permissionsRefused = (a: Answer) => (a.body.errors ?? []).map((e) => e.extensions?.permission).filter(Boolean);
const VIEWER = '{ viewer { id permissions } }';
const READS = '{ entities(first: 1) { nodes { id } } events(first: 1) { nodes { id } } }';
const WRITES =
  'mutation { createEntity(input: { organizationId: "x", kind: DATASET, name: "matrix" }) { id } createTag(input: { name: "matrix" }) { id } }';

it('the cells cover every pair of factor values', () => {
  const keys = Object.keys(FACTORS) as (keyof Cell)[];
  const missing: string[] = [];
  for (const [i, a] of keys.entries())
    for (const b of keys.slice(i + 1))
      for (const va of FACTORS[a])
        for (const vb of FACTORS[b])
          if (!CELLS.some((c) => c[a] === va && c[b] === vb)) missing.push(`${a}=${va} × ${b}=${vb}`);
  expect(missing).toEqual([]);
});

describe.each(CELLS.map((cell) => [name(cell), cell] as const))('%s', (_name, cell) => {
  let origin: string;
  const upstream = upstreamLog();
  /** What a credential the gateway cannot verify may hold: the permissions of the upstreams that judge it. */
  const judgedByUpstream = [
    ...(cell.calendar === 'forward' ? CALENDAR_PERMISSIONS : []),
    ...(cell.governance === 'forward' ? GOVERNANCE_PERMISSIONS : []),
  ];

  beforeAll(async () => {
    if (!redis) return;
    origin = gateways.get(cell)!.process.origin;
  });

  it('a caller cannot exceed its cap of the account rule (Redis lost half-way when it is), refused reads cost no upstream call', async () => {
    if (!redis) return;
    // Forwarding, the caller's own upstream token; else a token of the gateway's issuer, a caller of its own.
    const authorization =
      cell.governance === 'forward'
        ? `Bearer ${await upstreamToken()}`
        : `Bearer ${await issuer.sign({ sub: `budget-${randomUUID()}`, scope: 'governance:read' })}`;
    const burst = () =>
      Promise.all(
        Array.from({ length: Math.ceil(1.5 * CALLER_CAP) }, () =>
          graphql(origin, 'query($id: ID!) { entity(id: $id) { id } }', { authorization }, { id: randomUUID() }),
        ),
      );
    const first = await burst();
    // Lost mid-run: what the caller spent through Redis still holds it once Redis is gone (and for
    // the probes after this one, which run without it).
    await gateways.get(cell)!.lost?.kill();
    const answers = [...first, ...(await burst())];
    const callsOf = (a: Answer) =>
      emulators.governance.control.requests().requests.filter((r) => r.requestId && r.requestId === a.requestId).length;
    const refused = answers.filter((a) => codes(a).includes('RATE_LIMITED'));
    const served = answers.filter((a) => a.status === 200 && !a.body.errors);
    const calls = answers.reduce((n, a) => n + callsOf(a), 0);
    console.info(
      `matrix | ${name(cell)} | ${answers.length} reads: ${served.length} served, ${refused.length} RATE_LIMITED, ${calls} upstream calls (cap ${CALLER_CAP})`,
    );
    expect(served.length + refused.length).toBe(answers.length);
    expect(served.length).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(CALLER_CAP);
    expect(refused.map(callsOf)).toEqual(refused.map(() => 0));
  });

  it('no credential: only what AUTH_ANONYMOUS grants, refused fields cost nothing', async () => {
    if (!redis) return;
    upstream.mark();
    const viewer = await graphql(origin, VIEWER);
    if (cell.anonymous === 'none') {
      expect(viewer.status).toBe(401);
      expect((await graphql(origin, READS)).status).toBe(401);
      expect((await fetch(`${origin}/graphql?query=${encodeURIComponent(READS)}`)).status).toBe(401);
      expect(upstream.since()).toEqual([]);
      return;
    }
    expect(viewer.body.data?.viewer).toEqual({ id: 'anonymous', permissions: ['governance:read'] });
    const reads = await graphql(origin, READS);
    expect(reads.body.data?.events).toBeNull();
    expect(permissionsRefused(reads)).toEqual(['calendar:read']);
    expect(upstream.since().filter((r) => r.upstream === 'calendar')).toEqual([]);
    if (cell.governance === 'configured') expect(reads.body.data?.entities?.nodes).toHaveLength(1);
    upstream.mark();
    const writes = await graphql(origin, WRITES);
    expect(permissionsRefused(writes).sort()).toEqual(['calendar:write', 'governance:write']);
    expect(upstream.since()).toEqual([]);
  });

  it.each([
    ['a garbage bearer token', 'Bearer garbage-not-a-token'],
    ['garbage basic credentials', `Basic ${Buffer.from('nobody:garbage').toString('base64')}`],
  ])(
    '%s: only what a forwarding upstream judges itself, nothing on an upstream the gateway signs for',
    async (_what, authorization) => {
      if (!redis) return;
      upstream.mark();
      const viewer = await graphql(origin, VIEWER, { authorization });
      if (judgedByUpstream.length === 0) {
        expect(viewer.status).toBe(401);
        expect(upstream.since()).toEqual([]);
        return;
      }
      expect(viewer.body.data?.viewer.permissions).toEqual(judgedByUpstream);
      const writes = await graphql(origin, WRITES, { authorization });
      // The gateway's own credentials never act for it: a configured upstream's field is FORBIDDEN, unsent.
      const configured = (['governance', 'calendar'] as const).filter((u) => cell[u] === 'configured');
      expect(permissionsRefused(writes).sort()).toEqual(configured.map((u) => `${u}:write`));
      expect(upstream.since().filter((r) => configured.includes(r.upstream as never))).toEqual([]);
      // The forwarding upstream refused the garbage itself: no record was created.
      expect(writes.body.data?.createEntity ?? null).toBeNull();
      expect(writes.body.data?.createTag ?? null).toBeNull();
    },
  );

  it("a reader's token reads and cannot write: FORBIDDEN, nothing sent", async () => {
    if (!redis) return;
    const reader = bearer(await issuer.tokenFor('reader'));
    upstream.mark();
    const writes = await graphql(origin, WRITES, reader);
    expect(writes.status).toBe(200);
    expect(writes.body.data).toEqual({ createEntity: null, createTag: null });
    expect(permissionsRefused(writes).sort()).toEqual(['calendar:write', 'governance:write']);
    expect(upstream.since()).toEqual([]);
    if (cell.governance === 'configured') {
      const reads = await graphql(origin, READS, reader);
      expect(reads.body.data?.entities?.nodes).toHaveLength(1);
    }
  });

  it('/metrics: refused without its permission, answered with it', async () => {
    if (!redis) return;
    const metrics = (headers: Record<string, string> = {}) =>
      fetch(`${origin}/metrics`, { headers }).then((r) => r.status);
    expect(await metrics()).toBe(401);
    expect(await metrics({ authorization: 'Bearer garbage-not-a-token' })).toBe(401);
    expect(await metrics(bearer(await issuer.tokenFor('reader')))).toBe(403);
    expect(await metrics(bearer(await issuer.sign({ sub: 'prometheus', scope: 'metrics:read' })))).toBe(200);
  });

  it('MCP: off answers nothing; on, tools/list shows only the tools the caller may call', async () => {
    if (!redis) return;
    const mcp = `${origin}/mcp`;
    const admin = bearer(await issuer.tokenFor('admin'));
    if (!cell.mcp) {
      const res = await fetch(mcp, { method: 'POST', headers: { 'content-type': 'application/json', ...admin } });
      expect(res.status).toBe(404);
      return;
    }
    const list = async (headers: Record<string, string> = {}) => {
      const res = await raw(mcp, 'tools/list', {}, headers);
      const tools = (res.body.result?.tools ?? []) as { name: string; annotations?: { readOnlyHint?: boolean } }[];
      return { status: res.status, names: tools.map((t) => t.name).sort(), tools };
    };
    // No tool of an upstream that reads the caller's own credential: an agent's token never goes upstream.
    const offered = [
      'AccountBudget',
      ...(['governance', 'calendar'] as const).flatMap((u) => (cell[u] === 'configured' ? TOOLS[u] : [])),
    ].sort();
    const all = await list(admin);
    expect(all.names).toEqual(offered);
    const readOnly = all.tools.filter((t) => t.annotations?.readOnlyHint !== false).map((t) => t.name);
    expect(readOnly.length < offered.length).toBe(offered.length > 1);
    expect((await list(bearer(await issuer.tokenFor('reader')))).names).toEqual(readOnly);
    const governanceReader = bearer(await issuer.sign({ sub: 'gov-reader', scope: 'governance:read' }));
    const governanceOnly = readOnly.filter((n) => !TOOLS.calendar.includes(n));
    expect((await list(governanceReader)).names).toEqual(governanceOnly);
    expect((await list({ authorization: 'Bearer garbage-not-a-token' })).status).toBe(401);
    const anonymous = await list();
    if (cell.anonymous === 'none') expect(anonymous.status).toBe(401);
    else expect(anonymous.names).toEqual(governanceOnly);
  });

  it("_entities without the router's secret is refused and costs nothing; with it, answered", async () => {
    if (!redis) return;
    const admin = bearer(await issuer.tokenFor('admin'));
    const query = `{ _entities(representations: [{ __typename: "Entity", id: "${randomUUID()}" }]) { __typename } }`;
    upstream.mark();
    const without = await graphql(origin, query, admin);
    expect(codes(without)).toContain('FORBIDDEN');
    expect(without.body.data ?? null).toBeNull();
    const wrong = await graphql(origin, query, { ...admin, 'x-federation-secret': 'a-guess' });
    expect(codes(wrong)).toContain('FORBIDDEN');
    expect(upstream.since()).toEqual([]);
    if (cell.federationSecret) {
      const router = await graphql(origin, query, { ...admin, 'x-federation-secret': FEDERATION_SECRET });
      expect(codes(router)).not.toContain('FORBIDDEN');
      expect(router.body.data).toHaveProperty('_entities');
    }
  });
});

describe('production refuses to start what it cannot make safe, naming why', () => {
  it.each([
    [
      'callers without credentials hold a permission while any website may call (CORS_ORIGINS=*)',
      { AUTH_ANONYMOUS: 'governance:read', CORS_ORIGINS: '*' },
      /CORS_ORIGINS=\* lets any website call with the permissions AUTH_ANONYMOUS gives/,
    ],
    [
      'MCP on without the key that seals its confirmations on every replica',
      { MCP: 'true', MCP_STATE_KEY: '' },
      /MCP_STATE_KEY is required in production while MCP is on/,
    ],
    [
      'no caller could authenticate (no issuer, no API key, nothing anonymous, nothing forwarded)',
      { AUTH_ISSUERS: '', AUTH_ANONYMOUS: 'none' },
      /NODE_ENV=production lets no caller in: set AUTH_ISSUERS/,
    ],
    [
      'an upstream the gateway signs for, without its credentials',
      { GOVERNANCE_CLIENT_SECRET: '', CALENDAR_APP_PASSWORD: '', CALENDAR_USER: '' },
      /missing: GOVERNANCE_CLIENT_SECRET, CALENDAR_USER, CALENDAR_APP_PASSWORD/,
    ],
  ])('%s', async (_why, change, reason) => {
    if (!redis) return;
    const cell = CELLS.find((c) => c.governance === 'configured' && c.calendar === 'configured' && c.redis === 'off')!;
    const env = Object.fromEntries(Object.entries({ ...environment(cell), ...change }).filter(([, v]) => v !== ''));
    const { code, output } = await refusedStart(env);
    expect(code).toBe(1);
    expect(output).toMatch(reason);
    // One line per problem, no stack.
    expect(output).not.toMatch(/^\s+at /m);
  });
});

/** A token of the governance emulator, as a caller forwarding its own credential holds. */
async function upstreamToken(): Promise<string> {
  const form = new FormData();
  form.set('grant_type', 'client_credentials');
  form.set('client_id', emulators.governance.clients.full.clientId);
  form.set('client_secret', emulators.governance.clients.full.clientSecret);
  const res = await fetch(emulators.governance.tokenUrl, { method: 'POST', body: form });
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * The adversarial suite: one place that attacks a real production process (`src/server.ts`,
 * NODE_ENV=production, every door open that production can open: MCP with its write tools,
 * persisted operations, batches, federation, the response cache) in front of the emulators and a
 * JWKS issuer on sockets. Every probe prints one line, what it sent and what came back
 * (`adversarial | probe | sent … | got …`), and asserts the refusal and that the emulators saw no
 * request for it. A second process forwards callers' credentials to governance, for the garbage
 * credential of mixed auth modes. `ADVERSARIAL=full` also sends every forged token through every door.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTHeaderParameters } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { startGateway, type GatewayProcess } from './support/gateway-process.js';
import { until } from './support/wait.js';

const FULL = process.env.ADVERSARIAL === 'full';
const FEDERATION_SECRET = 'adversarial-router-secret';
/** Persisted operations of the safelist (src/generated/persisted-documents.json). */
const ENTITY_TYPE_LIST = '137550d7d72c5d5f91b2d11788596fe50d1c0947fa47688f963a5ac7bff3cdea';
const CREATE_TAG = '3c08fbb31bfe05ea51b872e5066a1fcab27d860d1841dfd4ddb4ad55b8c4947c';
/** What a 2026-07-28 MCP request carries in place of `initialize`. */
const MCP_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'adversarial', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const GOVERNANCE_READ = '{ entityTypes(first: 1) { nodes { id } } }';

let issuer: DevIssuer;
let stranger: DevIssuer;
let emulators: {
  governance: Awaited<ReturnType<typeof startGovernanceEmulator>>;
  calendar: Awaited<ReturnType<typeof startCalendarEmulator>>;
};
let gateway: GatewayProcess;
let mixed: GatewayProcess;
/** Where a forged header points (jku, x5u): it counts what the gateway asks it. */
let trap: { server: Server; url: string; hits: string[] };
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
  emulators = { governance, calendar };
  [issuer, stranger] = await Promise.all([DevIssuer.start(), DevIssuer.start()]);
  trap = await startTrap();
  closers.push(
    () => governance.close(),
    () => calendar.close(),
    () => issuer.close(),
    () => stranger.close(),
    () => new Promise((r) => trap.server.close(r)),
  );
  const tenant = emulatorEnv(governance, calendar);
  const production = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ...tenant,
    AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
    AUTH_ANONYMOUS: 'none',
    PUBLIC_HOSTS: 'api.example.com',
    CORS_ORIGINS: 'https://app.example',
  };
  [gateway, mixed] = await Promise.all([
    startGateway({
      ...production,
      MCP: 'true',
      MCP_MUTATIONS: 'true',
      MCP_STATE_KEY: randomUUID() + randomUUID(),
      FEDERATION_SECRET,
      PERSISTED_OPERATIONS: 'allow',
      GRAPHQL_MAX_BATCH: '3',
    }),
    startGateway({
      ...production,
      GOVERNANCE_AUTH_MODE: 'forward',
      GOVERNANCE_CLIENT_ID: '',
      GOVERNANCE_CLIENT_SECRET: '',
    }),
  ]);
  closers.push(
    () => gateway.stop(),
    () => mixed.stop(),
  );
  // Their start-up probes of the upstreams are done before anything counts upstream requests.
  for (const g of [gateway, mixed]) await until(() => /upstream calendar: /.test(g.output()));
}, 120_000);

afterAll(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => undefined)));
});

async function startTrap() {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

/** Upstream requests the gateway made for callers (its token requests and readiness probe aside). */
function upstreamRequests(): string[] {
  return [
    ...emulators.governance.control.requests().requests.map((r) => `governance ${r.route}`),
    ...emulators.calendar.control.requests().requests.map((r) => `calendar ${r.route}`),
  ].filter((r) => !/oauth\/token|HEAD \/$/.test(r));
}

/** Runs `attack` and returns what it got, asserting that no upstream request was made meanwhile. */
async function costsNothing<T>(attack: () => Promise<T>): Promise<T> {
  const before = upstreamRequests().length;
  const got = await attack();
  expect(upstreamRequests().slice(before)).toEqual([]);
  return got;
}

/** The compact line every probe prints. */
function show(probe: string, sent: string, got: string): void {
  console.info(`adversarial | ${probe} | sent ${sent} | got ${got.replace(/\s+/g, ' ').slice(0, 240)}`);
}

interface Sent {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  via?: GatewayProcess;
}

/** One HTTP request to a gateway (undici: any header, Host included); its status, headers and text. */
async function send({ method = 'POST', path = '/graphql', headers = {}, body, via = gateway }: Sent) {
  const res = await request(`${via.origin}${path}`, {
    method: method as 'POST',
    headers: { ...(body && !headers['content-type'] ? { 'content-type': 'application/json' } : {}), ...headers },
    body,
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

const json = (v: unknown) => JSON.stringify(v);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const codesIn = (text: string) => [...new Set([...text.matchAll(/"code":"([A-Z_]+)"/g)].map((m) => m[1]!))];

describe('forged tokens: 401, nothing read, no key fetched from where the token points', () => {
  async function forgeries(): Promise<Record<string, string>> {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: 'mallory', scope: 'governance:read calendar:read', exp: now + 600, iat: now };
    const good = await issuer.sign(claims);
    const [, payload] = good.split('.') as [string, string];
    const b64 = (v: unknown) => Buffer.from(json(v)).toString('base64url');
    const hmacInput = `${b64({ alg: 'HS256', typ: 'JWT', kid: issuer.publicJwk.kid })}.${payload}`;
    const hmac = createHmac('sha256', json(issuer.publicJwk)).update(hmacInput).digest('base64url');
    const attacker = await generateKeyPair('ES256', { extractable: true });
    const attackerJwk = { ...(await exportJWK(attacker.publicKey)), kid: 'attacker', alg: 'ES256' };
    const selfSigned = (header: Partial<JWTHeaderParameters>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', typ: 'JWT', ...header })
        .setIssuer(issuer.issuer)
        .setAudience(DEV_AUDIENCE)
        .sign(attacker.privateKey);
    return {
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'HS256 keyed with the public key': `${hmacInput}.${hmac}`,
      'cross-issuer key (our iss, a stranger signs)': await stranger.sign(claims, { issuer: issuer.issuer }),
      'wrong iss (a stranger issuer)': await stranger.sign(claims),
      'wrong aud': await issuer.sign(claims, { audience: 'another-service' }),
      'exp passed': await issuer.sign({ ...claims, exp: now - 3600, iat: now - 7200 }),
      'nbf ahead': await issuer.sign({ ...claims, nbf: now + 3600 }),
      'embedded jwk header': await selfSigned({ kid: issuer.publicJwk.kid, jwk: attackerJwk }),
      'jku header': await selfSigned({ kid: 'attacker', jku: `${trap.url}/jwks.json` }),
      'x5u header': await selfSigned({ kid: 'attacker', x5u: `${trap.url}/cert.pem` }),
    };
  }

  it('every forgery is refused 401 invalid_token at POST /graphql', async () => {
    for (const [what, token] of Object.entries(await forgeries())) {
      const res = await costsNothing(() => send({ headers: bearer(token), body: json({ query: GOVERNANCE_READ }) }));
      show(`forged token: ${what}`, `POST /graphql ${GOVERNANCE_READ}`, `${res.status} ${res.text}`);
      expect({ what, status: res.status }).toEqual({ what, status: 401 });
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
      expect(res.text).not.toContain('"data"');
    }
    expect(trap.hits).toEqual([]);
  });

  it.runIf(FULL)('every forgery is refused at every door (full profile)', async () => {
    for (const [what, token] of Object.entries(await forgeries()))
      for (const door of doors(token)) {
        const res = await costsNothing(() => send(door.sent));
        show(`forged token at ${door.name}: ${what}`, door.name, `${res.status}`);
        expect({ what, door: door.name, status: res.status }).toEqual({ what, door: door.name, status: 401 });
      }
    expect(trap.hits).toEqual([]);
  });
});

/** Every way in to the governance read, with `token`'s credentials. */
function doors(token: string): { name: string; sent: Sent }[] {
  const auth = bearer(token);
  const post = (body: unknown, headers: Record<string, string> = {}) => ({
    headers: { ...auth, ...headers },
    body: json(body),
  });
  const mcp = (method: string, params: unknown, name?: string) => ({
    path: '/mcp',
    headers: {
      ...auth,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: json({ jsonrpc: '2.0', id: 1, method, params: { ...(params as object), _meta: MCP_META } }),
  });
  return [
    { name: 'POST', sent: post({ query: GOVERNANCE_READ }) },
    {
      name: 'GET',
      sent: { method: 'GET', path: `/graphql?query=${encodeURIComponent(GOVERNANCE_READ)}`, headers: auth },
    },
    { name: 'batch', sent: post([{ query: GOVERNANCE_READ }, { query: '{ __typename }' }]) },
    { name: 'persisted operation', sent: post({ documentId: ENTITY_TYPE_LIST }) },
    {
      name: 'persisted operation over GET',
      sent: { method: 'GET', path: `/graphql?documentId=${ENTITY_TYPE_LIST}`, headers: auth },
    },
    {
      name: 'aliases inside fragments',
      sent: post({
        query:
          'query { ...A } fragment A on Query { ...B } fragment B on Query { innocent: entityTypes(first: 1) { nodes { id } } }',
      }),
    },
    {
      name: '@defer',
      sent: post(
        { query: '{ __typename ... @defer { entityTypes(first: 1) { nodes { id } } } }' },
        { accept: 'multipart/mixed' },
      ),
    },
    {
      name: '@stream',
      sent: post({ query: '{ entityTypes(first: 2) { nodes @stream { id } } }' }, { accept: 'multipart/mixed' }),
    },
    { name: 'SSE', sent: post({ query: GOVERNANCE_READ }, { accept: 'text/event-stream' }) },
    {
      name: 'subscription over SSE',
      sent: post(
        { query: `subscription { entityChanged(id: "${randomUUID()}") { __typename } }` },
        { accept: 'text/event-stream' },
      ),
    },
    {
      name: '_entities (with the router secret)',
      sent: post(
        {
          query: `{ _entities(representations: [{ __typename: "Entity", id: "${randomUUID()}" }]) { __typename ... on Entity { name } } }`,
        },
        { 'x-federation-secret': FEDERATION_SECRET },
      ),
    },
    {
      name: 'MCP tools/call',
      sent: mcp('tools/call', { name: 'FindEntities', arguments: { limit: 1 } }, 'FindEntities'),
    },
  ];
}

describe('every door enforces permissions: a calendar reader gets no governance data, and it costs nothing', () => {
  it.each(doors('placeholder').map((d) => [d.name]))('%s', async (name) => {
    const token = await issuer.sign({ sub: 'calendar-reader', scope: 'calendar:read' });
    const door = doors(token).find((d) => d.name === name)!;
    const res = await costsNothing(() => send(door.sent));
    show(
      `door: ${name}`,
      `${door.sent.method ?? 'POST'} ${door.sent.path ?? '/graphql'} ${door.sent.body ?? ''}`,
      `${res.status} ${res.text}`,
    );
    expect(res.text).not.toMatch(/"nodes":\[\{|"name":"/);
    if (name === 'MCP tools/call') {
      expect(res.status).toBe(403);
      expect(res.headers['www-authenticate']).toContain('insufficient_scope');
    } else expect(codesIn(res.text)).toContain('FORBIDDEN');
  });
});

it('a persisted mutation enforces its permission too: a reader cannot create a tag by hash', async () => {
  const reader = bearer(await issuer.tokenFor('reader'));
  const sent = { documentId: CREATE_TAG, variables: { name: 'by hash' } };
  const res = await costsNothing(() => send({ headers: reader, body: json(sent) }));
  show('door: persisted mutation', `POST /graphql ${json(sent)}`, `${res.status} ${res.text}`);
  expect(res.text).toContain('"createTag":null');
  expect(res.text).toContain('calendar:write');
});

describe('cached answers and ETags never cross a permission boundary', () => {
  const query = '{ entityTypes(first: 1) { nodes { id } } tags(first: 1) { nodes { id } } }';
  it("an admin's cached answer is not served to a calendar reader", async () => {
    const admin = bearer(await issuer.tokenFor('admin'));
    await send({ headers: admin, body: json({ query }) });
    const hit = await send({ headers: admin, body: json({ query }) });
    expect(hit.headers['x-cache']).toBe('HIT');
    const reader = bearer(await issuer.sign({ sub: 'calendar-reader', scope: 'calendar:read' }));
    const res = await send({ headers: reader, body: json({ query }) });
    show(
      'response cache across permissions',
      `POST ${query} (an admin's answer cached)`,
      `${res.status} x-cache=${String(res.headers['x-cache'])} ${res.text}`,
    );
    expect(res.headers['x-cache']).not.toBe('HIT');
    expect(res.text).toContain('"entityTypes":null');
    expect(codesIn(res.text)).toContain('FORBIDDEN');
  });

  it("an admin's ETag gets a calendar reader no 304", async () => {
    const path = `/graphql?query=${encodeURIComponent(query)}`;
    const adminAnswer = await send({ method: 'GET', path, headers: bearer(await issuer.tokenFor('admin')) });
    const etag = String(adminAnswer.headers.etag);
    expect(etag).toMatch(/./);
    const reader = bearer(await issuer.sign({ sub: 'calendar-reader', scope: 'calendar:read' }));
    const res = await send({ method: 'GET', path, headers: { ...reader, 'if-none-match': etag } });
    show(
      'ETag across permissions',
      `GET ${query} If-None-Match: ${etag}`,
      `${res.status} etag=${String(res.headers.etag)} ${res.text}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.etag).not.toBe(etag);
    expect(codesIn(res.text)).toContain('FORBIDDEN');
  });
});

describe('the front door', () => {
  it.each([
    ['/graphql', { host: 'evil.example' }, 'HOST_NOT_ALLOWED'],
    ['/mcp', { host: 'evil.example' }, 'HOST_NOT_ALLOWED'],
    ['/metrics', { host: 'rebound.attacker.test' }, 'HOST_NOT_ALLOWED'],
    ['/graphql', { origin: 'https://evil.example' }, 'ORIGIN_NOT_ALLOWED'],
    ['/mcp', { origin: 'https://evil.example' }, 'ORIGIN_NOT_ALLOWED'],
  ])('%s with %o: 403 %s (DNS rebinding, another site)', async (path, headers, code) => {
    const res = await costsNothing(async () =>
      send({
        path,
        headers: { ...headers, ...bearer(await issuer.tokenFor('admin')) },
        body: json({ query: GOVERNANCE_READ }),
      }),
    );
    show('front door', `POST ${path} ${json(headers)}`, `${res.status} ${res.text}`);
    expect(res.status).toBe(403);
    expect(res.text).toContain(code);
  });

  it('/mcp: a JSON-RPC batch is refused; a body over 1 MiB is 413 before it is read', async () => {
    const headers = {
      ...bearer(await issuer.tokenFor('admin')),
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    const call = { jsonrpc: '2.0', method: 'tools/call', params: { name: 'FindEntities', arguments: { limit: 1 } } };
    const batch = await costsNothing(() =>
      send({ path: '/mcp', headers, body: json([1, 2, 3, 4].map((id) => ({ ...call, id }))) }),
    );
    show('/mcp batch', 'POST /mcp [4 × tools/call FindEntities]', `${batch.status} ${batch.text}`);
    expect(batch.status).toBeGreaterThanOrEqual(400);
    const big = json({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(1024 * 1024) } });
    const large = await costsNothing(() => send({ path: '/mcp', headers, body: big }));
    show('/mcp body limit', `POST /mcp ${big.length} bytes`, `${large.status} ${large.text}`);
    expect(large.status).toBe(413);
  });

  it('a body trickled a byte at a time loses its socket with 408', async () => {
    const { port } = new URL(gateway.origin);
    // A caller with a valid token, so the door lets it on to the body.
    const head = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await issuer.tokenFor('reader')}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
      let got = '';
      const drip = setInterval(() => socket.write('{'), 2_000);
      socket.on('data', (chunk) => (got += chunk.toString()));
      socket.on('error', () => undefined);
      socket.once('close', () => {
        clearInterval(drip);
        resolve(got);
      });
    });
    show('slow body', 'POST /graphql Content-Length: 1000, a byte every 2 s', answer.split('\r\n')[0] ?? '(closed)');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 60_000);
});

describe('callers and upstreams', () => {
  it("another caller's idempotency key does not return the first caller's record", async () => {
    const key = `adversarial-${randomUUID()}`;
    const organizationId = await organization();
    const create = (sub: string, name: string) =>
      issuer.sign({ sub, scope: 'governance:read governance:write' }).then((t) =>
        send({
          headers: bearer(t),
          body: json({
            query:
              'mutation($input: CreateEntityInput!, $key: String) { createEntity(input: $input, clientMutationId: $key) { id name } }',
            variables: { key, input: { organizationId, kind: 'DATASET', name } },
          }),
        }),
      );
    // The same request and key: a replay for alice, but bob is another caller and gets no record of hers.
    const alice = await create('alice', 'Shared name');
    const bob = await create('bob', 'Shared name');
    show(
      'idempotency key of another caller',
      `createEntity clientMutationId=${key} as alice (${alice.text.slice(0, 90)}), then the same as bob`,
      `${bob.status} ${bob.text}`,
    );
    const aliceId = (JSON.parse(alice.text) as { data: { createEntity: { id: string } } }).data.createEntity.id;
    expect(bob.text).not.toContain(aliceId);
  });

  it("the upstream's own error text is not echoed to the client", async () => {
    const editor = await issuer.tokenFor('editor');
    const input = { title: 'x', startDate: '2027-01-01 10:00:00', endDate: '2027-01-01 11:00:00', venueId: '987654' };
    const direct = await fetch(`${emulators.calendar.apiRoot}/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${emulators.calendar.users.editor.username}:${emulators.calendar.users.editor.appPassword}`).toString('base64')}`,
      },
      body: json({
        title: input.title,
        start_date: input.startDate,
        end_date: input.endDate,
        venue: Number(input.venueId),
      }),
    });
    const upstreamMessage = ((await direct.json()) as { message?: string }).message ?? '';
    expect(upstreamMessage.length).toBeGreaterThan(5);
    const res = await send({
      headers: bearer(editor),
      body: json({
        query: 'mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }',
        variables: { input },
      }),
    });
    show(
      'upstream error text',
      `createEvent with venue 987654 (upstream says "${upstreamMessage}")`,
      `${res.status} ${res.text}`,
    );
    expect(res.text).not.toContain(upstreamMessage);
    expect(codesIn(res.text).length).toBeGreaterThan(0);
  });

  it("the governance platform's own refusal text is not echoed to the client", async () => {
    const admin = bearer(await issuer.tokenFor('admin'));
    const gql = async (query: string, variables = {}) =>
      JSON.parse((await send({ headers: admin, body: json({ query, variables }) })).text) as {
        data: any;
        errors?: unknown[];
      };
    const model = await gql(
      '{ relationshipTypes { name ends { firstKind secondKind } } entities(kind: AI_SYSTEM, first: 1) { nodes { id } } }',
    );
    const type = (
      model.data.relationshipTypes as { name: string; ends: { firstKind: string; secondKind: string }[] }[]
    ).find((r) => r.ends.some((e) => e.firstKind === 'AI_SYSTEM' && e.secondKind === 'AI_SYSTEM'))!;
    const id = model.data.entities.nodes[0].id as string;
    // The platform's words for it (src/governance/emulator/store.ts), which only the log may carry.
    const upstreamText = 'An entity cannot be linked to itself';
    const input = { entity1: { id }, entity2: { id }, relationshipType: type.name };
    const res = await send({
      headers: admin,
      body: json({
        query: 'mutation($input: CreateGovernanceLinkInput!) { createLink(input: $input) { id } }',
        variables: { input },
      }),
    });
    show(
      'upstream error text (governance)',
      `createLink of ${id} to itself (upstream says "${upstreamText}")`,
      `${res.status} ${res.text}`,
    );
    expect(res.text).toContain('"createLink":null');
    expect(res.text).not.toContain(upstreamText);
  });

  it('mixed auth modes: a garbage credential gets nothing on the upstream the gateway signs for, nor /metrics', async () => {
    const garbage = { authorization: 'Bearer garbage-not-a-token' };
    const write = await costsNothing(() =>
      send({
        via: mixed,
        headers: garbage,
        body: json({ query: 'mutation { createTag(input: { name: "garbage" }) { id } }' }),
      }),
    );
    show(
      'mixed auth: garbage bearer writes the calendar',
      'POST createTag, governance forwarded',
      `${write.status} ${write.text}`,
    );
    expect(write.text).toContain('"createTag":null');
    expect(write.text).toContain('calendar:write');
    const metrics = await send({ via: mixed, method: 'GET', path: '/metrics', headers: garbage });
    show('mixed auth: garbage bearer reads /metrics', 'GET /metrics', String(metrics.status));
    expect(metrics.status).toBe(401);
  });
});

/** An organization of the emulated tenant, from the discovery file the gateway was given. */
async function organization(): Promise<string> {
  const admin = bearer(await issuer.tokenFor('admin'));
  const res = await send({ headers: admin, body: json({ query: '{ organizations { id } }' }) });
  return (JSON.parse(res.text) as { data: { organizations: { id: string }[] } }).data.organizations[0]!.id;
}

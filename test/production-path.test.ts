/**
 * Production as the README's "dozen lines" and the manifests set it up, over real processes:
 * `src/server.ts` with NODE_ENV=production and the README's exports, run by bash as written (the
 * tenant's URLs and credentials swapped for the emulators', the identity provider for a real JWKS on a
 * socket, the secrets made up), on a fresh replica without GOVERNANCE_DISCOVERY_FILE. A caller with a
 * token reads, one without gets 401, the router's `_service` request of docs/federation.md answers, and
 * the first request a stage filter: it answers. The manifests name the same settings.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { SETTINGS } from '../src/config/settings.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { DevIssuer } from '../src/identity/dev-issuer.js';

const ROUTER_KEY = 'the-routers-own-key';
const FEDERATION_SECRET = 'a-long-random-router-secret';

/** The README's production block: its `export` lines. */
function readmeExports(): string {
  const readme = readFileSync('README.md', 'utf8');
  const block = /^## Production in a dozen lines\n+```sh\n([\s\S]*?)```/m.exec(readme)?.[1] ?? '';
  return block
    .split('\n')
    .filter((l) => l.startsWith('export '))
    .join('\n');
}

/** What bash makes of the README's exports: the variables they set, with their values. */
function exported(lines: string): Record<string, string> {
  const names = [...lines.matchAll(/\b([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]!);
  const script = `${lines}\nfor n in ${names.join(' ')}; do printf '%s=%s\\0' "$n" "\${!n}"; done`;
  const out = execFileSync('bash', ['-c', script], { env: { PATH: process.env.PATH, ROUTER_KEY }, encoding: 'utf8' });
  return Object.fromEntries(
    out
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

let child: ChildProcess | undefined;
let output = '';
let url: string;
let issuer: DevIssuer;
let readme: Record<string, string>;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
  issuer = await DevIssuer.start();
  closers.push(
    () => governance.close(),
    () => calendar.close(),
    () => issuer.close(),
  );
  readme = exported(readmeExports());
  const { GOVERNANCE_DISCOVERY_FILE: _example, ...tenant } = emulatorEnv(governance, calendar);
  const [, audience] = readme.AUTH_ISSUERS!.split('|');
  const env: Record<string, string> = {
    ...readme,
    // The README's placeholders, as an operator fills them in.
    ...Object.fromEntries(
      Object.keys(readme).flatMap((k) => (k in tenant ? [[k, tenant[k as keyof typeof tenant]]] : [])),
    ),
    AUTH_ISSUERS: `${issuer.issuer}|${audience}|${issuer.jwksUrl}`,
    FEDERATION_SECRET,
  };
  // One replica: no Redis needed ("with more than one replica").
  delete env.REDIS_URL;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { PATH: process.env.PATH, ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /gateway ready: http:\/\/\S+:(\d+)\/graphql/.exec(output);
      if (m) resolve(`http://127.0.0.1:${m[1]}/graphql`);
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await Promise.all(closers.map((c) => c()));
});

const post = async (query: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as { data?: any; errors?: any[] } };
};

describe("production as the README's dozen lines and the manifests set it up", () => {
  it('the README and the manifests name the same settings, every one of them known', () => {
    const known = new Set(SETTINGS.map((s) => s.name));
    expect(Object.keys(readme).filter((n) => !known.has(n))).toEqual([]);
    const yaml = (f: string) => parseAllDocuments(readFileSync(f, 'utf8')).map((d) => d.toJS());
    const deployment = yaml('deploy/k8s/deployment.yaml')[0];
    const secret = yaml('deploy/k8s/secret.example.yaml')[0];
    const manifests = new Set([
      ...deployment.spec.template.spec.containers[0].env.map((e: { name: string }) => e.name),
      ...Object.keys(secret.stringData),
    ]);
    expect(Object.keys(readme).filter((n) => !manifests.has(n))).toEqual([]);
  });

  it('a stage filter, the first request of a fresh replica without the discovery file, answers', async () => {
    const reader = await issuer.tokenFor('reader');
    const res = await post(
      '{ entities(kind: MODEL, stage: "Development", first: 3) { nodes { workflowStage { name } } } }',
      {
        authorization: `Bearer ${reader}`,
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.entities.nodes.length).toBeGreaterThan(0);
    for (const n of res.body.data.entities.nodes) expect(n.workflowStage.name).toBe('Development');
    // What callers will not see without the file is said once at start.
    expect(output).toMatch(/"level":"warn","msg":"GOVERNANCE_DISCOVERY_FILE is not set: stages and organizations/);
  });

  it('a caller with a token reads; one without gets 401', async () => {
    const query = '{ entities(first: 2) { nodes { id name } } events(first: 1) { nodes { id } } }';
    const anonymous = await post(query);
    expect(anonymous.status).toBe(401);
    const reader = await post(query, { authorization: `Bearer ${await issuer.tokenFor('reader')}` });
    expect(reader.status).toBe(200);
    expect(reader.body.errors).toBeUndefined();
    expect(reader.body.data.entities.nodes).toHaveLength(2);
  });

  it("the router's _service request of docs/federation.md answers: its own key and the secret", async () => {
    const docs = readFileSync('docs/federation.md', 'utf8');
    expect(docs).toContain(
      '--header "authorization: Bearer $ROUTER_KEY" --header "x-federation-secret: $FEDERATION_SECRET"',
    );
    const res = await post('{ _service { sdl } }', {
      authorization: `Bearer ${ROUTER_KEY}`,
      'x-federation-secret': FEDERATION_SECRET,
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data._service.sdl).toMatch(
      /type Entity implements [^@]*@key\(fields: "id"\)\s+@key\(fields: "databaseId"\)/,
    );
    // The secret alone, as the page used to say: 401.
    expect((await post('{ _service { sdl } }', { 'x-federation-secret': FEDERATION_SECRET })).status).toBe(401);
  });
});

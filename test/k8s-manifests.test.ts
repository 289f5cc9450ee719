/**
 * No cluster runs here: the Kubernetes base (deploy/k8s) and compose.yaml are parsed and checked
 * against the code. The probe paths answer on a real gateway behind the process's drain wrapper; every
 * environment name is a known setting and loads; the grace period outlasts the drain; the local
 * budget share times the replica count stays within the account, so the replicas cannot overspend
 * with Redis away; Redis never evicts; /metrics is not open to every pod. The Secret's example names
 * every credential production needs (callers' included), and compose.yaml with a .env of those keys
 * loads in production too.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../src/config/config.js';
import { SETTINGS } from '../src/config/settings.js';
import { Drain } from '../src/http/drain.js';
import { problemsOf } from './support/config.js';
import { startStack } from './support/stack.js';

type Any = any;

/** `30s`, `1m30s` → ms (compose durations). */
const parseDuration = (d: string) =>
  [...d.matchAll(/(\d+)(ms|s|m|h)/g)].reduce(
    (ms, [, n, unit]) => ms + Number(n) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'],
    0,
  );

const K8S = 'deploy/k8s';
const docs = (file: string): Any[] => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS());
const base: Any[] = (docs(`${K8S}/kustomization.yaml`)[0].resources as string[]).flatMap((f) => docs(`${K8S}/${f}`));
const of = (kind: string, name: string) => base.find((d) => d.kind === kind && d.metadata.name === name);

const deployment = of('Deployment', 'gateway');
const container = deployment.spec.template.spec.containers[0];
const env: Record<string, string> = Object.fromEntries(
  (container.env as { name: string; value: string }[]).map((e) => [e.name, e.value]),
);
const known = new Set(SETTINGS.map((s) => s.name));

/** deploy/k8s/secret.example.yaml: applied by hand, not by the kustomization. */
const secret: Record<string, string> = docs(`${K8S}/secret.example.yaml`)[0].stringData;
/** The Secret as an operator fills it in: each `<…>` replaced (a URL kept, a hash made up). */
const filled = Object.fromEntries(
  Object.entries(secret).map(([k, v]) => [
    k,
    v
      .replace(/<(https?:\/\/[^>]+)>/g, '$1')
      .replace(/<sha256 [^>]+>/g, 'ab'.repeat(32))
      .replace(/<[^>]+>/g, 'placeholder'),
  ]),
);

describe('Kubernetes manifests', () => {
  it('every env name is a known setting, and together they load', () => {
    expect(Object.keys(env).filter((name) => !known.has(name))).toEqual([]);
    expect(container.envFrom).toEqual([{ secretRef: { name: docs(`${K8S}/secret.example.yaml`)[0].metadata.name } }]);
    const config = loadConfig({ ...env, ...filled });
    expect(config.port).toBe(container.ports[0].containerPort);
    expect(config.env).toBe('production');
  });

  it("the Secret's example names every credential, callers' included, and its placeholders never start", () => {
    expect(Object.keys(secret).filter((name) => !known.has(name))).toEqual([]);
    // Nothing but NODE_ENV and the Secret: every key production asks for is among them.
    const { AUTH_ISSUERS, AUTH_API_KEYS, ...rest } = filled;
    expect(problemsOf({ ...env, ...rest })).toEqual([expect.stringMatching(/^NODE_ENV=production lets no caller in/)]);
    expect(problemsOf({ ...env, ...rest, AUTH_ISSUERS: AUTH_ISSUERS! })).toEqual([]);
    expect(problemsOf({ ...env, ...rest, AUTH_API_KEYS: AUTH_API_KEYS! })).toEqual([]);
    // The router's own key (for _service), without permissions, and Prometheus' (for /metrics).
    const keys = loadConfig({ ...env, ...filled }).auth.apiKeys;
    expect(keys.map((k) => [k.name, k.permissions])).toEqual([
      ['router', []],
      ['prometheus', ['metrics:read']],
    ]);
    expect(filled.FEDERATION_SECRET).toBeTruthy();
    // Applied as it is, the example refuses to start, naming what is left to fill in.
    const unfilled = problemsOf({ ...env, ...secret }).join('\n');
    for (const name of ['GOVERNANCE_URL', 'CALENDAR_URL', 'AUTH_ISSUERS', 'AUTH_API_KEYS'])
      expect(unfilled).toContain(name);
    expect(base.some((d) => d.kind === 'Secret')).toBe(false);
  });

  it('the grace period outlasts the drain deadline', () => {
    const drainMs = loadConfig({ ...env, NODE_ENV: 'test' }).http.drainMs;
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs);
  });

  it('the local budget share times the replica count stays within the account (Redis away)', () => {
    const { localShare } = loadConfig({ ...env, NODE_ENV: 'test' }).traffic;
    expect(Number(env.GATEWAY_REPLICAS)).toBe(deployment.spec.replicas);
    expect(localShare * deployment.spec.replicas).toBeLessThanOrEqual(1);
  });

  it('compose.yaml holds the budget too: each replica its share with Redis away, a Redis that never evicts', () => {
    const compose = docs('compose.yaml')[0];
    const gateway = compose.services.gateway;
    const replicas = gateway.deploy.replicas as number;
    // `environment` outranks the env_file (.env), so a .env cannot raise the share.
    expect(Number(gateway.environment.GATEWAY_REPLICAS)).toBe(replicas);
    const { localShare } = loadConfig({ ...gateway.environment, NODE_ENV: 'test' }).traffic;
    expect(localShare * replicas).toBeLessThanOrEqual(1);
    expect(Object.keys(gateway.environment).filter((name) => !known.has(name))).toEqual([]);
    expect(gateway.environment.REDIS_URL).toBe('redis://redis:6379');
    expect((compose.services.redis.command as string[]).join(' ')).toMatch(/--maxmemory-policy noeviction/);
  });

  it("compose.yaml with a .env of the Secret's keys loads in production; its demo (embedded emulators) too", () => {
    const gateway = docs('compose.yaml')[0].services.gateway;
    // `environment` outranks the .env file: what it sets is what the replicas run with.
    const config = loadConfig({ ...filled, ...gateway.environment });
    expect(config.env).toBe('production');
    expect(config.governance.rateProfile).toBe(gateway.environment.GOVERNANCE_RATE_PROFILE);
    expect(Number(gateway.environment.PORT)).toBe(config.port);
    expect(gateway.expose).toEqual([String(config.port)]);
    expect(parseDuration(gateway.stop_grace_period)).toBeGreaterThan(config.http.drainMs);
    // Without callers' credentials in .env, the replicas refuse to start (instead of answering 401).
    const { AUTH_ISSUERS: _i, AUTH_API_KEYS: _k, ...upstreamsOnly } = filled;
    expect(problemsOf({ ...upstreamsOnly, ...gateway.environment })).toHaveLength(1);
    expect(loadConfig({ EMBEDDED_EMULATORS: 'true', ...gateway.environment }).embeddedEmulators).toBe(true);
  });

  it('the probe paths answer on a gateway behind the drain wrapper', async () => {
    const stack = await startStack();
    const drain = new Drain({ drainMs: 1_000, retryAfterS: 1, log: () => undefined });
    const server = createServer(drain.wrap(stack.gateway.handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const probe of [container.livenessProbe, container.readinessProbe]) {
        expect(probe.httpGet.port).toBe(container.ports[0].name);
        expect((await fetch(`${origin}${probe.httpGet.path}`)).status).toBe(200);
      }
      expect(container.livenessProbe.httpGet.path).toBe('/health');
      expect(container.readinessProbe.httpGet.path).toBe('/ready');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('Redis never evicts; /metrics is not open to every pod; a disruption budget and a Service exist', () => {
    const redis = of('Deployment', 'gateway-redis').spec.template.spec.containers[0];
    expect(redis.args.join(' ')).toMatch(/--maxmemory-policy noeviction/);
    expect(env.REDIS_URL).toBe(`redis://${of('Service', 'gateway-redis').metadata.name}:6379`);
    const policy = of('NetworkPolicy', 'gateway');
    expect(policy.spec.podSelector.matchLabels).toEqual({ app: 'gateway' });
    for (const rule of policy.spec.ingress as Any[]) expect(rule.from?.length).toBeGreaterThan(0);
    expect(of('PodDisruptionBudget', 'gateway').spec.maxUnavailable).toBe(1);
    expect(of('Service', 'gateway').spec.selector).toEqual({ app: 'gateway' });
    expect(container.resources.requests.memory).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();
  });
});

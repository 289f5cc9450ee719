/**
 * No cluster runs here: the Kubernetes base (deploy/k8s) and compose.yaml are parsed and checked
 * against the code. The probe paths answer on a real gateway behind the process's drain wrapper; every
 * environment name is a known setting and loads; the grace period outlasts the drain; the local
 * budget share times the replica count stays within the account, so the replicas cannot overspend
 * with Redis away; Redis never evicts; /metrics is not open to every pod.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../src/config/config.js';
import { SETTINGS } from '../src/config/settings.js';
import { Drain } from '../src/http/drain.js';
import { startStack } from './support/stack.js';

type Any = any;

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

describe('Kubernetes manifests', () => {
  it('every env name is a known setting, and together they load', () => {
    expect(Object.keys(env).filter((name) => !known.has(name))).toEqual([]);
    // Production refuses to start without upstreams: give it placeholders for the Secret's keys.
    const config = loadConfig({
      ...env,
      GOVERNANCE_URL: 'https://governance.example',
      GOVERNANCE_CLIENT_ID: 'id',
      GOVERNANCE_CLIENT_SECRET: 'secret',
      CALENDAR_URL: 'https://calendar.example/wp-json/tribe/events/v1',
      CALENDAR_USER: 'user',
      CALENDAR_APP_PASSWORD: 'password',
    });
    expect(config.port).toBe(container.ports[0].containerPort);
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

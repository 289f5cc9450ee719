/**
 * A truthful /ready: each upstream is probed (one HEAD through its pipeline, cached for
 * observability.readyProbeTtlMs) and its real state is in the body. A stopped upstream shows as down within
 * seconds and as up once it is back; only with READY_REQUIRE_UPSTREAMS does that turn /ready 503.
 * During a 429 pause nothing is sent and the upstream shows as paused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, type Gateway } from '../src/app/gateway.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { startStack, type Stack } from './support/stack.js';
import { untilClock } from './support/wait.js';

type Report = {
  ready: boolean;
  checks: Record<string, string>;
  upstreams: Record<string, { state: string; status?: number; checkedAt: string }>;
};

async function ready(gateway: Gateway): Promise<{ status: number; body: Report }> {
  const res = await gateway.yoga.fetch('http://gateway.test/ready');
  return { status: res.status, body: (await res.json()) as Report };
}

describe('/ready', () => {
  let s: Stack;
  let strict: Gateway;
  let restarted: { close(): Promise<void> } | undefined;
  beforeAll(async () => {
    s = await startStack({
      configure: (c) => ({ ...c, observability: { ...c.observability, readyProbeTtlMs: 200, readyTimeoutMs: 1000 } }),
    });
    strict = createGateway({
      config: { ...s.config, observability: { ...s.config.observability, readyRequireUpstreams: true } },
    });
  });
  afterAll(async () => {
    await strict.close();
    await restarted?.close();
  });

  it('shows a stopped upstream as down within seconds and as up when it returns; 503 only with the opt-in', async () => {
    expect(await ready(s.gateway)).toMatchObject({
      status: 200,
      body: { ready: true, upstreams: { governance: { state: 'up' }, calendar: { state: 'up' } } },
    });
    expect((await ready(strict)).status).toBe(200);

    const port = Number(new URL(s.calendar.origin).port);
    await s.calendar.close();
    await vi.waitFor(async () => expect((await ready(s.gateway)).body.upstreams.calendar!.state).toBe('down'), {
      timeout: 5_000,
      interval: 100,
    });
    const down = await ready(s.gateway);
    // The other upstream's data keeps flowing, so by default this replica stays in rotation.
    expect(down).toMatchObject({
      status: 200,
      body: {
        ready: true,
        checks: { calendar: 'failed', governance: 'ok' },
        upstreams: { governance: { state: 'up' } },
      },
    });
    await vi.waitFor(
      async () =>
        expect(await ready(strict)).toMatchObject({
          status: 503,
          body: { ready: false, upstreams: { calendar: { state: 'down' } } },
        }),
      { timeout: 5_000, interval: 100 },
    );

    restarted = await startCalendarEmulator({ port });
    await vi.waitFor(async () => expect((await ready(s.gateway)).body.upstreams.calendar!.state).toBe('up'), {
      timeout: 5_000,
      interval: 100,
    });
    await vi.waitFor(async () => expect((await ready(strict)).status).toBe(200), { timeout: 5_000, interval: 100 });
  });

  it('probes once per TTL however often it is asked, and sends nothing during a 429 pause', async () => {
    const { checkedAt } = (await ready(s.gateway)).body.upstreams.governance!;
    s.governance.control.clearRequests();
    // The cached outcome has expired (readyProbeTtlMs 200): the next /ready calls probe, once.
    await untilClock(Date.parse(checkedAt) + 200);
    await Promise.all(Array.from({ length: 10 }, () => ready(s.gateway)));
    const probes = s.governance.control.requests().requests.filter((r) => r.method === 'HEAD');
    expect(probes).toHaveLength(1);

    void s.gateway.upstreams.governance.traffic.pause.pause(3_000);
    s.governance.control.clearRequests();
    await vi.waitFor(async () => expect((await ready(s.gateway)).body.upstreams.governance!.state).toBe('paused'), {
      timeout: 5_000,
      interval: 100,
    });
    expect(s.governance.control.requests().total).toBe(0);
  });
});

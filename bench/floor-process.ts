/**
 * The floor for a cold run: a bare client that sends exactly the upstream requests the gateway sent
 * (taken from the emulators' logs), with undici and JSON.parse and nothing else, at the same
 * concurrency caps, one level of the query after the other (a level starts once the one above it has
 * answered, as it must for the gateway). Its own process, so its CPU time is measured the way the
 * gateway's is; its wall time is what the emulators, their latency and the wire take at the least.
 */
import { Agent, request } from 'undici';
import { announceReady, mainThreadCpuMs, serveParent } from './ipc.js';

export interface ReplayRequest {
  upstream: 'governance' | 'calendar';
  method: string;
  url: string;
  body?: string;
  /** The level of the query that needs it (1 first; see lower-bound.ts). */
  level: number;
}

export interface ReplayPayload {
  requests: ReplayRequest[];
  caps: Record<ReplayRequest['upstream'], number>;
  /** Replays measured, after `warmup` unmeasured ones. */
  repeats: number;
  warmup: number;
  token: { url: string; clientId: string; clientSecret: string };
}

const agent = new Agent({ keepAliveTimeout: 60_000 });

async function fetchToken(token: ReplayPayload['token']): Promise<string> {
  const res = await request(token.url, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: token.clientId,
      client_secret: token.clientSecret,
    }).toString(),
  });
  const body = (await res.body.json()) as { access_token: string };
  return `Bearer ${body.access_token}`;
}

async function replayOnce(payload: ReplayPayload, authorization: string): Promise<number> {
  let parsed = 0;
  const send = async (r: ReplayRequest) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (r.upstream === 'governance') headers.authorization = authorization;
    if (r.body !== undefined) headers['content-type'] = 'application/json';
    const res = await request(r.url, { method: r.method as 'GET', headers, body: r.body, dispatcher: agent });
    const text = await res.body.text();
    if (text) JSON.parse(text);
    parsed++;
  };
  const levels = [...new Set(payload.requests.map((r) => r.level))].sort((a, b) => a - b);
  for (const level of levels) {
    // Each upstream keeps at most its cap in flight, as the gateway's scheduler does.
    await Promise.all(
      (['governance', 'calendar'] as const).map(async (upstream) => {
        const queue = payload.requests.filter((r) => r.upstream === upstream && r.level === level);
        const lanes = Array.from({ length: Math.min(payload.caps[upstream], queue.length) }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) await send(next);
        });
        await Promise.all(lanes);
      }),
    );
  }
  return parsed;
}

serveParent({
  replay: async (raw) => {
    const payload = raw as ReplayPayload;
    const authorization = await fetchToken(payload.token);
    for (let i = 0; i < payload.warmup; i++) await replayOnce(payload, authorization);
    const before = process.cpuUsage();
    const mainBefore = mainThreadCpuMs();
    let requests = 0;
    const walls: number[] = [];
    for (let i = 0; i < payload.repeats; i++) {
      const started = performance.now();
      requests += await replayOnce(payload, authorization);
      walls.push(performance.now() - started);
    }
    const used = process.cpuUsage(before);
    const mainAfter = mainThreadCpuMs();
    const cpuMs = (used.user + used.system) / 1000;
    const helperMs = mainBefore === null || mainAfter === null ? null : Math.max(0, cpuMs - (mainAfter - mainBefore));
    walls.sort((a, b) => a - b);
    return {
      cpuMsPerReplay: cpuMs / payload.repeats,
      helperThreadsCpuMsPerReplay: helperMs === null ? null : helperMs / payload.repeats,
      requestsPerReplay: requests / payload.repeats,
      wallMsP50: walls[Math.ceil(walls.length / 2) - 1] ?? 0,
    };
  },
});

announceReady('ipc:floor');

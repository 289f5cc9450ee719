/**
 * One gateway replica as a separate process, for the multi-process traffic tests (started by
 * `startReplicas` in replicas.ts): it builds the upstreams from its environment (REDIS_URL shared
 * with the other replicas), gets a token through the governance upstream, prints `ready`, waits for
 * `go` on stdin (sent once every replica is ready), reads the entities in REPLICA_IDS all at once and
 * prints one JSON line: when each request went on the wire and the statuses it got. REPLICA_GUARD_MS
 * and REPLICA_REDIS_TIMEOUT_MS set the guard band and Redis command timeout, which are constants of
 * the gateway, not settings.
 */
import { once } from 'node:events';
import { loadConfig } from '../../src/config/config.js';
import { UsageTracker } from '../../src/core/usage.js';
import { createUpstreams } from '../../src/app/build-upstreams.js';

const env = process.env;
const loaded = loadConfig(env);
const governance = {
  ...loaded.traffic.governance,
  guardMs: env.REPLICA_GUARD_MS ? Number(env.REPLICA_GUARD_MS) : undefined,
};
const redisCommandTimeoutMs = Number(env.REPLICA_REDIS_TIMEOUT_MS ?? loaded.traffic.redisCommandTimeoutMs);
const config = { ...loaded, traffic: { ...loaded.traffic, governance, redisCommandTimeoutMs } };
const sentAt: number[] = [];
const upstreams = createUpstreams(config, {
  request: () => {
    sentAt.push(Date.now());
    return () => undefined;
  },
});
const caller = { identity: `client:${env.GOVERNANCE_CLIENT_ID}`, usage: new UsageTracker() };
// Connected to Redis before the start (a vitest-free process: a plain poll, bounded to 10 s).
for (const end = Date.now() + 10_000; upstreams.redis && !upstreams.redis.ready && Date.now() < end;)
  await new Promise((r) => setTimeout(r, 10));

const multipart = new FormData();
multipart.set('grant_type', 'client_credentials');
multipart.set('client_id', env.GOVERNANCE_CLIENT_ID!);
multipart.set('client_secret', env.GOVERNANCE_CLIENT_SECRET!);
const encoded = new Response(multipart);
const token = await upstreams.governance.call(
  {
    method: 'POST',
    path: '',
    url: config.governance.tokenUrl!,
    body: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
    idempotent: false,
    kind: 'write',
    operation: 'oauth.token',
  },
  caller,
);
const headers = { authorization: `Bearer ${(token.body as { access_token: string }).access_token}` };

process.stdout.write('ready\n');
let input = '';
while (!input.includes('go')) input += String((await once(process.stdin, 'data'))[0]);
const results = await Promise.all(
  env.REPLICA_IDS!.split(',').map((id) =>
    upstreams.governance
      .call(
        {
          method: 'GET',
          path: `/entities/${id}`,
          headers,
          idempotent: true,
          kind: 'read',
          operation: 'entities.get',
        },
        caller,
      )
      .then(
        (r) => r.status,
        (e: unknown) => String((e as Error).message),
      ),
  ),
);
process.stdout.write(`${JSON.stringify({ sentAt, statuses: results })}\n`);
await upstreams.close();
process.exit(0);

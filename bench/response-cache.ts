/**
 * Workload 12: the whole-answer response cache. For EntityGraph(50) and EventGraph(50), requests
 * per second at the bench's concurrency of
 * - the warm gateway without it (the record cache only: what workload 6 measures),
 * - a gateway with it (RESPONSE_CACHE on, its own process), every answer a hit,
 * - a bare node:http server returning the same bytes (bare-bytes.ts): the floor,
 * all measured the same way in the same run, by the same load side (load.ts, which does not parse
 * the answers: parsing 200 KB of JSON per answer would cap all three at the client's speed). The
 * cached gateway and the floor are measured in turns (`inTurns`): the ratio is their rounds' median.
 *
 * Workload 12a: the same hits with authentication on, each request carrying a reader's bearer JWT
 * (verified against a JWKS on a socket once, then remembered by its hash), against the same floor.
 */
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { round } from './client.js';
import { startChild, type Child } from './processes.js';
import { ENTITY_GRAPH, EVENT_GRAPH } from './queries.js';
import { inTurns, measured, roundRobin, type Measured } from './throughput.js';
import type { Ctx, WorkloadRecord } from './workloads.js';

export async function authenticatedResponseCache(ctx: Ctx): Promise<WorkloadRecord> {
  const issuer = await DevIssuer.start();
  try {
    const token = await issuer.tokenFor('reader');
    return await responseCacheThroughput(ctx, {
      env: { AUTH_ANONYMOUS: 'none', AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}` },
      headers: { authorization: `Bearer ${token}` },
    });
  } finally {
    await issuer.close();
  }
}

export async function responseCacheThroughput(
  ctx: Ctx,
  auth?: { env: Record<string, string>; headers: Record<string, string> },
): Promise<WorkloadRecord> {
  const { up, options } = ctx;
  const cachedGateway = await startChild('gateway-process.ts', up.gatewayEnv({ RESPONSE_CACHE: 'true', ...auth?.env }));
  const bare = await startChild('bare-bytes.ts', {});
  const send = (query: string, variables: Record<string, unknown>) =>
    fetch(cachedGateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        'x-graphql-yoga-csrf': 'bench',
        ...auth?.headers,
      },
      body: JSON.stringify({ query, variables }),
    });
  try {
    const operations = [
      { name: 'EntityGraph', query: ENTITY_GRAPH, variables: { first: options.systems } },
      { name: 'EventGraph', query: EVENT_GRAPH, variables: { first: options.events } },
    ];
    const results: Record<string, unknown> = {};
    let errors = 0;
    let ratioToBare = Infinity;
    let ratioToWarm = Infinity;
    for (const { name, query, variables } of operations) {
      // The same fresh start for both gateways: every entry is fresh for the whole timed window.
      let warm;
      if (!auth) {
        await ctx.gateway.request('clear-cache');
        await ctx.client.run(query, variables);
        warm = await measured(ctx.gateway, query, variables, ctx);
      }

      await cachedGateway.request('clear-cache');
      if (!(await send(query, variables)).ok) throw new Error(`${name}: the first request failed`);
      const hit = await send(query, variables);
      const body = await hit.text();
      if (hit.headers.get('x-cache') !== 'HIT') throw new Error(`${name}: the second request was not a cache hit`);
      await bare.request('set-answer', { body, contentType: hit.headers.get('content-type') });
      await up.clearLogs();
      const turns = await inTurns(
        (seconds) => measured(cachedGateway, query, variables, ctx, auth?.headers, seconds),
        (seconds) => measured(bare, query, variables, ctx, undefined, seconds),
        ctx,
      );
      const [cached, floor, toBare] = [turns.a, turns.b, turns.ratio];
      const upstreamDuring = await up.counts();

      const toWarm = warm ? round(cached.perSecond / warm.perSecond, 1) : undefined;
      ratioToBare = Math.min(ratioToBare, toBare);
      if (toWarm !== undefined) ratioToWarm = Math.min(ratioToWarm, toWarm);
      errors += (warm?.errors ?? 0) + cached.errors + floor.errors;
      results[name] = {
        answerBytes: Buffer.byteLength(body),
        warm,
        cached,
        bareServer: floor,
        cachedToBare: toBare,
        cachedToBareByRound: turns.ratios,
        cachedToWarm: toWarm,
        upstreamRequestsDuringCachedRun: upstreamDuring.governance + upstreamDuring.calendar + upstreamDuring.token,
      };
    }
    if (auth)
      return {
        id: '12a',
        name: `response cache with authentication (a reader's bearer JWT per request): EntityGraph(${options.systems}) and EventGraph(${options.events}) answered from it vs a bare server returning the same bytes, concurrency ${options.concurrency}, ${options.throughputSeconds} s each`,
        ...results,
        cachedToBare: ratioToBare,
        errors,
      };
    return {
      id: '12',
      name: `response cache: EntityGraph(${options.systems}) and EventGraph(${options.events}) answered from it vs warm without it vs a bare server returning the same bytes, concurrency ${options.concurrency}, ${options.throughputSeconds} s each`,
      ...results,
      cachedToBare: ratioToBare,
      cachedToWarm: ratioToWarm,
      errors,
    };
  } finally {
    await Promise.all([cachedGateway.stop(), bare.stop()]);
  }
}

/**
 * Workload 12b: the gateway's response cache (`RESPONSE_CACHE`, before Yoga) against
 * `@graphql-yoga/plugin-response-cache` (inside Yoga, keyed by the same partition: bench
 * gateway-process.ts) on the same hits: EntityGraph(50) and EventGraph(50), without a token and with
 * a reader's bearer JWT, each measured in turns against a bare server sending the edge's bytes. Then
 * the cost on a miss: the warm gateway without a response cache, the edge executing and storing
 * every request (`Cache-Control: no-cache`), and the plugin missing and storing every request (a new
 * key each time), no token.
 */
export async function responseCacheSideBySide(ctx: Ctx): Promise<WorkloadRecord> {
  const { up, options } = ctx;
  const issuer = await DevIssuer.start();
  const env = { AUTH_ANONYMOUS: '*', AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}` };
  const [edge, plugin, pluginMiss, bare] = await Promise.all([
    startChild('gateway-process.ts', up.gatewayEnv({ ...env, RESPONSE_CACHE: 'true' })),
    startChild('gateway-process.ts', up.gatewayEnv({ ...env, BENCH_YOGA_RESPONSE_CACHE: 'hit' })),
    startChild('gateway-process.ts', up.gatewayEnv({ ...env, BENCH_YOGA_RESPONSE_CACHE: 'miss' })),
    startChild('bare-bytes.ts', {}),
  ]);
  try {
    const bearer = { authorization: `Bearer ${await issuer.tokenFor('reader')}` };
    const operations = [
      { name: 'EntityGraph', query: ENTITY_GRAPH, variables: { first: options.systems } },
      { name: 'EventGraph', query: EVENT_GRAPH, variables: { first: options.events } },
    ];
    const results: Record<string, unknown> = {};
    let errors = 0;
    for (const { name, query, variables } of operations) {
      for (const [who, headers] of [
        ['noToken', undefined],
        ['bearer', bearer],
      ] as const) {
        const body = await primed([edge, plugin], query, variables, headers);
        await bare.request('set-answer', { body, contentType: 'application/graphql-response+json; charset=utf-8' });
        await up.clearLogs();
        const run = (child: Child) => (seconds: number) => measured(child, query, variables, ctx, headers, seconds);
        const { runs, ratio } = await roundRobin([run(edge), run(plugin), run(bare)], ctx);
        const during = await up.counts();
        errors += runs.reduce((n, r) => n + r.errors, 0);
        results[`${name}.${who}`] = {
          answerBytes: Buffer.byteLength(body),
          edge: runs[0],
          plugin: runs[1],
          bareServer: runs[2],
          edgeToBare: ratio(0, 2),
          pluginToBare: ratio(1, 2),
          edgeToPlugin: ratio(0, 1),
          upstreamRequestsDuringHits: during.governance + during.calendar + during.token,
        };
      }
      const miss = (child: Child, headers?: Record<string, string>) => (seconds: number) =>
        measured(child, query, variables, ctx, headers, seconds);
      const missed = await roundRobin(
        [miss(ctx.gateway), miss(edge, { 'cache-control': 'no-cache' }), miss(pluginMiss)],
        ctx,
      );
      errors += missed.runs.reduce((n, r) => n + r.errors, 0);
      results[`${name}.miss`] = {
        withoutCache: missed.runs[0],
        edge: missed.runs[1],
        plugin: missed.runs[2],
        edgeToWithout: missed.ratio(1, 0),
        pluginToWithout: missed.ratio(2, 0),
      };
    }
    const hits = Object.values(results).filter(
      (r): r is { edge: Measured; plugin: Measured } => 'edgeToPlugin' in (r as object),
    );
    const cpuRatios = hits.map((r) => r.plugin.cpuMsPerRequest / Math.max(r.edge.cpuMsPerRequest, 0.001));
    return {
      id: '12b',
      name: `response cache before Yoga vs @graphql-yoga/plugin-response-cache: EntityGraph(${options.systems}) and EventGraph(${options.events}) hits without a token and with a bearer JWT, each ÷ a bare server sending the same bytes; and a miss (execute and store) ÷ the warm gateway without a cache; concurrency ${options.concurrency}, ${options.throughputSeconds} s each`,
      ...results,
      // Gateway CPU per hit, the plugin's ÷ the edge's: the lowest of the four (two operations, with and without a token).
      pluginCpuToEdge: round(Math.min(...cpuRatios), 2),
      errors,
    };
  } finally {
    await Promise.all([edge.stop(), plugin.stop(), pluginMiss.stop(), bare.stop()]);
    await issuer.close();
  }
}

/** Sends the operation to each child until it is answered from its cache; the edge's hit bytes. */
async function primed(
  children: Child[],
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> | undefined,
): Promise<string> {
  const send = (child: Child) =>
    fetch(child.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...headers,
      },
      body: JSON.stringify({ query, variables }),
    });
  let body = '';
  for (const [i, child] of children.entries()) {
    await child.request('clear-cache');
    if (!(await send(child)).ok) throw new Error(`${child.url}: the first request failed`);
    const again = await send(child);
    if (!again.ok) throw new Error(`${child.url}: the second request failed`);
    if (i === 0) {
      if (again.headers.get('x-cache') !== 'HIT') throw new Error('the edge did not answer the second request itself');
      body = await again.text();
    } else await again.text();
  }
  return body;
}

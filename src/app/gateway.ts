/**
 * Builds the gateway from a configuration: the upstreams, the services over them and the Yoga
 * server. Nothing here listens on a port, so tests drive it through `yoga.fetch` or mount it on
 * their own server; `server.ts` is the process entry that listens.
 */
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { setMaxListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import { CalendarService } from '../calendar/service.js';
import type { Config } from '../config/config.js';
import type { Context } from '../graph/context.js';
import { UsageTracker } from '../core/usage.js';
import { maskError } from '../graph/errors.js';
import { GovernanceService } from '../governance/service.js';
import { useCompression } from '../http/compression.js';
import { useGraphiQLPage } from '../http/graphiql-page.js';
import { yogaLogger, type LogSink } from '../observability/logging.js';
import { requestIdOf } from '../observability/request-id.js';
import { createObservability, type Observability } from '../observability/setup.js';
import { loadSafelist, usePersistedSafelist } from '../http/persisted.js';
import { useHttpCaching } from '../http/plugins/use-http-caching.js';
import { useJit } from '../http/plugins/use-jit.js';
import { useOperationBudget } from '../http/plugins/use-operation-budget.js';
import { useBodyLimit } from '../http/plugins/use-body-limit.js';
import { useCacheSettle } from '../http/plugins/use-cache-settle.js';
import { securityPlugins } from '../http/plugins/use-security.js';
import { useCostExtension } from '../http/plugins/use-upstream-usage.js';
import { useAudit } from '../http/plugins/use-audit.js';
import { schema } from '../graph/schema.js';
import { ChangeBus } from '../live/changes.js';
import { LivePolling } from '../live/polling.js';
import { createHash } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { printSchema } from 'graphql';
import { AnswerCache } from '../core/answer-cache.js';
import { ResponseCacheEdge } from '../http/response-cache.js';
import { fairShareKey } from '../core/caller.js';
import { OperationRates } from '../core/fair-share.js';
import { principalOf, type Principal } from '../identity/principal.js';
import { createUpstreams, type Upstreams } from './build-upstreams.js';

export interface GatewayOptions {
  config: Config;
  /** Replaces the upstream HTTP agent (tests pass a MockAgent). */
  dispatcher?: Dispatcher;
  /** Where the JSON request log goes (default: stdout). */
  logSink?: LogSink;
  /** Where audit lines go instead of AUDIT_SINK, and the clock of their times (tests). */
  audit?: { sink: (line: string) => void; clock?: () => number };
  /** Plugins of the process around the gateway (the shutdown drain marks mutations). */
  extraPlugins?: Plugin[];
}

export interface Gateway {
  yoga: YogaServerInstance<Record<string, unknown>, Context>;
  /** The Node request listener to serve: Yoga behind the response cache (when on). */
  handler: RequestListener;
  upstreams: Upstreams;
  governance: GovernanceService;
  calendar: CalendarService;
  /** Live updates: the change bus and the pollers. */
  live: { bus: ChangeBus; polling: LivePolling };
  /** Metrics registry, tracing and the plugins serving /metrics and /ready. */
  observability: Observability;
  close(): Promise<void>;
}

export function createGateway({ config, dispatcher, logSink, audit, extraPlugins = [] }: GatewayOptions): Gateway {
  const observability = createObservability({ config, logSink, auditSink: audit?.sink, upstreams: () => upstreams });
  const upstreams = createUpstreams(config, dispatcher, observability.upstream);
  const governance = new GovernanceService(upstreams.governance, config, upstreams.locks);
  const calendar = new CalendarService(upstreams.calendar, config, upstreams.locks);

  const bus = new ChangeBus(upstreams.redis);
  const polling = new LivePolling({
    redis: upstreams.redis,
    traffic: { governance: upstreams.governance.traffic, calendar: upstreams.calendar.traffic },
    budgets: config.traffic,
    share: config.live.pollBudgetShare,
    minIntervalMs: config.live.minPollIntervalMs,
    maxIntervalMs: config.live.maxPollIntervalMs,
  });
  // The credential a caller reads with: the gateway's own unless it forwards the caller's.
  const identityOf = (headers: Headers, mode: 'configured' | 'forward') =>
    mode === 'forward'
      ? createHash('sha256')
          .update(headers.get('authorization') ?? '')
          .digest('base64url')
          .slice(0, 22)
      : 'configured';

  // Whose turn a request waits for: the caller, or the upstream credential it forwards.
  const forwarding = config.governance.authMode === 'forward' || config.calendar.authMode === 'forward';
  const fairShareKeyOf = (principal: Principal | undefined, headers: Headers) =>
    fairShareKey(principal, forwarding && headers.has('authorization') ? identityOf(headers, 'forward') : undefined);

  const operationRates = new OperationRates(config.traffic.fairShare);

  // PERSISTED_OPERATIONS: the safelist answers before anything is parsed (see persisted.ts).
  const persisted =
    config.persistedOperations === 'off'
      ? []
      : [
          usePersistedSafelist(config.persistedOperations, undefined, {
            secret: config.security.federationSecret,
            header: config.security.federationSecretHeader,
          }) as Plugin<Context>,
        ];

  // RESPONSE_CACHE: repeated queries answered from the raw request, before Yoga (response-cache.ts).
  const edge = config.cache.answers.enabled
    ? new ResponseCacheEdge({
        cache: new AnswerCache({
          maxBytes: config.cache.answers.maxBytes,
          maxEntryBytes: config.cache.shared.maxEntryBytes,
          records: upstreams.cache,
          shared: upstreams.sharedCache,
        }),
        graphqlEndpoint: '/graphql',
        maxBodyBytes: Math.min(config.security.maxRequestBodyBytes, 256 * 1024),
        csrfPrevention: config.security.csrfPrevention,
        keyHeaders: [config.security.federationSecretHeader.toLowerCase()],
        // What decides whether a request is answered, and how: replicas of another schema or other
        // rules (a rotated router secret, introspection, limits, the safelist, auth modes) do not
        // share answers through Redis, during a rolling deploy included.
        namespace: () =>
          createHash('sha256')
            .update(printSchema(schema))
            .update(
              JSON.stringify({
                security: config.security,
                persisted: config.persistedOperations,
                safelist: config.persistedOperations === 'off' ? [] : [...loadSafelist().keys()],
                auth: [config.governance.authMode, config.calendar.authMode],
                inputLimits: config.inputLimits,
                maxPageSize: config.maxPageSize,
              }),
            )
            .digest('base64url'),
        compression: config.http.compression,
        // A hit's cost: the estimate the operation had, nothing sent, the budget as of now.
        cost: config.traffic.costExtension
          ? (estimate) => {
              const usage = new UsageTracker({ status: (name) => upstreams[name].traffic.status() });
              usage.estimate = estimate;
              return usage.report(true);
            }
          : undefined,
        listeners: observability.edgeListeners,
      })
    : undefined;

  const logger = yogaLogger(config.logLevel);
  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // CORS_ORIGINS: `*` any origin, a list, or nothing (closed; the production default).
    cors: config.http.corsOrigins.includes('*')
      ? { origin: '*' }
      : config.http.corsOrigins.length > 0
        ? { origin: config.http.corsOrigins, credentials: true }
        : false,
    // Served precompressed by useGraphiQLPage (inlined, works offline) instead of Yoga's CDN page.
    graphiql: false,
    maskedErrors: { maskError, isDev: config.env === 'development' },
    // Expected errors are one request log line; only unexpected ones print a stack (logging.ts).
    logging: logger,
    // Batching multiplies one HTTP request into many operations; off unless GRAPHQL_MAX_BATCH > 0.
    batching: config.security.maxBatch > 0 ? { limit: config.security.maxBatch } : false,
    // GRAPHQL_MAX_BODY_BYTES is useBodyLimit's (below): Yoga's own limit streams every body through
    // a counting transform.
    maxRequestBodySize: false,
    // @defer and @stream, answered over multipart/mixed or text/event-stream as the client accepts.
    // Deferred parts run in the same context: the per-operation estimate (which walks deferred
    // fragments too), the request's usage budget and the account budget all count them.
    plugins: [
      useDeferStream(),
      ...(extraPlugins as Plugin<Context>[]),
      ...(config.graphiql ? [useGraphiQLPage('/graphql') as Plugin<Context>] : []),
      ...observability.plugins,
      ...persisted,
      ...securityPlugins(config.security),
      ...(config.traffic.costExtension ? [useCostExtension()] : []),
      // Before the refusals of useOperationBudget, so that a refused mutation is audited too.
      ...(observability.audit ? [useAudit(observability.audit, audit?.clock)] : []),
      useOperationBudget({
        maxCallsPerOperation: config.traffic.maxCallsPerOperation,
        maxPageSize: config.maxPageSize,
        rate: (client) => operationRates.take(client),
      }),
      useCacheSettle(upstreams.cache),
      ...(config.jit ? [useJit((msg, detail) => logger && logger.warn(msg, detail)) as Plugin<Context>] : []),
      useHttpCaching({ defaultMaxAgeSeconds: Math.floor(config.cache.ttlMs / 1000) }),
      ...(config.http.compression ? [useCompression() as Plugin<Context>] : []),
      // After every request parser: larger bodies are answered 413 from their Content-Length,
      // before anything is read or parsed.
      useBodyLimit(config.security.maxRequestBodyBytes),
      // Last: it stores the answer as every other plugin left it.
      ...(edge ? [edge.plugin()] : []),
    ],
    context: ({ request, req }: { request: Request; req?: object }): Context => {
      const requestId = requestIdOf(request);
      const client = fairShareKeyOf(principalOf(req) ?? principalOf(request), request.headers);
      const usage = new UsageTracker({
        maxCallsPerUpstream: config.traffic.maxCallsPerOperation,
        deadline: Date.now() + config.traffic.operationDeadlineMs,
        status: (name) => upstreams[name].traffic.status(),
        share: (name) => upstreams[name].traffic.shares.of(client),
      });
      // Every upstream call of the operation listens on this signal; Node warns of a leak past ten
      // listeners, which one traversal passes legitimately.
      const signal = operationSignal(request.signal);
      allowListeners(signal, config.traffic.maxCallsPerOperation * 2 + 16);
      const info = { requestId, headers: request.headers, usage, signal, client };
      const live = {
        bus,
        polling,
        defaultIntervalMs: config.live.pollIntervalMs,
        identity: {
          governance: identityOf(request.headers, config.governance.authMode),
          calendar: identityOf(request.headers, config.calendar.authMode),
        },
        fresh: (detached = false) => {
          const each = {
            ...info,
            signal: detached ? undefined : info.signal,
            usage: new UsageTracker({ maxCallsPerUpstream: config.traffic.maxCallsPerOperation }),
          };
          return { governance: governance.forRequest(each), calendar: calendar.forRequest(each) };
        },
      };
      const idempotency = {
        store: upstreams.idempotency,
        headerKey: request.headers.get('idempotency-key') ?? undefined,
      };
      return {
        requestId,
        client,
        usage,
        governance: governance.forRequest(info),
        calendar: calendar.forRequest(info),
        idempotency,
        inputLimits: config.inputLimits,
        live,
      };
    },
  });

  const serveYoga: RequestListener = (req, res) => void yoga(req, res);
  return {
    yoga,
    handler: edge ? edge.wrap(serveYoga) : serveYoga,
    upstreams,
    governance,
    calendar,
    live: { bus, polling },
    observability,
    async close() {
      await polling.close();
      bus.close();
      await Promise.all([governance.close(), calendar.close()]);
      await upstreams.close();
      await observability.close();
    },
  };
}

/**
 * A native signal that follows the request's. The server adapter's request signal is a Proxy whose
 * every property read costs a string test; hundreds of upstream calls check and listen on the
 * signal, so they get a plain one, fed by a single listener on the request's.
 */
function operationSignal(source: AbortSignal | undefined): AbortSignal | undefined {
  if (!source) return undefined;
  const controller = new AbortController();
  if (source.aborted) controller.abort(source.reason);
  else source.addEventListener('abort', () => controller.abort(source.reason), { once: true });
  return controller.signal;
}

function allowListeners(signal: AbortSignal | undefined, n: number): void {
  if (!signal) return;
  try {
    setMaxListeners(n, signal);
  } catch {
    // A signal that is not a Node EventTarget has no such limit.
  }
}

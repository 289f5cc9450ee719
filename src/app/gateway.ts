/**
 * Builds the gateway from a configuration: the upstreams, the services over them and the Yoga
 * server. Nothing here listens on a port, so tests drive it through `yoga.fetch` or mount it on
 * their own server; `server.ts` is the process entry that listens. The plugin list and its order
 * are in `plugins.ts`, the per-request context in `context.ts`.
 */
import { createHash } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { printSchema } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { CalendarService } from '../calendar/service.js';
import type { Config } from '../config/config.js';
import { AnswerCache } from '../core/answer-cache.js';
import { costExtension } from '../core/cost-report.js';
import { UsageTracker } from '../core/usage.js';
import { GovernanceService } from '../governance/service.js';
import type { Context } from '../graph/context.js';
import { maskError } from '../graph/errors.js';
import { schema } from './schema.js';
import { loadSafelist } from '../http/persisted.js';
import type { GatewayFetch } from '../mcp/call.js';
import { ResponseCacheEdge, serveWithBody, type Serve } from '../http/response-cache.js';
import { FrontDoor, isLoopback } from '../http/front-door.js';
import { principalOf } from '../identity/principal.js';
import { ChangeBus } from '../live/changes.js';
import { LivePolling } from '../live/polling.js';
import { yogaLogger, type LogSink } from '../observability/logging.js';
import { createObservability, type Observability } from './observability.js';
import { createUpstreams, type Upstreams } from './build-upstreams.js';
import { cachePartition, contextFactory } from './context.js';
import { authenticationOf } from './identity.js';
import { gatewayPlugins } from './plugins.js';

export interface GatewayOptions {
  config: Config;
  /** Where the JSON request log goes (default: stdout). */
  logSink?: LogSink;
  /** Where audit lines go instead of AUDIT_SINK, and the clock of their times (tests). */
  audit?: { sink: (line: string) => void; clock?: () => number };
  /** Plugins of the process around the gateway (the shutdown drain marks mutations). */
  extraPlugins?: Plugin[];
  /** Wraps the listener behind the front door (the shutdown drain: its 503s get the CORS headers too). */
  around?: (listener: RequestListener) => RequestListener;
  /** Plugins after the gateway's own, where its response cache stores (bench 12b puts Yoga's response-cache plugin there). */
  lastPlugins?: Plugin[];
  /** Tokens of the development issuer's sample callers, offered in GraphiQL (`npm start`). */
  sampleCallers?: Record<string, string>;
}

export interface Gateway {
  yoga: YogaServerInstance<Record<string, unknown>, Context>;
  /** The Node request listener to serve: authentication, then the response cache (when on), then Yoga. */
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

export function createGateway(options: GatewayOptions): Gateway {
  const { config, logSink, audit, extraPlugins = [], lastPlugins = [], sampleCallers } = options;
  const around = options.around ?? ((listener: RequestListener) => listener);
  const observability = createObservability({ config, logSink, audit, upstreams: () => upstreams });
  const upstreams = createUpstreams(config, observability.upstream);
  const governance = new GovernanceService(upstreams.governance, config, upstreams.locks, upstreams.redis);
  const calendar = new CalendarService(upstreams.calendar, config, upstreams.locks);
  const { bus, polling } = liveUpdates(config, upstreams);
  const authentication = authenticationOf(config, observability);
  const edge = config.cache.answers.enabled ? responseCacheEdge(config, upstreams, observability) : undefined;
  const logger = yogaLogger(config.logLevel);
  const gatewayFetch: GatewayFetch = (request, serverContext) => Promise.resolve(yoga.fetch(request, serverContext));
  const yoga: YogaServerInstance<Record<string, unknown>, Context> = createYoga<Record<string, unknown>, Context>({
    ...yogaSettings(config),
    logging: logger,
    plugins: gatewayPlugins({
      config,
      upstreams,
      observability,
      logger,
      edge,
      authentication,
      extraPlugins,
      lastPlugins,
      sampleCallers,
      gatewayFetch,
    }),
    context: contextFactory({ config, upstreams, governance, calendar, bus, polling }),
  });

  const serveYoga: Serve = (req, res, body) => void (body ? serveWithBody(yoga, req, res, body) : yoga(req, res));
  return {
    yoga,
    // Host, Origin and CORS first, then authentication: nothing is read, parsed or looked up for a
    // request either refuses.
    handler: frontDoor(config).wrap(around(authentication.wrap(edge ? edge.wrap(serveYoga) : serveYoga))),
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

/** HOST, PUBLIC_HOSTS and CORS_ORIGINS, checked on every path but the probes. */
function frontDoor(config: Config): FrontDoor {
  return new FrontDoor({
    loopback: isLoopback(config.host),
    publicHosts: config.http.publicHosts,
    corsOrigins: config.http.corsOrigins,
  });
}

/** Yoga's own settings, apart from the plugins, the logger and the context. */
function yogaSettings(config: Config) {
  return {
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // CORS_ORIGINS is the front door's (http/front-door.ts): answers written before Yoga get it too.
    cors: false,
    // Served by the GraphiQL page plugin (plugins.ts) instead of Yoga's CDN page.
    graphiql: false,
    maskedErrors: { maskError, isDev: config.env === 'development' },
    // Batching multiplies one HTTP request into many operations; off unless GRAPHQL_MAX_BATCH > 0.
    batching: config.security.maxBatch > 0 ? { limit: config.security.maxBatch } : false,
    // security.maxRequestBodyBytes is the body-limit plugin's (plugins.ts).
    maxRequestBodySize: false,
  } as const;
}

function liveUpdates(config: Config, upstreams: Upstreams): { bus: ChangeBus; polling: LivePolling } {
  const bus = new ChangeBus(upstreams.redis);
  const polling = new LivePolling({
    redis: upstreams.redis,
    traffic: { governance: upstreams.governance.traffic, calendar: upstreams.calendar.traffic },
    budgets: config.traffic,
    share: config.live.pollBudgetShare,
    minIntervalMs: config.live.minPollIntervalMs,
    maxIntervalMs: config.live.maxPollIntervalMs,
    maxStreamsPerCaller: config.live.maxStreamsPerCaller,
    pollsPerMinutePerCaller: config.live.pollsPerMinutePerCaller,
  });
  return { bus, polling };
}

/** RESPONSE_CACHE: repeated queries answered from the raw request, before Yoga (response-cache.ts). */
function responseCacheEdge(config: Config, upstreams: Upstreams, observability: Observability): ResponseCacheEdge {
  return new ResponseCacheEdge({
    cache: new AnswerCache({
      maxBytes: config.cache.answers.maxBytes,
      maxEntryBytes: config.cache.shared.maxEntryBytes,
      records: upstreams.cache,
      shared: upstreams.sharedCache,
    }),
    graphqlEndpoint: '/graphql',
    maxBodyBytes: Math.min(config.security.maxRequestBodyBytes, 256 * 1024),
    keyHeaders: [config.security.federationSecretHeader.toLowerCase()],
    partition: (req) => cachePartition(config, principalOf(req), req.headers.authorization),
    namespace: () => answerNamespace(config),
    // A hit's cost: the estimate the operation had, nothing sent, the budget as of now.
    cost: config.traffic.costExtension
      ? (estimate, full) => {
          const usage = new UsageTracker({ status: (name) => upstreams[name].traffic.status() });
          usage.estimate = estimate;
          return costExtension(usage.costs(true), full);
        }
      : undefined,
    listeners: observability.edgeListeners,
  });
}

/**
 * What decides whether a request is answered, and how: replicas of another schema or other rules (a
 * rotated router secret, introspection, limits, the safelist, auth modes) do not share answers
 * through Redis, during a rolling deploy included.
 */
function answerNamespace(config: Config): string {
  return createHash('sha256')
    .update(printSchema(schema))
    .update(
      JSON.stringify({
        security: config.security,
        persisted: config.persistedOperations,
        safelist: config.persistedOperations === 'off' ? [] : [...loadSafelist().keys()],
        auth: [config.governance.authMode, config.calendar.authMode, config.auth],
        maxPageSize: config.maxPageSize,
      }),
    )
    .digest('base64url');
}

/**
 * The gateway's Yoga plugins, one named builder each, in the one order they run (`PLUGINS`).
 * Adding a plugin is one line in that list plus its builder.
 *
 * Why this order:
 * - @defer/@stream first: deferred parts then run through every plugin below, in the same context,
 *   so the estimate, the request's usage budget and the account budget count them too.
 * - The process's own plugins (the shutdown drain) and the GraphiQL page answer before any work.
 * - Authentication, for requests that did not pass the socket's (`yoga.fetch`): before /metrics, the
 *   safelist, parsing, and everything that could cost anything.
 * - Observability (readiness, /metrics, operation events) sees every request, refused ones included.
 * - /mcp answers after them: each of its tool calls comes back in through the whole list.
 * - The persisted-operations safelist answers before anything is parsed.
 * - Validation errors about a literal name its argument before security's plugins merge identical
 *   ones (the name tells them apart).
 * - Security (Armor limits, introspection, CSRF) refuses a request before any resolver runs, so a
 *   refused request never costs an upstream call; the operation budget then refuses one whose
 *   estimate is over the limits, still before any upstream call. The audit trail sits between them:
 *   it sees every mutation that executes or that the budget refuses, and validation failures.
 * - The body limit comes after every request parser: a larger body is answered 413 from its
 *   Content-Length, before anything is read or parsed.
 * - The response cache stores last, the answer as every other plugin left it.
 */
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config/config.js';
import type { Context } from '../graph/context.js';
import { useCompression } from '../http/compression.js';
import { useDeferStream } from '../http/plugins/use-defer-stream.js';
import { useGraphiQLPage } from '../http/graphiql-page.js';
import { usePersistedOff, usePersistedSafelist } from '../http/persisted.js';
import { useBodyLimit } from '../http/plugins/use-body-limit.js';
import { useCacheSettle } from '../http/plugins/use-cache-settle.js';
import { useHttpCaching } from '../http/plugins/use-http-caching.js';
import { useJit } from '../http/plugins/use-jit.js';
import { useOperationBudget } from '../http/plugins/use-operation-budget.js';
import { auditRefusedToolCall, useAudit } from '../http/plugins/use-audit.js';
import { useArgumentNames } from '../http/plugins/use-argument-names.js';
import { OperationRates } from '../core/fair-share.js';
import { securityPlugins } from '../http/plugins/use-security.js';
import { useCostExtension } from '../http/plugins/use-upstream-usage.js';
import type { ResponseCacheEdge } from '../http/response-cache.js';
import type { Authentication } from '../http/authenticate.js';
import type { GatewayFetch } from '../mcp/call.js';
import { useMcp } from '../mcp/endpoint.js';
import { useProtectedResourceMetadata } from '../http/protected-resource.js';
import { PERMISSIONS } from '../identity/principal.js';
import type { yogaLogger } from '../observability/logging.js';
import type { Observability } from './observability.js';
import { schema } from './schema.js';
import type { Upstreams } from './build-upstreams.js';

/** What a plugin builder may read. */
export interface PluginParts {
  config: Config;
  upstreams: Upstreams;
  observability: Observability;
  logger: ReturnType<typeof yogaLogger>;
  /** The response cache in front of Yoga, when RESPONSE_CACHE is on. */
  edge: ResponseCacheEdge | undefined;
  /** Who may call; also in front of Yoga on the socket (gateway.ts). */
  authentication: Authentication;
  /** Plugins of the process around the gateway. */
  extraPlugins: Plugin[];
  /** Plugins of the process that run after all of the gateway's own. */
  lastPlugins: Plugin[];
  /** Tokens of the development issuer's sample callers, offered in GraphiQL. */
  sampleCallers?: Record<string, string>;
  /** The gateway's own GraphQL endpoint, for MCP tool calls. */
  gatewayFetch: GatewayFetch;
}

/** Plugins typed for the gateway's context or for any context. */
type AnyPlugin = Plugin<Context> | Plugin | Plugin<Record<string, unknown>>;
/** A plugin, several, or none (the setting is off). */
type PluginBuilder = (parts: PluginParts) => AnyPlugin | AnyPlugin[] | undefined;

const PLUGINS: PluginBuilder[] = [
  deferStream,
  processPlugins,
  graphiqlPage,
  authenticate,
  observabilityPlugins,
  mcp,
  persistedSafelist,
  argumentNames,
  security,
  costExtension,
  audit,
  operationBudget,
  cacheSettle,
  jit,
  httpCaching,
  compression,
  bodyLimit,
  responseCacheStore,
  lastPlugins,
];

export function gatewayPlugins(parts: PluginParts): Plugin<Context>[] {
  return PLUGINS.flatMap((build) => build(parts) ?? []) as Plugin<Context>[];
}

function deferStream(): AnyPlugin[] {
  return useDeferStream();
}

function processPlugins({ extraPlugins }: PluginParts): AnyPlugin[] {
  return extraPlugins;
}

/** Served precompressed and inlined (works offline) instead of Yoga's CDN page. */
function graphiqlPage({ config, sampleCallers }: PluginParts): AnyPlugin | undefined {
  return config.graphiql ? useGraphiQLPage('/graphql', sampleCallers) : undefined;
}

/** The same check as the socket's, for requests reaching Yoga another way (http/authenticate.ts). */
function authenticate({ authentication }: PluginParts): AnyPlugin {
  return authentication.plugin();
}

function observabilityPlugins({ observability }: PluginParts): AnyPlugin[] {
  return observability.plugins;
}

/** MCP (src/mcp/): curated operations as tools at /mcp, an OAuth protected resource (RFC 9728 metadata). */
function mcp({ config, gatewayFetch, upstreams, observability }: PluginParts): AnyPlugin[] | undefined {
  if (!config.mcp.enabled) return undefined;
  return [
    useProtectedResourceMetadata({
      resourcePath: '/mcp',
      authorizationServers: config.auth.issuers.map((i) => i.issuer),
      scopes: PERMISSIONS,
    }),
    useMcp({
      schema,
      config,
      fetch: gatewayFetch,
      redis: upstreams.redis,
      // The budget's own account of when a point frees: a deferred call's task is polled then.
      freesInMs: (upstream) =>
        upstream === 'governance' || upstream === 'calendar'
          ? Math.max(0, ...upstreams[upstream].traffic.status().rules.map((r) => r.nextSlotInMs))
          : 0,
      observe: {
        request: observability.metrics?.mcp,
        refused: observability.audit && auditRefusedToolCall(observability.audit),
      },
    }),
  ];
}

/** PERSISTED_OPERATIONS (see persisted.ts). */
function persistedSafelist({ config }: PluginParts): AnyPlugin {
  if (config.persistedOperations === 'off') return usePersistedOff();
  return usePersistedSafelist(config.persistedOperations, undefined, {
    secret: config.security.federationSecret,
    header: config.security.federationSecretHeader,
  });
}

function argumentNames(): AnyPlugin {
  return useArgumentNames();
}

function security({ config }: PluginParts): AnyPlugin[] {
  return securityPlugins(config.security);
}

function costExtension({ config }: PluginParts): AnyPlugin | undefined {
  return config.traffic.costExtension ? useCostExtension() : undefined;
}

/** AUDIT_SINK: before the operation budget's refusals, so that a refused mutation is audited too. */
function audit({ observability }: PluginParts): AnyPlugin | undefined {
  return observability.audit && useAudit(observability.audit);
}

function operationBudget({ config, upstreams }: PluginParts): AnyPlugin {
  const rates = new OperationRates(config.traffic.fairShare);
  return useOperationBudget({
    maxCallsPerOperation: config.traffic.maxCallsPerOperation,
    maxPageSize: config.maxPageSize,
    rate: (client) => rates.take(client),
    capWait: (client, upstream) => upstreams[upstream].traffic.shares.capWaitMs(client, Date.now()),
  });
}

function cacheSettle({ upstreams }: PluginParts): AnyPlugin {
  return useCacheSettle(upstreams.cache);
}

function jit({ config, logger }: PluginParts): AnyPlugin | undefined {
  return config.jit ? useJit((msg, detail) => logger && logger.warn(msg, detail)) : undefined;
}

function httpCaching({ config }: PluginParts): AnyPlugin {
  return useHttpCaching({ defaultMaxAgeSeconds: Math.floor(config.cache.ttlMs / 1000) });
}

function compression(): AnyPlugin {
  return useCompression();
}

/** security.maxRequestBodyBytes: Yoga's own limit would stream every body through a counting transform. */
function bodyLimit({ config }: PluginParts): AnyPlugin {
  return useBodyLimit(config.security.maxRequestBodyBytes);
}

function responseCacheStore({ edge }: PluginParts): AnyPlugin | undefined {
  return edge?.plugin();
}

function lastPlugins({ lastPlugins }: PluginParts): AnyPlugin[] {
  return lastPlugins;
}

/**
 * The governance upstream for the GraphQL layer: long-lived parts (the token cache) live on the
 * service, per-request parts (the client bound to the caller's credential and usage, DataLoaders) on
 * the scope that `forRequest` returns.
 */
import type { Config } from '../config/config.js';
import type { RequestInfo } from '../core/caller.js';
import { UPSTREAM_PAGE_SIZE } from '../core/pages.js';
import type { Upstream } from '../core/upstream-pipeline.js';
import type { RecordLocks } from '../core/record-locks.js';
import type { RedisLink } from '../core/redis.js';
import { GovernanceAuth } from './auth.js';
import { GovernanceClient } from './client.js';
import { GovernanceDiscovery } from './discovery.js';
import { shareDiscovery } from './discovery-share.js';
import { createGovernanceLoaders } from './loaders.js';
import { GovernanceWrites } from './writes.js';
import { AI_ENTITY_TYPE_NAMES } from './model.js';
import { UsageTracker } from '../core/usage.js';

export type GovernanceScope = ReturnType<GovernanceService['forRequest']>;

export class GovernanceService {
  private readonly auth: GovernanceAuth;
  readonly discovery: GovernanceDiscovery;

  constructor(
    readonly upstream: Upstream,
    readonly config: Config,
    private readonly locks: RecordLocks,
    /** Shares what the discovery registry learns with the other replicas. */
    redis?: RedisLink,
  ) {
    this.auth = new GovernanceAuth(config, upstream);
    // Forwarded credentials: answers are the callers' own, so none teaches discovery (nothing to share).
    this.discovery = new GovernanceDiscovery(config.discovery, config.governance.authMode === 'configured');
    if (redis && this.discovery.observes) shareDiscovery(this.discovery, redis);
  }

  forRequest(info: RequestInfo) {
    const credential = this.auth.credentialFor(info.headers);
    const discovery = this.discovery;
    const client: GovernanceClient = new GovernanceClient({
      upstream: this.upstream,
      credential,
      caller: { usage: info.usage, signal: info.signal, requestId: info.requestId, client: info.client },
      cacheTtlMs: this.config.cache.ttlMsByKind,
      onAnswer: (operation, body) => discovery.observe(operation, body),
      // A mutation's later fields must see its earlier writes (the record cache drops the tags).
      afterWrite: () => loaders.forget(),
    });
    const loaders = createGovernanceLoaders(client);
    return {
      requestId: info.requestId,
      client,
      loaders,
      /** Largest `first`/`last` a governance list accepts. */
      maxPageSize: this.config.maxPageSize,
      writes: new GovernanceWrites(client, this.locks, info.signal),
      /** Relationship types, workflow stages, attribute options and organizations: documented, configured and seen (`current()` brings in other replicas'). */
      discovery,
    };
  }

  /**
   * What the upstream can tell discovery at start: the stages the records of each kind are in and
   * the organizations that own them, from the first page of each kind (one read per kind, with the
   * gateway's own credential, through the account budget like any read, within one operation's
   * deadline). Every replica reads the same answers; stage filters wait for them. Nothing is read
   * with the tenant's file (GOVERNANCE_DISCOVERY_FILE, or the embedded emulators' example), which
   * says more, nor without an own credential (forward mode): no caller's answer teaches discovery.
   */
  seedDiscovery(): Promise<void> {
    const described = this.config.discoveryFile || this.config.embeddedEmulators;
    if (!this.discovery.observes || described) return Promise.resolve();
    const usage = new UsageTracker({ deadline: Date.now() + this.config.traffic.operationDeadlineMs });
    const { client } = this.forRequest({ requestId: 'discovery-seed', headers: new Headers(), usage });
    const page = { page: 0, size: UPSTREAM_PAGE_SIZE, sort: 'name,asc', kind: 'page' } as const;
    return this.discovery.seedFrom(AI_ENTITY_TYPE_NAMES.map((kind) => client.searchEntities(kind, {}, page)));
  }

  /** Calls an operation makes before its first read: a token read when none is held (0 or 1). */
  setupCalls(): number {
    return this.auth.setupCalls();
  }

  async close(): Promise<void> {}
}

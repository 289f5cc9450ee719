/**
 * Shares what a replica's discovery registry learns from upstream answers with the other replicas,
 * through one Redis set of facts: a new fact is added (SADD) when it is learned, and again after
 * Redis comes back; before answering, a registry reads the set (SMEMBERS) at most once per
 * `refreshMs` and absorbs the facts it lacks. The configuration is the same on every replica, so
 * only observations travel. Best effort: while Redis is away each replica answers from what it knows.
 */
import type { RedisLink } from '../core/redis.js';
import type { DiscoveryFact, GovernanceDiscovery } from './discovery.js';
import { ownJson } from '../core/records.js';

/** Tenant metadata is tens of names; the cap keeps a misbehaving upstream from filling Redis. */
const MAX_FACTS = 10_000;

export function shareDiscovery(discovery: GovernanceDiscovery, redis: RedisLink, refreshMs = 1_000): void {
  const key = redis.key('discovery', 'facts');
  const known = new Set<string>();
  const mine: string[] = [];
  let pulledAt = 0;
  let pulling: Promise<void> | undefined;

  discovery.onLearn = (fact) => {
    const text = JSON.stringify(fact);
    if (known.has(text) || known.size >= MAX_FACTS) return;
    known.add(text);
    mine.push(text);
    void redis.bestEffort('discovery share', redis.client.sadd(key, text));
  };
  redis.onReady(() => {
    if (mine.length) void redis.bestEffort('discovery share', redis.client.sadd(key, ...mine));
  });

  const pull = async () => {
    const members = await redis.bestEffort('discovery read', redis.client.smembers(key));
    pulledAt = Date.now();
    const facts: DiscoveryFact[] = [];
    for (const text of members ?? []) {
      if (known.has(text) || known.size >= MAX_FACTS) continue;
      known.add(text);
      const fact = parse(text);
      if (fact) facts.push(fact);
    }
    discovery.absorb(facts);
  };
  discovery.pull = () => {
    if (Date.now() - pulledAt < refreshMs) return Promise.resolve();
    return (pulling ??= pull().finally(() => (pulling = undefined)));
  };
}

function parse(text: string): DiscoveryFact | undefined {
  try {
    const fact = ownJson<DiscoveryFact>(text);
    return fact && typeof fact === 'object' && ['type', 'stage', 'option', 'org'].includes(fact.t) ? fact : undefined;
  } catch {
    return undefined;
  }
}

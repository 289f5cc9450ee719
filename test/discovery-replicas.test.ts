/**
 * Discovery that every replica answers alike from the start: two freshly started gateways on the
 * embedded emulators (as `npm start` runs them), sharing one Redis, list the workflow stages in
 * order, the relationship types with their kind pairs and the organizations from the shipped example
 * before either has read a record; what one of them then learns from an upstream answer reaches the
 * other through Redis.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedUpstreams } from '../src/app/embedded-emulators.js';
import { createGateway } from '../src/app/gateway.js';
import { loadConfig } from '../src/config/config.js';
import { EXAMPLE_DISCOVERY_FILE } from '../src/emulators/governance/index.js';
import { REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

type Any = any;

const run = await requireRedis();
const example = JSON.parse(readFileSync(EXAMPLE_DISCOVERY_FILE, 'utf8'));
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A gateway as `npm start` builds it: nothing configured but Redis, so its emulators are embedded. */
async function startReplica(prefix: string) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', REDIS_URL, REDIS_KEY_PREFIX: prefix });
  expect(config.embeddedEmulators).toBe(true);
  const embedded = await startEmbeddedUpstreams(config);
  const gateway = createGateway({ config: embedded.config });
  closers.push(
    () => embedded.close(),
    () => gateway.close(),
  );
  await until(() => gateway.upstreams.redis?.ready, 'the replica to reach Redis');
  return async (query: string, variables?: Record<string, unknown>): Promise<Any> => {
    const res = await gateway.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    return body.data;
  };
}

const PICKERS = `{
  relationshipTypes { name databaseId forwardLabel reverseLabel ends { firstTypeName secondTypeName } sources }
  organizations { databaseId name parentId sources }
  entityTypes(first: 20) { nodes { name workflow { stages { name databaseId sequence sources } } } }
}`;

describe.skipIf(!run)('discovery on two fresh replicas sharing Redis', () => {
  it('both list the stages in order, the relationship types with their kind pairs and the organizations of the shipped example', async () => {
    const prefix = uniquePrefix();
    const [a, b] = await Promise.all([startReplica(prefix), startReplica(prefix)]);
    const [fromA, fromB] = await Promise.all([a(PICKERS), b(PICKERS)]);
    expect(fromB).toEqual(fromA);

    const types = new Map(fromA.relationshipTypes.map((t: Any) => [t.name, t]));
    expect([...types.keys()].sort()).toEqual(example.relationshipTypes.map((t: Any) => t.name).sort());
    for (const t of example.relationshipTypes) {
      expect((types.get(t.name) as Any).ends).toHaveLength(t.ends.length);
      expect(types.get(t.name)).toMatchObject({
        databaseId: t.id,
        forwardLabel: t.forwardLabel,
        reverseLabel: t.reverseLabel,
        // The documented pairs come first: the same pairs, perhaps in another order.
        ends: expect.arrayContaining(
          t.ends.map(([first, second]: string[]) => ({ firstTypeName: first, secondTypeName: second })),
        ),
        sources: expect.arrayContaining(['CONFIGURED']),
      });
    }
    expect(fromA.organizations.map((o: Any) => ({ id: o.databaseId, name: o.name, parentId: o.parentId }))).toEqual(
      [...example.organizations].sort((x: Any, y: Any) => x.name.localeCompare(y.name)),
    );
    const byType = new Map(fromA.entityTypes.nodes.map((t: Any) => [t.name, t.workflow]));
    for (const kind of ['models', 'aisystems', 'aiagents']) {
      const stages = (byType.get(kind) as Any).stages;
      expect(stages.map((s: Any) => s.name)).toEqual([
        'Ideation',
        'Development',
        'Testing',
        'Approved',
        'Deployed',
        'Retired',
      ]);
      expect(stages.map((s: Any) => s.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(stages.map((s: Any) => s.databaseId)).toEqual(example.workflows[kind].map((s: Any) => s.id));
    }
    expect(byType.get('datasets')).toBeNull();
  });

  it('what one replica learns from an upstream answer, the other lists', async () => {
    const prefix = uniquePrefix();
    const [a, b] = await Promise.all([startReplica(prefix), startReplica(prefix)]);
    const attributes = `{ entityTypes(first: 20) { nodes { name selectAttributes { name options { option sources } } } } }`;
    const added = await a(
      'mutation { addSchemaAttribute(schemaName: "aisystems", input: { name: "Oversight", responseType: SINGLE_SELECT, options: [{ option: "Board" }, { option: "Team" }] }) { fieldName } }',
    );
    const field = added.addSchemaAttribute.fieldName as string;
    const seenBy = async (replica: typeof a) =>
      (await replica(attributes)).entityTypes.nodes
        .find((t: Any) => t.name === 'aisystems')
        .selectAttributes.find((s: Any) => s.name === field);
    expect(await seenBy(a)).toBeDefined();
    await until(async () => (await seenBy(b)) !== undefined, 'the other replica to list the new attribute');
    expect(await seenBy(b)).toEqual({
      name: field,
      options: [
        { option: 'Board', sources: ['OBSERVED'] },
        { option: 'Team', sources: ['OBSERVED'] },
      ],
    });
  });
});

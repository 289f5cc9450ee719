/**
 * /mcp across two gateway replicas (real processes, `src/server.ts`, sharing a Redis and the same
 * emulators) with no affinity: each client's requests alternate between the replicas. A 2026-07-28
 * client (SDK 2.x) and a 2025-11-25 client (SDK 1.x) each discover, list (with cache hints) and call
 * every tool, a confirmation asked by one replica is taken by the other, and a task one replica
 * created for a call the shared budget could not cover is run and answered by the other.
 */
import { startGateway } from './support/gateway-process.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { emulatorEnv } from '../src/app/embedded-emulators.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { legacyClient, modernClient, raw, type ToolClient } from './support/mcp-clients.js';
import { REDIS_URL, requireRedis, uniquePrefix } from './support/redis.js';
import { until } from './support/wait.js';

/** One gateway process; resolves with its /mcp URL once it says it is ready. */
async function replica(env: Record<string, string>): Promise<string> {
  return `${(await startGateway({ LOG_LEVEL: 'warn', ...env })).origin}/mcp`;
}

async function pair(env: Record<string, string>): Promise<string[]> {
  return Promise.all([replica(env), replica(env)]);
}

/** Every tool, in the order an agent would use them, each answered without an error. */
async function everyTool(client: ToolClient, confirmation: 'elicitation' | 'token'): Promise<string[]> {
  const called: string[] = [];
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    let res = await client.call(name, args);
    if (confirmation === 'token' && res.out?.error?.code === 'CONFIRMATION_REQUIRED')
      res = await client.call(name, { ...args, confirmation: res.out.error.confirmation });
    expect(res.isError, `${name}: ${JSON.stringify(res.out)}`).toBe(false);
    called.push(name);
    return res.out;
  };
  const model = (await ok('DescribeGovernanceModel')).data as {
    organizations: { id: string }[];
    relationshipTypes: { name: string; ends: { firstKind: string | null; secondKind: string | null }[] }[];
    entityTypes: { nodes: { kind: string; workflow: { stages: { name: string }[] } | null }[] };
  };
  const found = await ok('FindEntities', { kind: 'AI_SYSTEM', limit: 2 });
  await ok('GetEntity', { id: found.items![0]!.id });
  const created = (
    await ok('RegisterEntity', {
      kind: 'AI_SYSTEM',
      name: `Replica ${confirmation}`,
      organizationId: model.organizations[0]!.id,
    })
  ).data!.createEntity as { id: string; version: string };
  const composition = model.relationshipTypes.find((r) =>
    r.ends.some((e) => e.firstKind === 'AI_SYSTEM' && e.secondKind === 'AI_SYSTEM'),
  )!;
  await ok('LinkEntities', {
    entity1: { id: created.id },
    entity2: { id: found.items![1]!.id },
    relationshipType: composition.name,
  });
  const stage = model.entityTypes.nodes.find((t) => t.kind === 'AI_SYSTEM')!.workflow!.stages.at(-1)!.name;
  await ok('MoveEntityToStage', { id: created.id, stage });
  const entity = (await ok('GetEntity', { id: created.id })).data!.entity as {
    version: string;
    links: { nodes: { id: string; relationshipType: { id: string } }[] };
  };
  await ok('UpdateEntity', {
    id: created.id,
    name: `Replica ${confirmation}, renamed`,
    expectedVersion: entity.version,
  });
  const link = entity.links.nodes[0]!;
  await ok('UnlinkEntities', { linkId: link.id, linkTypeId: link.relationshipType.id });
  await ok('DeleteEntity', { id: created.id });
  const events = await ok('FindEvents', { limit: 1 });
  await ok('GetEvent', { id: events.items![0]!.id });
  const event = (
    await ok('CreateEvent', {
      title: `Replica event (${confirmation})`,
      startDate: '2027-05-01T10:00:00Z',
      endDate: '2027-05-01T11:00:00Z',
    })
  ).data!.createEvent as { id: string; version: string };
  await ok('UpdateEvent', { id: event.id, title: 'Replica event, moved', expectedVersion: event.version });
  await ok('DeleteEvent', { id: event.id });
  await ok('AccountBudget');
  return [...new Set(called)].sort();
}

describe('MCP across two replicas sharing Redis, without affinity', () => {
  let urls: string[];
  let short: string[];
  let ok = false;
  beforeAll(async () => {
    ok = await requireRedis();
    if (!ok) return;
    const [governance, calendar] = await Promise.all([startGovernanceEmulator(), startCalendarEmulator()]);
    const common = {
      ...emulatorEnv(governance, calendar),
      REDIS_URL,
      MCP_MUTATIONS: 'true',
      MCP_STATE_KEY: 'the-key-every-replica-of-this-test-shares',
    };
    // The second pair's budget is short: 5 calls in 5 s, and a call may wait 100 ms for one.
    [urls, short] = await Promise.all([
      pair({ ...common, REDIS_KEY_PREFIX: uniquePrefix() }),
      pair({
        ...common,
        REDIS_KEY_PREFIX: uniquePrefix(),
        GOVERNANCE_RATE_LIMITS: 'minute:0,hour:0,5/5s',
        GOVERNANCE_RATE_MARGIN: '1',
        UPSTREAM_QUEUE_DEADLINE_MS: '100',
      }),
    ]);
  });

  it('both client generations discover, list with cache hints and call every tool through both replicas', async () => {
    if (!ok) return;
    const lists = await Promise.all(urls.map(async (u) => (await raw(u, 'tools/list')).body.result!));
    for (const l of lists) expect(l).toMatchObject({ ttlMs: 300_000, cacheScope: 'private' });
    expect(lists[1]).toEqual(lists[0]);
    const discovered = (await raw(urls[1]!, 'server/discover')).body.result!;
    expect(discovered).toMatchObject({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
      cacheScope: 'public',
    });
    const asked: string[] = [];
    const modern = await modernClient(urls, { confirm: (message) => (asked.push(message), true) });
    expect(modern.client.getProtocolEra()).toBe('modern');
    const legacy = await legacyClient(urls);
    const names = (lists[0]!.tools as { name: string }[]).map((t) => t.name).sort();
    expect(await everyTool(modern, 'elicitation')).toEqual(names);
    expect(asked).toHaveLength(3); // the two deletes and the unlink, each asked once
    expect(await everyTool(legacy, 'token')).toEqual(names);
    await Promise.all([modern.close(), legacy.close()]);
  });

  it('a task one replica created is run and answered by the other once the shared budget frees', async () => {
    if (!ok) return;
    const [a, b] = short as [string, string];
    let task: Record<string, unknown> | undefined;
    for (let i = 0; i < 12 && !task; i++) {
      const res = (await raw(a, 'tools/call', { name: 'FindEntities', arguments: { limit: 1, search: `q${i}` } })).body
        .result!;
      if (res.resultType === 'task') task = res;
    }
    expect(task).toMatchObject({ status: 'working' });
    const taskId = task!.taskId as string;
    expect((await raw(b, 'tasks/get', { taskId })).body.result).toMatchObject({ status: 'working' });
    let done: Record<string, unknown> | undefined;
    await until(
      async () => {
        const got = (await raw(b, 'tasks/get', { taskId })).body.result!;
        if (got.status === 'completed') done = got;
        return done !== undefined;
      },
      'the task to complete',
      { timeout: 30_000, interval: Number(task!.pollIntervalMs) },
    );
    const result = done!.result as { structuredContent: { items: unknown[]; cost: { calls: Record<string, number> } } };
    expect(Array.isArray(result.structuredContent.items)).toBe(true);
    expect(result.structuredContent.cost.calls.governance).toBeGreaterThan(0);
    expect((await raw(a, 'tasks/get', { taskId })).body.result).toMatchObject({ status: 'completed' });
  });
});

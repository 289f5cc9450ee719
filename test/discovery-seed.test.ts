/**
 * Discovery's reads at start (`GovernanceService.seedDiscovery`, which `server.ts` runs) on a tenant
 * without GOVERNANCE_DISCOVERY_FILE: one page of each kind teaches the stages records are in and the
 * organizations that own them, so a stage filter on a fresh replica answers instead of "not a known
 * workflow stage"; a stage filter sent before the reads are in waits for them. With forwarded
 * credentials nothing is read.
 */
import { describe, expect, it } from 'vitest';
import { countRequests, startStack } from './support/stack.js';

const STAGE = '{ entities(kind: MODEL, stage: "Development", first: 3) { nodes { workflowStage { name } } } }';
const ORGANIZATIONS = '{ organizations { id name sources } }';
const noFile = { GOVERNANCE_DISCOVERY_FILE: '' };

describe('discovery at start, without the tenant file', () => {
  it('knows only the documented stage until then', async () => {
    const stack = await startStack({ env: noFile });
    const res = await stack.query(STAGE);
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.errors?.[0]?.message).toBe(
      '"Development" is not a known workflow stage of Model records; known stages: "Ideation".',
    );
  });

  it('reads one page of each kind, and a stage filter sent meanwhile waits for it and answers', async () => {
    const stack = await startStack({ env: noFile });
    stack.clearRequests();
    const seeded = stack.gateway.governance.seedDiscovery();
    const res = await stack.query<{ entities: { nodes: { workflowStage: { name: string } }[] } }>(STAGE);
    await seeded;
    expect(res.errors).toBeUndefined();
    expect(res.data!.entities.nodes.length).toBeGreaterThan(0);
    for (const n of res.data!.entities.nodes) expect(n.workflowStage.name).toBe('Development');
    // Sent with the seed's own request id: one first page of 50 per kind.
    const seedReads = stack.governance.control.requests().requests.filter((r) => r.requestId === 'discovery-seed');
    expect(seedReads.map((r) => r.route)).toEqual(Array(4).fill('POST /entities/search'));
    expect(new Set(seedReads.map((r) => new URLSearchParams(r.query).get('entityTypeName')))).toEqual(
      new Set(['models', 'datasets', 'aisystems', 'aiagents']),
    );
    for (const r of seedReads) expect(new URLSearchParams(r.query).get('size')).toBe('50');

    const orgs = await stack.query<{ organizations: { id: string; name: string | null; sources: string[] }[] }>(
      ORGANIZATIONS,
    );
    expect(orgs.data!.organizations.length).toBeGreaterThan(0);
    // The API names no organization: seen as owners only.
    for (const o of orgs.data!.organizations) expect(o).toMatchObject({ name: null, sources: ['OBSERVED'] });
  });

  it('reads nothing with forwarded credentials (no caller teaches discovery), nor with the tenant file', async () => {
    for (const env of [{ ...noFile, GOVERNANCE_AUTH_MODE: 'forward' }, {}]) {
      const stack = await startStack({ env });
      stack.clearRequests();
      await stack.gateway.governance.seedDiscovery();
      expect(countRequests(stack.governance)).toBe(0);
    }
  });
});

/**
 * A changed upstream shape is caught at the client edge (src/core/contract.ts): the emulators' drop-field
 * fault removes a field the gateway relies on, and the affected GraphQL field fails with
 * UPSTREAM_CONTRACT naming that field, while the rest of the operation's data is kept.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support/stack.js';

type Json = Record<string, any>;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ env: { CACHE_TTL_MS: '0', UPSTREAM_RETRIES: '0' } });
});
afterAll(() => stack.close());
beforeEach(() => {
  stack.governance.control.clearFaults();
  stack.calendar.control.clearFaults();
});

describe('UPSTREAM_CONTRACT', () => {
  it('a governance record without its name fails that field, names `name`, and keeps the rest', async () => {
    const id = (await stack.query<Json>('{ entities(first: 1) { nodes { id } } }')).data!.entities.nodes[0].id;
    stack.governance.control.setFaults([
      { kind: 'drop-field', field: 'name', method: 'GET', pathPrefix: '/entities/' },
    ]);
    const res = await stack.query<Json>(
      `query($id: ID!) { entity(id: $id) { id name } events(first: 2) { nodes { id title } } }`,
      { id },
    );
    expect(res.errors).toHaveLength(1);
    expect(res.errors![0]).toMatchObject({
      path: ['entity'],
      extensions: { code: 'UPSTREAM_CONTRACT', upstream: 'governance', field: 'name' },
    });
    expect(res.errors![0]!.message).toContain('`name`');
    expect(res.data!.entity).toBeNull();
    expect(res.data!.events.nodes).toHaveLength(2);
    expect(stack.governance.control.requests().requests.some((r) => r.fault === 'drop-field')).toBe(true);
  });

  it('a page with one record missing a nested field names its path within the page', async () => {
    stack.governance.control.setFaults([
      { kind: 'drop-field', field: 'entityType.name', method: 'POST', pathPrefix: '/entities/search' },
    ]);
    const res = await stack.query<Json>(
      '{ entities(first: 3) { nodes { id kind } } event: events(first: 1) { totalCount } }',
    );
    expect(res.errors?.[0]).toMatchObject({
      path: ['entities'],
      extensions: { code: 'UPSTREAM_CONTRACT', field: 'content.0.entityType.name' },
    });
    expect(res.data!.event.totalCount).toBeGreaterThan(0);
  });

  it('a calendar event without its title fails the events list, names the field, and keeps the governance part', async () => {
    stack.calendar.control.setFaults([{ kind: 'drop-field', field: 'title', method: 'GET', pathPrefix: '/events' }]);
    const res = await stack.query<Json>(
      '{ events(first: 3) { nodes { id title } } entityTypes(first: 1) { totalCount } }',
    );
    expect(res.errors?.[0]).toMatchObject({
      path: ['events'],
      extensions: { code: 'UPSTREAM_CONTRACT', upstream: 'calendar', field: 'events.0.title' },
    });
    expect(res.data!.entityTypes.totalCount).toBeGreaterThan(0);
  });

  it('without the fault the same operations answer in full', async () => {
    const res = await stack.query<Json>(
      '{ entities(first: 3) { nodes { id name kind } } events(first: 3) { nodes { id title } } }',
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.entities.nodes).toHaveLength(3);
    expect(res.data!.events.nodes).toHaveLength(3);
  });
});

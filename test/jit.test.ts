/**
 * Compiled execution (src/http/plugins/use-jit.ts) answers exactly as graphql-js does:
 * a document runs on graphql-js the first time and compiled from the second, so each operation is
 * sent three times and the answers compared, for ordinary reads, for fields that fail upstream
 * (nulls in place, errors with their codes and paths) and for variables of the wrong type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operation } from './support/operations.js';
import { startStack, type GraphQLResponse, type Stack } from './support/stack.js';

let s: Stack;
beforeAll(async () => {
  // Production settings: their plugins (hidden suggestions, masking) see the compiled answers too.
  s = await startStack({ env: { NODE_ENV: 'production', AUTH_ANONYMOUS: '*' } });
});
afterAll(() => s.close());

/** The answer without the per-request cost report (calls and cache hits differ between runs). */
function answer(res: GraphQLResponse): unknown {
  const { cost: _cost, ...extensions } = res.extensions ?? {};
  return { status: res.status, data: res.data, errors: res.errors, extensions };
}

/**
 * Key order is not compared: graphql-js (through Yoga's executor) already orders an object's keys
 * by when its fields resolved, so that order was never stable; graphql-jit follows the selection.
 */
async function sameThrice(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse> {
  const first = await s.query(query, variables);
  for (let i = 0; i < 2; i++) {
    const again = await s.query(query, variables);
    expect(answer(again)).toEqual(answer(first));
  }
  return first;
}

describe('compiled execution answers as graphql-js does', () => {
  it.each([
    ['UpcomingEvents', { first: 5 }],
    ['EventGraph', { first: 5 }],
    ['FilteredEvents', { text: 'a' }],
    ['Venues', { text: 'Hall' }],
    ['Organizers', undefined],
    ['Categories', undefined],
    ['Tags', undefined],
    ['EntitiesOfKind', { first: 5 }],
    ['EntitySearch', { text: 'a' }],
    ['EntityGraph', { first: 5 }],
    ['EntitySummaries', { text: 'a' }],
    ['EntityTypes', undefined],
  ])('%s', async (name, variables) => {
    const res = await sameThrice(operation(name), variables);
    expect(res.errors).toBeUndefined();
  });
});

describe('compiled execution on the error paths', () => {
  it('a field whose upstream fails is null in place, with the same error, code, path and location', async () => {
    s.governance.control.setFaults([{ kind: 'status', status: 500, pathPrefix: '/entities/search' }]);
    try {
      const query = `query Mixed { entities(first: 2) { nodes { id } } events(first: 2) { nodes { id } } }`;
      const res = await sameThrice(query);
      expect(res.data).toMatchObject({ entities: null, events: { nodes: [{}, {}] } });
      expect(res.errors?.[0]).toMatchObject({
        path: ['entities'],
        locations: [{ line: 1, column: 15 }],
        extensions: { code: expect.any(String) },
      });
    } finally {
      s.governance.control.clearFaults();
    }
  });

  it('a variable of the wrong type is BAD_USER_INPUT with its location every time', async () => {
    const res = await sameThrice(operation('EntitiesOfKind'), { first: 'ten' });
    expect(res.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, locations: [expect.anything()] });
  });

  it('a bad argument raised by a resolver keeps its code and location', async () => {
    const res = await sameThrice(operation('Venues'), { text: '' });
    expect(res.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, locations: [expect.anything()] });
  });
});

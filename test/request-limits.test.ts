/**
 * Cheap refusals over real HTTP: a body over the limit (1 MB by default) is answered 413 from its
 * Content-Length, before it is read or parsed, and a chunked one as soon as it passes the limit; past a validation limit validation stops, so 50
 * unknown directives give one error; a response keeps a bounded number of errors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support/stack.js';

let s: Stack;
let url: string;
beforeAll(async () => {
  s = await startStack({ configure: (c) => ({ ...c, security: { ...c.security, maxErrors: 5, maxAliases: 100 } }) });
  url = await s.listen();
});

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body,
  });

describe('request limits', () => {
  it('answers a 5 MB body 413 without parsing it, and a body under the limit normally', async () => {
    const big = await post(
      JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(5 * 1024 * 1024) } }),
    );
    expect(big.status).toBe(413);
    expect(((await big.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe(
      'REQUEST_ENTITY_TOO_LARGE',
    );
    const small = await post(JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(900_000) } }));
    expect(small.status).toBe(200);
    expect(s.governance.control.requests().total + s.calendar.control.requests().total).toBe(0);
  });

  it('counts a chunked body (no Content-Length) as it is read: 413 past the limit, answered under it', async () => {
    const chunked = (bytes: number) => {
      const text = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(bytes) } });
      const data = new TextEncoder().encode(text);
      return fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        // A stream body goes out chunked, without a Content-Length.
        body: new ReadableStream({
          start(controller) {
            for (let at = 0; at < data.length; at += 64 * 1024) controller.enqueue(data.subarray(at, at + 64 * 1024));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    };
    const big = await chunked(2 * 1024 * 1024);
    expect(big.status).toBe(413);
    // The rest of that body was not read, so that connection is closed rather than reused.
    expect(big.headers.get('connection')).toBe('close');
    expect(((await big.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe(
      'REQUEST_ENTITY_TOO_LARGE',
    );
    const small = await chunked(200_000);
    expect(small.status).toBe(200);
    expect(await small.json()).toMatchObject({ data: { __typename: 'Query' } });
  });

  it('does not take a Content-Length for the bound when a Transfer-Encoding comes with it', async () => {
    // Node's own parser refuses this pair; a lenient one (or another adapter) would pass it on.
    const body = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(2 * 1024 * 1024) } });
    const res = await s.gateway.yoga.fetch('http://gateway/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        'content-length': '10',
        'transfer-encoding': 'chunked',
      },
      body,
    });
    expect(res.status).toBe(413);
  });

  it('gives one error for 50 unknown directives', async () => {
    const dirs = Array.from({ length: 50 }, (_, i) => `@unknown${i}`).join(' ');
    const res = await post(JSON.stringify({ query: `{ __typename ${dirs} }` }));
    const body = (await res.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(res.status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxDirectives' });
  });

  it('keeps at most security.maxErrors errors, the last one counting the rest', async () => {
    const fields = Array.from({ length: 30 }, (_, i) => `e${i}: event(id: "bad${i}") { id }`).join(' ');
    const res = await post(JSON.stringify({ query: `{ ${fields} }` }));
    const body = (await res.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors).toHaveLength(5);
    expect(body.errors.slice(0, 4).every((e) => e.extensions.code === 'BAD_USER_INPUT')).toBe(true);
    expect(body.errors[4]!.extensions).toEqual({ code: 'TOO_MANY_ERRORS', omitted: 26 });
  });
});

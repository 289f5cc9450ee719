/**
 * What the client-library tests (test/clients-*.test.ts) share: a production-profile gateway on a
 * real port with a development issuer's bearer tokens, the schema as a frontend build reads it
 * (`schema.graphql`, since production serves no introspection), and a record of everything a
 * client library prints while a test file runs.
 */
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import {
  buildSchema,
  introspectionFromSchema,
  isAbstractType,
  isObjectType,
  print,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { afterAll, expect, vi } from 'vitest';
import { DEV_AUDIENCE, DevIssuer } from '../../src/identity/dev-issuer.js';
import { startStack, type Stack } from './stack.js';

export interface ClientGateway {
  stack: Stack;
  /** `http://127.0.0.1:PORT/graphql` */
  url: string;
  /** A bearer token of a sample caller (reader, editor, admin, agent). */
  token(caller: string): Promise<string>;
}

/** One gateway for a test file, in the production profile (CSRF prevention on, no introspection). */
export async function startClientGateway(env: Record<string, string> = {}): Promise<ClientGateway> {
  const issuer = await DevIssuer.start();
  afterAll(() => issuer.close());
  const stack = await startStack({
    env: { NODE_ENV: 'production', AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`, ...env },
    gateway: { audit: { sink: () => {} } },
  });
  return { stack, url: await stack.listen(), token: (caller) => issuer.tokenFor(caller) };
}

/** The gateway's answer to a plain POST, as no client library has seen it. */
export async function rawAnswer(
  url: string,
  authorization: string,
  document: DocumentNode | string,
  variables: Record<string, unknown>,
): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ query: typeof document === 'string' ? document : print(document), variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** `value` without the `__typename` fields a cache adds to every selection. */
export function withoutTypename(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTypename);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '__typename')
      .map(([key, v]) => [key, withoutTypename(v)]),
  );
}

export const clientSchema: GraphQLSchema = buildSchema(
  readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'),
);

export const clientIntrospection = introspectionFromSchema(clientSchema);

/** Object types without an `id` field: values a normalized cache embeds in the record holding them. */
export const valueTypes: string[] = Object.values(clientSchema.getTypeMap())
  .filter((t) => isObjectType(t) && !t.name.startsWith('__') && !('id' in t.getFields()))
  .map((t) => t.name)
  .filter((name) => ![clientSchema.getQueryType()?.name, clientSchema.getMutationType()?.name].includes(name));

/** Each interface and union of the schema with the object types it may be (Apollo's `possibleTypes`). */
export const possibleTypes: Record<string, string[]> = Object.fromEntries(
  Object.values(clientSchema.getTypeMap())
    .filter(isAbstractType)
    .map((t) => [t.name, clientSchema.getPossibleTypes(t).map((o) => o.name)]),
);

/**
 * Everything written to `console.warn`, `console.error` and `console.log` from now until the file
 * ends (where the libraries put their development warnings), still printed. `lines` also takes what
 * a library hands a logger of its own.
 */
export function recordConsole(): { lines: string[] } {
  const lines: string[] = [];
  for (const method of ['warn', 'error', 'log'] as const) {
    const original = console[method].bind(console);
    const spy = vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
      original(...args);
    });
    afterAll(() => spy.mockRestore());
  }
  return { lines };
}

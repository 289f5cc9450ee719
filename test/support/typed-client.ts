/**
 * A typed GraphQL client for tests over the codegen output (src/generated/): the result and
 * variables types come from the document, so a schema change that breaks an example operation
 * fails the typecheck as well as the test. Sends the text, or only the persisted `documentId`.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';

export interface TypedResult<T> {
  status: number;
  data?: T | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

type Fetch = (url: string, init: RequestInit) => Promise<Response> | Response;

export function typedClient(url: string, fetchFn: Fetch = fetch) {
  return async function execute<T, V>(
    document: TypedDocumentNode<T, V>,
    variables: V,
    how: 'text' | 'persisted' = 'text',
  ): Promise<TypedResult<T>> {
    const hash = (document as { __meta__?: { hash?: string } }).__meta__?.hash;
    if (how === 'persisted' && !hash) throw new Error('document has no persisted hash: run `npm run codegen`');
    const body = how === 'persisted' ? { documentId: hash, variables } : { query: print(document), variables };
    const res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, ...((await res.json()) as Omit<TypedResult<T>, 'status'>) };
  };
}

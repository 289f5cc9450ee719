/**
 * Persisted operations (PERSISTED_OPERATIONS): the safelist is `src/generated/persisted-documents.json`,
 * which `npm run codegen` writes from the example operations in src/operations/ (sha256 of each
 * document → its text). Clients send the hash as `documentId` (graphql-codegen's client preset and
 * the GraphQL-over-HTTP persisted documents draft) or as Apollo's
 * `extensions.persistedQuery.sha256Hash`. In `only` mode anything else is refused before parsing,
 * except from the federation router (its secret header), whose query plans are text by nature;
 * in `allow` mode full query text is accepted too. Yoga's persisted-operations plugin does the work.
 * In `off` mode a request naming a persisted operation is told which setting turns them on.
 */
import { readFileSync } from 'node:fs';
import { usePersistedOperations, type UsePersistedOperationsOptions } from '@graphql-yoga/plugin-persisted-operations';
import { createGraphQLError, type GraphQLParams, type Plugin } from 'graphql-yoga';
import { fromRouter } from './plugins/use-federation-guard.js';
import { ownJson } from '../core/records.js';

export type Safelist = ReadonlyMap<string, string>;

const SAFELIST_FILE = new URL('../generated/persisted-documents.json', import.meta.url);
const SHA256 = /^[0-9a-f]{64}$/;

let safelist: Safelist | undefined;

/** The safelist, read and parsed once per process: a build artifact, it does not change while running. */
export function loadSafelist(): Safelist {
  return (safelist ??= new Map(Object.entries(ownJson<Record<string, string>>(readFileSync(SAFELIST_FILE, 'utf8')))));
}

/** `documentId` from the body (POST) or the URL (GET), else Apollo's persisted-query extension. */
function operationId(params: GraphQLParams, request: Request): string | null {
  const fromBody = (params as { documentId?: unknown }).documentId;
  const fromUrl = request.method === 'GET' ? new URL(request.url).searchParams.get('documentId') : null;
  const apq = (params.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined)?.sha256Hash;
  const id = [fromBody, fromUrl, apq].find((v) => typeof v === 'string');
  // A `sha256:` prefix (the draft's documentId form) names the same hash.
  return typeof id === 'string' ? id.replace(/^sha256:/, '') : null;
}

const refusal = (message: string, code: string) => () =>
  createGraphQLError(message, { extensions: { code, http: { status: 400 } } });

/**
 * PERSISTED_OPERATIONS=off: a `documentId`, or an Apollo persisted-query hash without the query's
 * text, is refused with the setting that turns persisted operations on (Yoga alone answers
 * `Unexpected parameter "documentId"`, or that a query is missing). The code is Apollo's, whose
 * clients then send the text instead.
 */
export function usePersistedOff(): Plugin<Record<string, unknown>> {
  const refuse = refusal(
    'Persisted operations are off on this gateway (PERSISTED_OPERATIONS=off): send the operation\'s text as "query", or set PERSISTED_OPERATIONS=allow (hashes or text) or only (safelisted hashes only).',
    'PERSISTED_QUERY_NOT_SUPPORTED',
  );
  return {
    onParams({ params, request }) {
      const fromUrl = request.method === 'GET' ? new URL(request.url).searchParams.get('documentId') : null;
      const documentId = (params as { documentId?: unknown }).documentId ?? fromUrl;
      if (documentId != null || (params.query == null && operationId(params, request) !== null)) throw refuse();
    },
  };
}

export function usePersistedSafelist(
  mode: 'allow' | 'only',
  safelist: Safelist = loadSafelist(),
  /** The federation router (its secret header): its query plans are text, never in a safelist. */
  router?: { secret?: string; header: string },
): Plugin<Record<string, unknown>> {
  const isRouter = router?.secret ? fromRouter(router) : undefined;
  const options: UsePersistedOperationsOptions = {
    allowArbitraryOperations: mode === 'allow' ? true : isRouter ? (request) => isRouter(request) : false,
    extractPersistedOperationId: operationId,
    getPersistedOperation: (id) => (SHA256.test(id) ? (safelist.get(id) ?? null) : null),
    customErrors: {
      persistedQueryOnly: refusal(
        'This gateway runs persisted operations only: send the operation\'s sha256 as "documentId" instead of "query" (see src/generated/persisted-documents.json).',
        'PERSISTED_QUERY_ONLY',
      ),
      notFound: refusal(
        'Unknown persisted operation: this "documentId" is not in the gateway\'s safelist.',
        'PERSISTED_QUERY_NOT_FOUND',
      ),
      keyNotFound: refusal(
        'Send a persisted operation\'s "documentId" (or, where allowed, a "query").',
        'PERSISTED_QUERY_ID_REQUIRED',
      ),
    },
  };
  return usePersistedOperations(options);
}

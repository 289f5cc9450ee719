/**
 * How the governance client reads error answers the emulator does not produce on its own: details
 * carrying URLs or tokens, bare string bodies, 404s, HTTP-date Retry-After values.
 */
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../src/core/http.js';
import { isNotFound, statusError } from '../src/governance/errors.js';

const res = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  body,
  headers,
  bytes: 0,
});
const envelope = (code: string, detail: string) => ({
  errors: [{ code, title: 'Bad Request', detail }],
  traceId: '5b0c0a43-8c1e-4a55-9b7e-0d3c5b0f1a2b',
});

describe('governance error answers', () => {
  it('a 400 keeps the detail but strips URLs and tokens from it', () => {
    const e = statusError(
      res(
        400,
        envelope(
          'INVALID_REQUEST',
          'size must be at most 50, see https://tenant.example/api/docs Bearer eyJhbGciOiJSUzI1NiJ9.abc.def',
        ),
      ),
      'read',
      'entities.search',
    );
    expect(e).toMatchObject({ kind: 'bad-request', status: 400, upstreamCode: 'INVALID_REQUEST' });
    expect(e.message).toContain('size must be at most 50');
    expect(e.message).not.toMatch(/https?:|eyJ|tenant\.example/);
  });

  it('accepts a bare string body and an empty one', () => {
    expect(statusError(res(400, 'Request could not be parsed'), 'write', 'entities.create').message).toBe(
      'The governance service rejected the request: Request could not be parsed',
    );
    expect(statusError(res(400, undefined), 'write', 'entities.create').message).toBe(
      'The governance service rejected the request.',
    );
  });

  it('recognises not-found as the code in a 400 or as a 404, and nothing else', () => {
    expect(isNotFound(res(400, envelope('ERROR_ONETRUST_ENTITY_NOT_FOUND', 'Entity:x of type:models not found')))).toBe(
      true,
    );
    expect(isNotFound(res(404, undefined))).toBe(true);
    expect(isNotFound(res(400, envelope('INVALID_REQUEST', 'not found in the page')))).toBe(false);
  });

  it("names the narrowest missing scope on a 403, per the contract's table", () => {
    expect(statusError(res(403, undefined), 'read', 'entities.get').missingScope).toBe('AI_GOVERNANCE_READ');
    expect(statusError(res(403, undefined), 'write', 'links.create').missingScope).toBe('AI_GOVERNANCE_WRITE');
    expect(statusError(res(403, undefined), 'links', 'links.page').message).toContain(
      'AI_GOVERNANCE_READ, AI_GOVERNANCE',
    );
    expect(statusError(res(403, undefined), 'delete', 'entities.delete').missingScope).toBe('AI_GOVERNANCE');
  });

  it('a 429 that reaches the client carries Retry-After in seconds, from seconds or an HTTP date', () => {
    expect(statusError(res(429, undefined, { 'retry-after': '55' }), 'read', 'x').retryAfter).toBe(55);
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    expect(
      statusError(res(429, undefined, { 'retry-after': inTwoMinutes }), 'read', 'x').retryAfter,
    ).toBeGreaterThanOrEqual(119);
    expect(statusError(res(429, undefined), 'read', 'x').retryAfter).toBe(1);
  });

  it('5xx and unexpected statuses are unavailable', () => {
    expect(
      statusError(res(500, envelope('ERROR_GENERIC_DATA_ACCESS', 'Invalid sort criteria')), 'read', 'x').kind,
    ).toBe('unavailable');
    expect(statusError(res(502, '<html>Bad gateway</html>'), 'read', 'x').kind).toBe('unavailable');
  });
});

/**
 * /metrics under the production profile, over real HTTP: it needs `metrics:read` (an API key's, or a
 * token's claims), a valid credential without it is 403 and none is 401; the per-caller label never
 * names a caller's raw identity.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { startStack } from './support/stack.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let issuer: DevIssuer;
let url: string;
let metrics: string;

beforeAll(async () => {
  issuer = await DevIssuer.start();
  const stack = await startStack({
    env: {
      AUTH_ANONYMOUS: 'none',
      AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
      AUTH_API_KEYS: `prometheus|${sha256('scrape-key')}|metrics:read,reader|${sha256('reader-key')}|governance:read`,
    },
    // As in production: /metrics needs a credential.
    configure: (c) => ({ ...c, auth: { ...c.auth, metricsNeedCredentials: true } }),
  });
  url = await stack.listen();
  metrics = url.replace(/\/graphql$/, '/metrics');
});

afterAll(() => issuer?.close());

describe('/metrics needs metrics:read', () => {
  it('answers the scrape key, 403 to credentials without the permission, 401 to none', async () => {
    expect((await fetch(metrics, { headers: bearer('scrape-key') })).status).toBe(200);
    const reader = await fetch(metrics, { headers: bearer('reader-key') });
    expect(reader.status).toBe(403);
    expect(await reader.json()).toMatchObject({
      errors: [{ extensions: { code: 'FORBIDDEN', permission: 'metrics:read' } }],
    });
    const token = await issuer.sign({ sub: 'nobody-in-particular', scope: '' });
    expect((await fetch(metrics, { headers: bearer(token) })).status).toBe(403);
    const scoped = await issuer.sign({ sub: 'scraper', scope: 'metrics:read' });
    expect((await fetch(metrics, { headers: bearer(scoped) })).status).toBe(200);
    expect((await fetch(metrics)).status).toBe(401);
  });

  it("labels callers by a hash of their key, never the token's subject", async () => {
    const token = await issuer.sign({ sub: 'alice-the-subject', scope: 'governance:read' });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ query: '{ entities(first: 1) { nodes { id } } }' }),
    });
    expect(res.status).toBe(200);
    const text = await (await fetch(metrics, { headers: bearer('scrape-key') })).text();
    const lines = text.split('\n').filter((l) => l.startsWith('gateway_caller_budget_points{'));
    expect(lines.length).toBeGreaterThan(0);
    expect(text).not.toContain('alice-the-subject');
    expect(lines.join('\n')).toMatch(/client="[^"|]+\|[0-9a-f]{12}"/);
  });
});

/**
 * A browser app on another origin, in a real browser (Debian's Chromium driven by playwright-core)
 * against the production profile: a page served from an origin in CORS_ORIGINS queries the gateway
 * on another origin with a bearer token (POST, and GET as urql sends it, without a CSRF header),
 * reads a 401's code and its `WWW-Authenticate`, and a page from an origin not listed is refused.
 * Without Chromium the test is skipped with a message, except under CI=true, where a missing browser
 * is a failure.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_AUDIENCE, DevIssuer } from '../src/identity/dev-issuer.js';
import { startStack } from './support/stack.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const inCI = process.env.CI === 'true';
if (!haveChromium && !inCI) console.warn(`CORS browser test skipped: no Chromium at ${CHROMIUM}.`);

let browser: Browser | undefined;
const servers: Server[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await browser?.close();
  servers.forEach((s) => s.close());
  await Promise.all(closers.map((c) => c()));
});

/** A page of a browser app: an origin of its own (`http://localhost:PORT`), nothing in it. */
async function appOrigin(): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>app</p>'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://localhost:${(server.address() as AddressInfo).port}`;
}

interface Seen {
  data?: unknown;
  get?: unknown;
  status?: number;
  code?: string;
  challenge?: string | null;
  failed?: string;
}

describe('a browser app on another origin', () => {
  it('has a browser to drive (required under CI=true)', () => {
    if (inCI) expect(haveChromium, `CI=true but no Chromium at ${CHROMIUM}`).toBe(true);
  });

  it.skipIf(!haveChromium)(
    'calls with a bearer token, reads a 401, and is refused when not listed',
    { timeout: 60_000 },
    async () => {
      const issuer = await DevIssuer.start();
      closers.push(() => issuer.close());
      const [allowed, other] = await Promise.all([appOrigin(), appOrigin()]);
      const stack = await startStack({
        env: {
          NODE_ENV: 'production',
          AUTH_ANONYMOUS: 'none',
          AUTH_ISSUERS: `${issuer.issuer}|${DEV_AUDIENCE}|${issuer.jwksUrl}`,
          CORS_ORIGINS: allowed,
        },
      });
      const gateway = await stack.listen();
      const token = await issuer.tokenFor('reader');

      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const run = async (origin: string): Promise<Seen> => {
        const page = await browser!.newPage();
        await page.goto(origin);
        return page.evaluate(
          async ({ gateway, token }) => {
            const query = '{ entities(first: 2) { nodes { id } } }';
            const post = (headers: Record<string, string>) =>
              fetch(gateway, {
                method: 'POST',
                headers: { 'content-type': 'application/json', ...headers },
                body: JSON.stringify({ query }),
              });
            try {
              const data = ((await (await post({ authorization: `Bearer ${token}` })).json()) as { data?: unknown })
                .data;
              const got = await fetch(`${gateway}?query=${encodeURIComponent(query)}`, {
                headers: { authorization: `Bearer ${token}` },
              });
              const get = ((await got.json()) as { data?: unknown }).data;
              const refused = await post({});
              const body = (await refused.json()) as { errors: { extensions: { code: string } }[] };
              return {
                data,
                get,
                status: refused.status,
                code: body.errors[0]!.extensions.code,
                challenge: refused.headers.get('www-authenticate'),
              };
            } catch (e) {
              return { failed: (e as Error).name };
            }
          },
          { gateway, token },
        );
      };

      const seen = await run(allowed);
      expect(seen.failed).toBeUndefined();
      expect(seen.data).toEqual({ entities: { nodes: [expect.anything(), expect.anything()] } });
      expect(seen.get).toEqual(seen.data);
      expect(seen.status).toBe(401);
      expect(seen.code).toBe('UNAUTHENTICATED');
      expect(seen.challenge).toMatch(/^Bearer realm="gateway"/);

      // Not in CORS_ORIGINS: the preflight is refused, so the request is never sent.
      stack.clearRequests();
      expect(await run(other)).toEqual({ failed: 'TypeError' });
      expect(stack.governance.control.requests().requests).toHaveLength(0);
    },
  );
});

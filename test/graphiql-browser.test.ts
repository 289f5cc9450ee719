/**
 * GraphiQL in a real browser (Debian's Chromium driven by playwright-core): the page loads from the
 * gateway with no request to any other host, runs its default query (the headline traversal) and
 * shows the data. Without Chromium the test is skipped with a message, except under CI=true, where
 * a missing browser is a failure (`.ci/run` installs it).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startStack } from './support/stack.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const inCI = process.env.CI === 'true';
const SKIP_MESSAGE = `GraphiQL browser test skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH).`;
if (!haveChromium && !inCI) console.warn(SKIP_MESSAGE);

const SCREENSHOT = '/tmp/graphiql-browser-test.png';
let browser: Browser | undefined;
afterAll(async () => browser?.close());

describe('GraphiQL in Chromium', () => {
  it('has a browser to drive (required under CI=true)', () => {
    if (inCI) expect(haveChromium, `CI=true but no Chromium at ${CHROMIUM}`).toBe(true);
  });

  it.skipIf(!haveChromium)('loads offline, runs the default query and shows data', { timeout: 60_000 }, async () => {
    const stack = await startStack();
    const url = await stack.listen();
    const origin = new URL(url).origin;
    const expected = await stack.query<{ entities: { nodes: { name: string }[] } }>(
      '{ entities(kind: AI_SYSTEM, first: 5) { nodes { name } } }',
    );
    expect(expected.errors).toBeUndefined();
    const firstName = expected.data!.entities.nodes[0]!.name;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = await browser.newPage();
    const requested: string[] = [];
    // Record every request the page makes; anything off the gateway's origin is refused and reported.
    await page.route('**/*', (route) => {
      const target = route.request().url();
      requested.push(target);
      return target.startsWith(`${origin}/`) ? route.continue() : route.abort();
    });
    page.on('websocket', (ws) => requested.push(ws.url()));
    const consoleErrors: string[] = [];
    page.on('pageerror', (e) => consoleErrors.push(e.message));

    await page.goto(url, { waitUntil: 'load' });
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 20_000 });
    // The query editor holds the default query once GraphiQL has mounted.
    // (Monaco renders spaces as no-break spaces.)
    const editorText = async () => (await page.locator('.graphiql-query-editor').innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(editorText, { timeout: 20_000 }).toContain('query EntityGraph');

    await page.locator('.graphiql-execute-button').click();
    // Two operations in the editor: GraphiQL asks which one to run.
    const choice = page.locator('.graphiql-dropdown-item', { hasText: 'EntityGraph' });
    if (await choice.isVisible({ timeout: 3_000 }).catch(() => false)) await choice.click();

    const response = page.locator('.graphiql-response');
    const responseText = async () => (await response.innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(responseText, { timeout: 20_000 }).toContain(firstName);
    const shown = await responseText();
    expect(shown).toContain('"data"');
    expect(shown).not.toContain('"errors"');
    await page.screenshot({ path: SCREENSHOT });

    const offHost = requested.filter(
      (u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'),
    );
    expect(offHost).toEqual([]);
    expect(requested.some((u) => u.startsWith(`${origin}/graphql`))).toBe(true);
    expect(consoleErrors).toEqual([]);
  });
});

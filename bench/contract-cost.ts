/**
 * `tsx bench/contract-cost.ts`: what the client edge's payload check (src/core/contract.ts) costs, on
 * the emulators' own records: a Spring page of 50 entities and an archive page of 50 events, checked
 * against JSON.parse of the same body (the work the gateway does anyway). Prints one JSON document.
 */
import { checkPayload } from '../src/core/contract.js';
import { startGovernanceEmulator } from '../src/emulators/governance/index.js';
import { startCalendarEmulator } from '../src/emulators/calendar/index.js';
import { archivePageShape, eventShape } from '../src/calendar/wire.js';
import { entityShape, springPageShape } from '../src/governance/wire.js';

function perCallUs(fn: () => void, minMs = 1_000): number {
  for (let i = 0; i < 200; i++) fn();
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < minMs) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
  }
  return ((performance.now() - started) * 1000) / n;
}

const round = (x: number) => Math.round(x * 10) / 10;

async function main() {
  const governance = await startGovernanceEmulator({ port: 0 });
  const calendar = await startCalendarEmulator({ port: 0 });
  try {
    const token = (await (
      await fetch(governance.tokenUrl, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: 'gateway',
          client_secret: 'gateway-secret',
        }),
      })
    ).json()) as { access_token: string };
    const entitiesText = await (
      await fetch(`${governance.apiRoot}/entities/search?size=50`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ queryRequest: { criteria: {} } }),
      })
    ).text();
    const eventsText = await (await fetch(`${calendar.apiRoot}/events?per_page=50&start_date=2020-01-01`)).text();
    const pages = [
      {
        name: 'governance entities page (50)',
        text: entitiesText,
        shape: springPageShape(entityShape),
        upstream: 'governance' as const,
      },
      {
        name: 'calendar events page (50)',
        text: eventsText,
        shape: archivePageShape('events', eventShape),
        upstream: 'calendar' as const,
      },
    ];
    const out = pages.map((p) => {
      const body: unknown = JSON.parse(p.text);
      const parseUs = perCallUs(() => JSON.parse(p.text));
      const checkUs = perCallUs(() => checkPayload(p.upstream, p.shape, body, 'bench'));
      return {
        page: p.name,
        bytes: p.text.length,
        jsonParseUs: round(parseUs),
        checkUs: round(checkUs),
        checkVsParse: Math.round((checkUs / parseUs) * 100) / 100,
      };
    });
    console.log(JSON.stringify({ node: process.version, results: out }, null, 2));
  } finally {
    await governance.close();
    await calendar.close();
  }
}

await main();

/**
 * Grows the emulators' seed data through their own REST APIs until the fan-out lists are as long as
 * the workload asks (the seed has ~200 live AI entities and ~70 upcoming events; `entities(first: 500)`
 * should span ten upstream pages). New datasets carry no links and new events sit after the seeded
 * ones, so workloads 1 and 2 read the same records as on the plain seed.
 */
import type { SpringPage, TokenResponse } from '../src/governance/wire.js';
import type { WireEventsPage } from '../src/calendar/wire.js';
import type { Upstreams } from './upstreams.js';

const BATCH = 25;

async function inBatches(count: number, make: (i: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => make(start + k)));
  }
}

async function ok(res: Response, what: string): Promise<void> {
  if (!res.ok) throw new Error(`top-up: ${what} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  await res.arrayBuffer();
}

export async function topUpEntities(up: Upstreams, atLeast: number): Promise<number> {
  const form = new FormData();
  form.set('grant_type', 'client_credentials');
  form.set('client_id', up.access.clientId);
  form.set('client_secret', up.access.clientSecret);
  const token = (await (await fetch(up.access.tokenUrl, { method: 'POST', body: form })).json()) as TokenResponse;
  const headers = { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
  const page = (await (
    await fetch(`${up.access.apiRoot}/entities/search?size=1`, { method: 'POST', headers, body: '{}' })
  ).json()) as SpringPage<unknown>;
  const missing = Math.max(0, atLeast - page.totalElements);
  await inBatches(missing, async (i) => {
    const body = {
      name: `Bench dataset ${String(i + 1).padStart(4, '0')}`,
      organization: { id: token.orgGroupGuid },
      attributes: {},
    };
    await ok(
      await fetch(`${up.access.apiRoot}/entities?entityTypeName=datasets`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      }),
      'POST /entities',
    );
  });
  return page.totalElements + missing;
}

export async function topUpEvents(up: Upstreams, atLeast: number): Promise<number> {
  const root = up.calendar.apiRoot;
  const user = up.calendar.users.editor;
  const auth = `Basic ${Buffer.from(`${user.username}:${user.appPassword}`).toString('base64')}`;
  const page = (await (await fetch(`${root}/events?per_page=1`)).json()) as WireEventsPage;
  const missing = Math.max(0, atLeast - page.total);
  // 13 to 23 months ahead: after the seeded events, inside the default listing window (24 months).
  const day = (i: number) => new Date(Date.now() + (395 + (i % 300)) * 86_400_000).toISOString().slice(0, 10);
  await inBatches(missing, async (i) => {
    const body = {
      title: `Bench event ${i + 1}`,
      start_date: `${day(i)} 18:00:00`,
      end_date: `${day(i)} 20:00:00`,
      status: 'publish',
    };
    await ok(
      await fetch(`${root}/events`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      'POST /events',
    );
  });
  return page.total + missing;
}

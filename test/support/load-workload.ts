/**
 * The load workload and its audit. Reads spread over many distinct lists and records (so the
 * response cache fills to its cap and evicts); writes create records with unique names. The audit
 * goes to the emulators directly, never through the gateway: every acknowledged write must exist
 * with the name sent, and the emulators must have applied exactly as many creates as were
 * acknowledged (none lost, none applied twice).
 */
import type { CalendarEmulator } from '../../src/emulators/calendar/index.js';
import type { GovernanceEmulator } from '../../src/emulators/governance/index.js';
import type { Ack, Operation } from './load-driver.js';

export interface Emulators {
  governance: GovernanceEmulator;
  calendar: CalendarEmulator;
}

interface Created {
  /** The upstream's id (`id` is the gateway's global one): what the audit looks up at the emulator. */
  databaseId: string | number;
  name: string;
}

async function gql<T>(url: string, query: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(`workload set-up query failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}

export async function buildWorkload(url: string, runId: string): Promise<Operation[]> {
  const seed = await gql<{
    entities: { nodes: { id: string; organizationId: string }[] };
    events: { nodes: { id: string }[] };
  }>(url, '{ entities(first: 50) { nodes { id organizationId } } events(first: 50) { nodes { id } } }');
  const organizationId = seed.entities.nodes[0]!.organizationId;
  const entityIds = seed.entities.nodes.map((e) => e.id);
  // Some seed events are password protected (FORBIDDEN without the password): leave them out.
  const eventIds: string[] = [];
  for (const { id } of seed.events.nodes) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ event(id: "${id}") { id } }` }),
    });
    if (!((await res.json()) as { errors?: unknown[] }).errors) eventIds.push(id);
  }
  const created = (key: string) => (data: Record<string, unknown>) => {
    const record = data[key] as Created | null | undefined;
    return record ? { id: String(record.databaseId), name: record.name } : undefined;
  };
  return [
    {
      name: 'EntitiesOfKind',
      kind: 'read',
      weight: 3,
      query: 'query ($first: Int!) { entities(kind: MODEL, first: $first) { totalCount nodes { id name kind } } }',
      variables: (n) => ({ first: 1 + (n % 40) }),
    },
    {
      name: 'EntityById',
      kind: 'read',
      weight: 3,
      query: 'query ($id: ID!) { entity(id: $id) { id name kind type { name } attributes { name values { value } } } }',
      variables: (n) => ({ id: entityIds[n % entityIds.length] }),
    },
    {
      name: 'UpcomingEvents',
      kind: 'read',
      weight: 3,
      query:
        'query ($first: Int!) { events(first: $first) { totalCount nodes { id title startDate venue { name } } } }',
      variables: (n) => ({ first: 1 + (n % 30) }),
    },
    {
      name: 'EventById',
      kind: 'read',
      weight: 3,
      query: 'query ($id: ID!) { event(id: $id) { id title description organizers { name } categories { name } } }',
      variables: (n) => ({ id: eventIds[n % eventIds.length] }),
    },
    {
      name: 'CreateDataset',
      kind: 'write',
      weight: 1,
      query: `mutation ($name: String!) { createEntity(input: { kind: DATASET, name: $name, organizationId: "${organizationId}" }) { databaseId name } }`,
      variables: (n) => ({ name: `load-${runId}-dataset-${n}` }),
      ack: created('createEntity'),
    },
    {
      name: 'CreateTag',
      kind: 'write',
      weight: 1,
      query: 'mutation ($name: String!) { createTag(input: { name: $name }) { databaseId name } }',
      variables: (n) => ({ name: `load-${runId}-tag-${n}` }),
      ack: created('createTag'),
    },
  ];
}

export interface Audit {
  acknowledged: Record<string, number>;
  /** Creates the emulators answered with a 2xx. */
  applied: Record<string, number>;
  missing: string[];
  wrongName: string[];
  duplicateIds: string[];
}

const CREATE_ROUTES: Record<string, { emulator: keyof Emulators; route: string }> = {
  CreateDataset: { emulator: 'governance', route: 'POST /entities' },
  CreateTag: { emulator: 'calendar', route: 'POST /tags' },
};

export async function auditWrites(emulators: Emulators, acks: Ack[]): Promise<Audit> {
  const audit: Audit = { acknowledged: {}, applied: {}, missing: [], wrongName: [], duplicateIds: [] };
  // Count before auditing: the audit's own reads land in the same logs.
  for (const [operation, { emulator, route }] of Object.entries(CREATE_ROUTES)) {
    const log = emulators[emulator].control.requests().requests;
    audit.applied[operation] = log.filter((r) => r.route === route && r.status >= 200 && r.status < 300).length;
    audit.acknowledged[operation] = acks.filter((a) => a.operation === operation).length;
  }
  const seen = new Set<string>();
  for (const ack of acks) {
    const key = `${ack.operation}:${ack.id}`;
    if (seen.has(key)) audit.duplicateIds.push(key);
    seen.add(key);
  }

  const token = await governanceToken(emulators.governance);
  const fetchRecord = async (ack: Ack): Promise<Created | undefined> => {
    const res =
      ack.operation === 'CreateDataset'
        ? await fetch(`${emulators.governance.apiRoot}/entities/${ack.id}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        : await fetch(`${emulators.calendar.apiRoot}/tags/${ack.id}`);
    if (res.status !== 200) return undefined;
    return (await res.json()) as Created;
  };
  // A few at a time: the audit must not trip the emulators' own rate limits.
  for (let i = 0; i < acks.length; i += 8) {
    await Promise.all(
      acks.slice(i, i + 8).map(async (ack) => {
        const record = await fetchRecord(ack);
        if (!record) audit.missing.push(`${ack.operation}:${ack.id}`);
        else if (record.name !== ack.name)
          audit.wrongName.push(`${ack.operation}:${ack.id} is "${record.name}", sent "${ack.name}"`);
      }),
    );
  }
  return audit;
}

async function governanceToken(governance: GovernanceEmulator): Promise<string> {
  const { clientId, clientSecret } = governance.clients.full;
  const res = await fetch(governance.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

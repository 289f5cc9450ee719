/**
 * Governance refusals (400) the graph can word better than "rejected", each naming the graph argument
 * it concerns: a record the input refers to that does not exist (the platform's
 * `ERROR_ONETRUST_ENTITY_NOT_FOUND` names the id and its type, so the argument is where that id sat
 * in the request), two records already linked, a record linked to itself, an unknown attribute or
 * option, a name already taken. The other refusals are told by their detail text (the platform
 * publishes no codes for them); an unrecognised one keeps the generic message.
 */

/** What the client sent: the JSON body and the query. */
export interface SentRequest {
  json?: unknown;
  query?: Record<string, unknown>;
}

export interface Refusal {
  message: string;
  argument?: string;
}

/** Per operation: request fields (dotted, in the body, else the query) → the graph argument. */
const ARGUMENTS: Record<string, Record<string, string>> = {
  'entities.create': { 'organization.id': 'input.organizationId', attributes: 'input.attributes' },
  'entities.update': { 'organization.id': 'input.organizationId', attributes: 'input.attributes' },
  'links.create': {
    'entity1.id': 'input.entity1.id',
    'entity2.id': 'input.entity2.id',
    linkTypeId: 'input.linkTypeId',
  },
  'attributes.create': { schemaName: 'schemaName', name: 'input.name' },
  // Not `attributeId`: the attribute addressed is the record; its not-found is the mutation's NOT_FOUND.
  'attributes.addOptions': { options: 'options' },
  'workflow.moveToStage': { nextStageName: 'input.nextStageName' },
};

/** The platform's type names in a not-found, as a reader says them. */
const TYPE_WORDS: Record<string, string> = {
  Organization: 'an organization',
  EntityLinkType: 'a link type',
  EntityType: 'an entity type',
  Attribute: 'an attribute',
  Schema: 'an entity type',
};

/** Refusals told by their detail: the request field they concern and the words for them. */
const BY_DETAIL: { test: RegExp; field: string; message: string }[] = [
  { test: /already linked/i, field: 'entity2.id', message: 'The two records are already linked with this link type.' },
  { test: /linked to itself/i, field: 'entity2.id', message: 'A record cannot be linked to itself.' },
  {
    test: /does not connect/i,
    field: 'linkTypeId',
    message: 'This link type does not link records of these two kinds (see `relationshipTypes`).',
  },
  { test: /^Unknown attribute/i, field: 'attributes', message: 'The record type has no attribute of that name.' },
  {
    test: /unknown option/i,
    field: 'attributes',
    message: 'An attribute value names an option the attribute does not have.',
  },
  {
    test: /^An attribute named .* already exists/i,
    field: 'name',
    message: 'The entity type already has an attribute of that name.',
  },
  {
    test: /^Option .* already exists/i,
    field: 'options',
    message: 'The attribute already has an option of that name.',
  },
];

const NOT_FOUND = /^Entity:(\S+) of type:(\S+) not found/;

function valueAt(request: SentRequest, field: string): unknown {
  let at: unknown = request.json;
  for (const key of field.split('.'))
    at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at ?? request.query?.[field];
}

/** A refusal the graph has words for, or undefined (the generic message then stands). */
export function governanceRefusal(
  code: string | undefined,
  detail: string | undefined,
  operation: string,
  request: SentRequest,
): Refusal | undefined {
  const fields = ARGUMENTS[operation] ?? {};
  const found = detail ? NOT_FOUND.exec(detail) : null;
  if (code === 'ERROR_ONETRUST_ENTITY_NOT_FOUND' && found) {
    const field = Object.keys(fields).find((f) => valueAt(request, f) === found[1]);
    if (!field) return undefined;
    const what = TYPE_WORDS[found[2]!] ?? 'a record';
    return { message: `"${fields[field]}" names ${what} that does not exist.`, argument: fields[field] };
  }
  const known = detail ? BY_DETAIL.find((r) => r.test.test(detail) && fields[r.field]) : undefined;
  return known && { message: known.message, argument: fields[known.field] };
}

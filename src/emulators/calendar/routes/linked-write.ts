/**
 * Venue and organizer write bodies → records (create, update, and creation on the fly from an
 * event's `venue`/`organizer` data, reusing an existing record with the same name and details).
 */
import { utcWall } from '../dates.js';
import type { RouteDeps } from '../respond.js';
import { REGISTERED_STATUSES, type OrganizerRecord, type PostStatus, type VenueRecord } from '../store.js';
import { isBoolish, isDate, isPositiveInt, isUrlOrEmpty, truthy, type ArgSpecs, type Params } from '../validate.js';
import { arg } from '../validate.js';

const VENUE_FIELDS = [
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
] as const;
const ORGANIZER_FIELDS = ['phone', 'website', 'email'] as const;
const FIELDS = { venue: VENUE_FIELDS, organizer: ORGANIZER_FIELDS };
type Kind = keyof typeof FIELDS;
type Linked = VenueRecord | OrganizerRecord;

export function linkedWriteArgs(kind: Kind, creating: boolean): ArgSpecs {
  const str = (description: string) => ({ type: 'string' as const, description, default: null });
  const fields = FIELDS[kind];
  return {
    [kind]: {
      type: 'string',
      description: `The ${kind} name`,
      required: creating,
      validate: (v) => typeof v === 'string' && v.trim() !== '',
    },
    author: arg('integer', 'The author id', { validate: isPositiveInt }),
    date: arg('string', 'Publication date', { validate: isDate }),
    date_utc: arg('string', 'Publication date (UTC)', { validate: isDate }),
    description: str(`The ${kind} description`),
    status: arg('string', 'Post status', { validate: (v) => typeof v === 'string' && REGISTERED_STATUSES.includes(v) }),
    ...Object.fromEntries(
      fields.map((f) => [f, { ...str(`The ${kind} ${f}`), ...(f === 'website' ? { validate: isUrlOrEmpty } : {}) }]),
    ),
    image: str('Featured image id or URL'),
    ...(kind === 'venue'
      ? {
          show_map: { ...str('Whether to show a map'), validate: isBoolish },
          show_map_link: { ...str('Whether to show a map link'), validate: isBoolish },
        }
      : {}),
  };
}

/** Applies a venue or organizer write body (`venue`/`organizer` is the name) to the record. */
export function applyLinkedBody(deps: RouteDeps, rec: Linked, p: Params): void {
  if (typeof p[rec.kind] === 'string') rec.title = p[rec.kind] as string;
  if (typeof p.description === 'string') rec.description = p.description;
  if (typeof p.status === 'string') rec.status = p.status as PostStatus;
  if (p.author !== undefined) rec.author = Number(p.author);
  rec.modified = utcWall(deps.now());
  const fields = rec as unknown as Record<string, unknown>;
  for (const f of FIELDS[rec.kind]) if (typeof p[f] === 'string') fields[f] = p[f];
  if (rec.kind !== 'venue') return;
  if (p.show_map !== undefined && p.show_map !== null) rec.showMap = truthy(p.show_map);
  if (p.show_map_link !== undefined && p.show_map_link !== null) rec.showMapLink = truthy(p.show_map_link);
}

/** A new venue or organizer, or the existing one with the same name and the same given details. */
export function createLinked(deps: RouteDeps, kind: Kind, p: Params): Linked {
  const name = String(p[kind] ?? '');
  const fields = FIELDS[kind];
  const same = deps.store
    .posts(kind)
    .find(
      (r) =>
        r.status !== 'trash' &&
        r.title === name &&
        fields.every((f) => p[f] === undefined || p[f] === (r as unknown as Record<string, unknown>)[f]),
    );
  if (same) return same;
  const now = utcWall(deps.now());
  const rec = {
    kind,
    id: deps.store.nextPostId(),
    author: 1,
    status: 'publish',
    date: now,
    modified: now,
    title: name,
    slug: deps.store.uniqueSlug(name, (s) => deps.store.bySlug(kind, s) !== undefined),
    description: '',
    excerpt: '',
    ...Object.fromEntries(fields.map((f) => [f, ''])),
    ...(kind === 'venue' ? { showMap: true, showMapLink: true } : {}),
  } as Linked;
  applyLinkedBody(deps, rec, p);
  return deps.store.addPost(rec);
}

/**
 * Venue and organizer write bodies → records (create, update, and creation on the fly from an
 * event's `venue`/`organizer` data, reusing an existing record with the same name and details).
 */
import { utcWall } from '../dates.js';
import type { RouteDeps } from '../respond.js';
import { REGISTERED_STATUSES, type OrganizerRecord, type PostStatus, type VenueRecord } from '../store.js';
import { isBoolish, isDate, isPositiveInt, isUrlOrEmpty, truthy, type ArgSpecs, type Params } from '../validate.js';

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

export function linkedWriteArgs(kind: 'venue' | 'organizer', creating: boolean): ArgSpecs {
  const str = (description: string) => ({ type: 'string' as const, description, default: null });
  const fields = kind === 'venue' ? VENUE_FIELDS : ORGANIZER_FIELDS;
  return {
    [kind]: {
      type: 'string',
      description: `The ${kind} name`,
      required: creating,
      validate: (v) => typeof v === 'string' && v.trim() !== '',
    },
    author: { type: 'integer', description: 'The author id', validate: isPositiveInt },
    date: { type: 'string', description: 'Publication date', validate: isDate },
    date_utc: { type: 'string', description: 'Publication date (UTC)', validate: isDate },
    description: str(`The ${kind} description`),
    status: {
      type: 'string',
      description: 'Post status',
      validate: (v) => typeof v === 'string' && REGISTERED_STATUSES.includes(v),
    },
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

function applyCommon(rec: VenueRecord | OrganizerRecord, p: Params, deps: RouteDeps, nameKey: string): void {
  if (typeof p[nameKey] === 'string') rec.title = p[nameKey];
  if (typeof p.description === 'string') rec.description = p.description;
  if (typeof p.status === 'string') rec.status = p.status as PostStatus;
  if (p.author !== undefined) rec.author = Number(p.author);
  rec.modified = utcWall(deps.now());
}

export function applyVenueBody(deps: RouteDeps, v: VenueRecord, p: Params): void {
  applyCommon(v, p, deps, 'venue');
  for (const f of VENUE_FIELDS) if (typeof p[f] === 'string') v[f] = p[f];
  if (p.show_map !== undefined && p.show_map !== null) v.showMap = truthy(p.show_map);
  if (p.show_map_link !== undefined && p.show_map_link !== null) v.showMapLink = truthy(p.show_map_link);
}

export function applyOrganizerBody(deps: RouteDeps, o: OrganizerRecord, p: Params): void {
  applyCommon(o, p, deps, 'organizer');
  for (const f of ORGANIZER_FIELDS) if (typeof p[f] === 'string') o[f] = p[f];
}

const base = (deps: RouteDeps, name: string, kind: 'venue' | 'organizer') => {
  const now = utcWall(deps.now());
  return {
    id: deps.store.nextPostId(),
    author: 1,
    status: 'publish' as PostStatus,
    date: now,
    modified: now,
    title: name,
    slug: deps.store.uniqueSlug(name, (s) => deps.store.bySlug(kind, s) !== undefined),
    description: '',
    excerpt: '',
  };
};

export function createVenue(deps: RouteDeps, p: Params): VenueRecord {
  const name = String(p.venue ?? '');
  // Duplicate avoidance: same name and the same given details → reuse.
  const same = deps.store
    .venues()
    .find(
      (v) => v.status !== 'trash' && v.title === name && VENUE_FIELDS.every((f) => p[f] === undefined || p[f] === v[f]),
    );
  if (same) return same;
  const v: VenueRecord = {
    kind: 'venue',
    ...base(deps, name, 'venue'),
    address: '',
    city: '',
    country: '',
    province: '',
    state: '',
    zip: '',
    phone: '',
    website: '',
    stateprovince: '',
    showMap: true,
    showMapLink: true,
  };
  applyVenueBody(deps, v, p);
  return deps.store.addPost(v);
}

export function createOrganizer(deps: RouteDeps, p: Params): OrganizerRecord {
  const name = String(p.organizer ?? '');
  const same = deps.store
    .organizers()
    .find(
      (o) =>
        o.status !== 'trash' && o.title === name && ORGANIZER_FIELDS.every((f) => p[f] === undefined || p[f] === o[f]),
    );
  if (same) return same;
  const o: OrganizerRecord = { kind: 'organizer', ...base(deps, name, 'organizer'), phone: '', website: '', email: '' };
  applyOrganizerBody(deps, o, p);
  return deps.store.addPost(o);
}

/**
 * Calendar writes: client input → wire bodies → normalised records. `updateEvent` reads the current
 * event and sends the whole record with the changes, because the real plugin treats an omitted
 * boolean as false, an omitted status as "publish" and an omitted venue/organizer as "none".
 */
import { decodeHTML } from 'entities';
import { UpstreamError } from '../core/errors.js';
import { badInput } from '../graph/errors.js';
import type { CalendarClient, RecordRef } from './client.js';
import { writeDate } from './dates.js';
import { recordId, recordIds, termRefs } from './inputs.js';
import type { CalendarLoaders } from './loaders.js';
import type { CalendarEvent } from './model.js';
import { normalizeEvent, normalizeOrganizer, normalizeTerm, normalizeVenue, venueList } from './normalize.js';
import type { WireEvent, WireEventWrite, WireOrganizerWrite, WireVenueWrite } from './wire.js';

type Maybe<T> = T | null | undefined;

export interface VenueInput {
  name?: Maybe<string>;
  address?: Maybe<string>;
  city?: Maybe<string>;
  country?: Maybe<string>;
  province?: Maybe<string>;
  state?: Maybe<string>;
  stateProvince?: Maybe<string>;
  zip?: Maybe<string>;
  phone?: Maybe<string>;
  website?: Maybe<string>;
  description?: Maybe<string>;
  status?: Maybe<string>;
  /** The PostStatus enum's value; wins over the deprecated `status`. */
  postStatus?: Maybe<string>;
  image?: Maybe<string>;
  showMap?: Maybe<boolean>;
  showMapLink?: Maybe<boolean>;
}

export interface OrganizerInput {
  name?: Maybe<string>;
  email?: Maybe<string>;
  phone?: Maybe<string>;
  website?: Maybe<string>;
  description?: Maybe<string>;
  status?: Maybe<string>;
  postStatus?: Maybe<string>;
  image?: Maybe<string>;
}

export interface TermInput {
  name?: Maybe<string>;
  description?: Maybe<string>;
  slug?: Maybe<string>;
  parentId?: Maybe<string>;
}

export interface EventInput {
  title?: Maybe<string>;
  startDate?: Maybe<string>;
  endDate?: Maybe<string>;
  timezone?: Maybe<string>;
  allDay?: Maybe<boolean>;
  description?: Maybe<string>;
  excerpt?: Maybe<string>;
  slug?: Maybe<string>;
  status?: Maybe<string>;
  image?: Maybe<string>;
  cost?: Maybe<string>;
  website?: Maybe<string>;
  showMap?: Maybe<boolean>;
  showMapLink?: Maybe<boolean>;
  hideFromListings?: Maybe<boolean>;
  sticky?: Maybe<boolean>;
  featured?: Maybe<boolean>;
  categories?: Maybe<string[]>;
  tags?: Maybe<string[]>;
  /** `null` removes the venue on update. */
  venueId?: Maybe<string>;
  venue?: Maybe<VenueInput>;
  /** `[]` or `null` removes the organizers on update. */
  organizerIds?: Maybe<string[]>;
  /** Created and added to `organizerIds` (on update without `organizerIds`: to the current ones). */
  organizers?: Maybe<OrganizerInput[]>;
}

/** Copies the given (non-null) fields under their wire names. */
function pick<W>(input: object, names: Record<string, string>): W {
  const out: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(names)) {
    const v = (input as Record<string, unknown>)[from];
    if (v !== undefined && v !== null) out[to] = v;
  }
  return out as W;
}

const VENUE_FIELDS = {
  name: 'venue', address: 'address', city: 'city', country: 'country', province: 'province', state: 'state',
  stateProvince: 'stateprovince', zip: 'zip', phone: 'phone', website: 'website', description: 'description',
  status: 'status', image: 'image', showMap: 'show_map', showMapLink: 'show_map_link',
};
const ORGANIZER_FIELDS = { name: 'organizer', email: 'email', phone: 'phone', website: 'website', description: 'description', status: 'status', image: 'image' };
const EVENT_FIELDS = {
  title: 'title', description: 'description', excerpt: 'excerpt', slug: 'slug', status: 'status', allDay: 'all_day',
  image: 'image', cost: 'cost', website: 'website', showMap: 'show_map', showMapLink: 'show_map_link',
  hideFromListings: 'hide_from_listings', sticky: 'sticky', featured: 'featured', timezone: 'timezone',
};

/** The enum status (or the deprecated string) as the upstream's; OTHER is not a status to write. */
function withStatus<T extends { status?: Maybe<string>; postStatus?: Maybe<string> }>(input: T, argument: string): T {
  if (input.postStatus === 'other') throw badInput(`"${argument}.postStatus" cannot be OTHER: give a status the site knows.`, `${argument}.postStatus`);
  if (input.postStatus != null && input.status != null) throw badInput(`Give "${argument}.postStatus" or the deprecated "${argument}.status", not both.`, `${argument}.postStatus`);
  return input.postStatus != null ? { ...input, status: input.postStatus } : input;
}

export const venueBody = (input: VenueInput, argument = 'input'): WireVenueWrite => pick(withStatus(input, argument), VENUE_FIELDS);
export const organizerBody = (input: OrganizerInput, argument = 'input'): WireOrganizerWrite => pick(withStatus(input, argument), ORGANIZER_FIELDS);

/** The changes the input asks for; `zone` is the time zone its dates are read in. */
function eventChanges(input: EventInput, zone: string | undefined): WireEventWrite {
  const body: WireEventWrite = pick(input, EVENT_FIELDS);
  for (const [name, wire] of [['startDate', 'start_date'], ['endDate', 'end_date']] as const) {
    const v = input[name];
    if (v == null) continue;
    // Without a zone, the first offset becomes the event's zone and the second date is read in it.
    const d = writeDate(v, `input.${name}`, input.timezone ?? zone ?? body.timezone);
    body[wire] = d.wall;
    if (d.timezone && !input.timezone && !zone) body.timezone = d.timezone;
  }
  if (input.categories) body.categories = termRefs(input.categories);
  if (input.tags) body.tags = termRefs(input.tags);
  if (input.venueId != null && input.venue != null) throw badInput('Give either "venueId" or "venue", not both.', 'input.venue');
  if (input.venueId != null) body.venue = recordId(input.venueId, 'input.venueId');
  if (input.venue != null) body.venue = venueBody(input.venue, 'input.venue');
  if (input.organizerIds != null || input.organizers != null) {
    body.organizer = [...recordIds(input.organizerIds ?? [], 'input.organizerIds'), ...(input.organizers ?? []).map((o, i) => organizerBody(o, `input.organizers[${i}]`))];
  }
  return body;
}

/**
 * The state an update must re-send so that the plugin does not reset it. Not the rest: the read
 * answers description and excerpt rendered, cost as a display string and website falling back to
 * the event page, so sending those back would change them.
 */
function currentState(e: WireEvent): WireEventWrite {
  return {
    title: decodeHTML(e.title),
    start_date: e.start_date,
    end_date: e.end_date,
    timezone: e.timezone || undefined,
    status: e.status,
    all_day: e.all_day ?? false,
    show_map: e.show_map ?? false,
    show_map_link: e.show_map_link ?? false,
    hide_from_listings: e.hide_from_listings ?? false,
    sticky: e.sticky ?? false,
    featured: e.featured ?? false,
    categories: e.categories.map((c) => c.id),
    tags: e.tags.map((t) => t.id),
    venue: venueList(e.venue).map((v) => v.id),
    organizer: e.organizer.map((o) => o.id),
  };
}

export class CalendarWrites {
  constructor(
    private readonly client: CalendarClient,
    private readonly loaders: CalendarLoaders,
  ) {}

  async createEvent(input: EventInput): Promise<CalendarEvent> {
    const body = eventChanges(input, undefined);
    return this.event(await this.client.createEvent({ ...body, title: body.title ?? '', start_date: body.start_date ?? '', end_date: body.end_date ?? '' }));
  }

  async updateEvent(ref: RecordRef, input: EventInput, password?: string): Promise<CalendarEvent> {
    const current = 'id' in ref ? await this.client.getEvent(ref.id, password, 'write') : await this.client.getEventBySlug(ref.slug, password, 'write');
    if (!current) throw new UpstreamError('calendar', 'not-found', 'The event does not exist.', { status: 404 });
    const changes = eventChanges(input, input.timezone ?? (current.timezone || undefined));
    const body: WireEventWrite = { ...currentState(current), ...changes };
    if (input.venueId === null && !input.venue) body.venue = [];
    if (input.organizerIds === null && !input.organizers) body.organizer = [];
    // New organizers join the current ones unless `organizerIds` says which to keep.
    if (input.organizerIds === undefined && input.organizers) body.organizer = [...current.organizer.map((o) => o.id), ...input.organizers.map((o, i) => organizerBody(o, `input.organizers[${i}]`))];
    if (password) body.password = password;
    // Address the record by id: a changed slug must not break the write.
    return this.event(await this.client.updateEvent({ id: current.id }, body));
  }

  async deleteEvent(ref: RecordRef, password?: string): Promise<CalendarEvent> {
    return this.event(await this.client.deleteEvent(ref, password));
  }

  async createVenue(input: VenueInput) {
    return normalizeVenue(await this.client.createVenue(venueBody(input)));
  }
  async updateVenue(ref: RecordRef, input: VenueInput) {
    return normalizeVenue(await this.client.updateVenue(ref, venueBody(input)));
  }
  async deleteVenue(ref: RecordRef) {
    return normalizeVenue(await this.client.deleteVenue(ref));
  }

  async createOrganizer(input: OrganizerInput) {
    return normalizeOrganizer(await this.client.createOrganizer(organizerBody(input)));
  }
  async updateOrganizer(ref: RecordRef, input: OrganizerInput) {
    return normalizeOrganizer(await this.client.updateOrganizer(ref, organizerBody(input)));
  }
  async deleteOrganizer(ref: RecordRef) {
    return normalizeOrganizer(await this.client.deleteOrganizer(ref));
  }

  private termBody(input: TermInput) {
    const body = pick<{ name?: string; description?: string; slug?: string; parent?: number }>(input, { name: 'name', description: 'description', slug: 'slug' });
    if (input.parentId != null) body.parent = input.parentId === '0' ? 0 : recordId(input.parentId, 'input.parentId');
    return body;
  }
  async createCategory(input: TermInput) {
    return normalizeTerm(await this.client.createCategory(this.termBody(input)));
  }
  async updateCategory(id: number, input: TermInput) {
    return normalizeTerm(await this.client.updateCategory(id, this.termBody(input)));
  }
  async deleteCategory(id: number) {
    return normalizeTerm(await this.client.deleteCategory(id));
  }
  async createTag(input: TermInput) {
    const { parent: _p, ...body } = this.termBody(input);
    return normalizeTerm(await this.client.createTag(body));
  }
  async updateTag(id: number, input: TermInput) {
    const { parent: _p, ...body } = this.termBody(input);
    return normalizeTerm(await this.client.updateTag(id, body));
  }
  async deleteTag(id: number) {
    return normalizeTerm(await this.client.deleteTag(id));
  }

  /** A written event, normalised, with its embedded records primed for the rest of the request. */
  private event(wire: WireEvent): CalendarEvent {
    return this.loaders.primeEvent(normalizeEvent(wire));
  }
}

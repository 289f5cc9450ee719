/**
 * Calendar writes: client input → wire bodies → normalised records. Every value is checked before
 * any call. Updates and deletes run under the record's write lock (see `core/record-locks.ts`):
 * `updateEvent` re-reads the event inside the lock and sends only the changes plus the fields the
 * real plugin would otherwise reset (it writes an omitted boolean as false, an omitted status as
 * "publish" and an omitted venue/organizer as "none"). A precondition (`expectedVersion`) is
 * checked against that fresh read, so a stale one writes nothing.
 */
import { concerning, invalidInput, UpstreamError, versionConflict } from '../core/errors.js';
import type { HeldLock, RecordLocks } from '../core/record-locks.js';
import { eventVersion, organizerVersion, termVersion, venueVersion } from './versions.js';
import type { CalendarClient, RecordRef } from './client.js';
import { isBareDay, writeDate } from './dates.js';
import { printable, recordId, recordIds, slugArg, statusArg, termRefs, timezoneArg, urlArg } from './inputs.js';
import { nonEmpty, type Flags, type Maybe, type Texts } from './inputs.js';
import type { CalendarLoaders } from './loaders.js';
import type { CalendarEvent } from './model.js';
import { normalizeEvent, normalizeOrganizer, normalizeTerm, normalizeVenue, venueList } from './normalize.js';
import { resolveTermRefs } from './term-refs.js';
import type { WireCategoryWrite, WireEvent, WireEventWrite, WireOrganizerWrite, WireVenueWrite } from './wire.js';

/** A record written by id (or slug) under its lock: a venue, an organizer, a category or a tag. */
interface Kind<W, T, I, B> {
  kind: 'venue' | 'organizer' | 'category' | 'tag';
  /** The client's routes of the collection. */
  api: (client: CalendarClient) => {
    get: (ref: Ref, as: 'write') => Promise<W | null>;
    create: (body: B) => Promise<W>;
    update: (ref: Ref, body: B) => Promise<W>;
    delete: (ref: Ref) => Promise<W>;
  };
  /** Checks the input and builds the wire body. */
  body: (input: I) => B;
  normalize: (w: W) => T;
  version: (record: T) => string;
}
/** A Kind, its types inferred from the client's routes and the functions it names. */
const kindOf = <W, T, I, B>(k: Kind<W, T, I, B>) => k;

/** What venue and organizer inputs share; `postStatus` (the PostStatus enum's value) wins over the deprecated `status`. */
type LinkedPostInput = Texts<'name' | 'phone' | 'website' | 'description' | 'status' | 'postStatus' | 'image'>;

export type VenueInput = LinkedPostInput &
  Texts<'address' | 'city' | 'country' | 'province' | 'state' | 'stateProvince' | 'zip'> &
  Flags<'showMap' | 'showMapLink'>;

export type OrganizerInput = LinkedPostInput & Texts<'email'>;

export type TermInput = Texts<'name' | 'description' | 'slug' | 'parentId'>;

export type EventInput = Texts<
  | 'title'
  | 'startDate'
  | 'endDate'
  | 'timezone'
  | 'description'
  | 'excerpt'
  | 'slug'
  | 'status'
  | 'image'
  | 'cost'
  | 'website'
> &
  Flags<'allDay' | 'showMap' | 'showMapLink' | 'hideFromListings' | 'sticky' | 'featured'> & {
    categories?: Maybe<string[]>;
    tags?: Maybe<string[]>;
    /** `null` removes the venue on update. */
    venueId?: Maybe<string>;
    venue?: Maybe<VenueInput>;
    /** `[]` or `null` removes the organizers on update. */
    organizerIds?: Maybe<string[]>;
    /** Created and added to `organizerIds` (on update without `organizerIds`: to the current ones). */
    organizers?: Maybe<OrganizerInput[]>;
  };

/** Copies the given (non-null) fields under their wire names: `from:to`, else the name in snake case. */
function pick<W>(input: object, fields: string): W {
  const out: Record<string, unknown> = {};
  for (const field of fields.split(' ')) {
    const [from, to = from!.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = field.split(':');
    const v = (input as Record<string, unknown>)[from!];
    if (v !== undefined && v !== null) out[to] = v;
  }
  return out as W;
}

const POST_FIELDS = 'phone website description status image';
const VENUE_FIELDS = `name:venue address city country province state stateProvince:stateprovince zip ${POST_FIELDS} showMap showMapLink`;
const ORGANIZER_FIELDS = `name:organizer email ${POST_FIELDS}`;
const EVENT_FIELDS =
  'title description excerpt slug status allDay image cost website showMap showMapLink hideFromListings sticky featured timezone';

/** The enum status (or the deprecated string) as the upstream's; OTHER is not a status to write. */
function withStatus<T extends { status?: Maybe<string>; postStatus?: Maybe<string> }>(input: T, argument: string): T {
  if (input.postStatus === 'other')
    throw invalidInput(
      `"${argument}.postStatus" cannot be OTHER: give a status the site knows.`,
      `${argument}.postStatus`,
    );
  if (input.postStatus != null && input.status != null)
    throw invalidInput(
      `Give "${argument}.postStatus" or the deprecated "${argument}.status", not both.`,
      `${argument}.postStatus`,
    );
  return input.postStatus != null ? { ...input, status: input.postStatus } : input;
}

export const venueBody = (input: VenueInput, argument = 'input'): WireVenueWrite =>
  pick(withStatus(input, argument), VENUE_FIELDS);
export const organizerBody = (input: OrganizerInput, argument = 'input'): WireOrganizerWrite =>
  pick(withStatus(input, argument), ORGANIZER_FIELDS);

/** Checks the free-text and URL-bound fields a venue or organizer write carries. */
function checkLinked(input: VenueInput | OrganizerInput, argument: string): void {
  if (input.name != null) nonEmpty(input.name, `${argument}.name`);
  if (input.website != null) urlArg(input.website, `${argument}.website`);
  if (input.status != null) statusArg(input.status, `${argument}.status`);
  if (input.image != null && !/^\d+$/.test(input.image)) urlArg(input.image, `${argument}.image`);
  const email = (input as OrganizerInput).email;
  if (email != null && email !== '' && !/^[^\s@]+@[^\s@]+$/.test(email))
    throw invalidInput(
      `"${argument}.email" must be an email address (got "${printable(email)}").`,
      `${argument}.email`,
    );
}

/** The changes the input asks for; `zone` is the time zone its dates are read in. */
function eventChanges(input: EventInput, zone: string | undefined): WireEventWrite {
  if (input.title != null) nonEmpty(input.title, 'input.title');
  if (input.timezone != null) timezoneArg(input.timezone, 'input.timezone');
  if (input.status != null) statusArg(input.status, 'input.status');
  if (input.website != null) urlArg(input.website, 'input.website');
  if (input.image != null && !/^\d+$/.test(input.image)) urlArg(input.image, 'input.image');
  const body: WireEventWrite = pick(input, EVENT_FIELDS);
  if (input.slug != null) body.slug = slugArg(input.slug, 'input.slug');
  for (const [name, wire] of [
    ['startDate', 'start_date'],
    ['endDate', 'end_date'],
  ] as const) {
    const v = input[name];
    if (v == null) continue;
    if (isBareDay(v)) {
      const day = name === 'startDate' ? 'startDay' : 'endDay';
      throw invalidInput(
        `"input.${name}" needs a time too (e.g. "${v.trim()} 18:00:00"); for an all-day event give "input.${day}": "${v.trim()}".`,
        `input.${name}`,
      );
    }
    // Without a zone, the first offset becomes the event's zone and the second date is read in it.
    const d = writeDate(v, `input.${name}`, input.timezone ?? zone ?? body.timezone);
    body[wire] = d.wall;
    if (d.timezone && !input.timezone && !zone) body.timezone = d.timezone;
  }
  if (input.categories) body.categories = termRefs(input.categories, 'input.categories', 'category', true);
  if (input.tags) body.tags = termRefs(input.tags, 'input.tags', 'tag', true);
  if (input.venueId != null && input.venue != null)
    throw invalidInput('Give either "venueId" or "venue", not both.', 'input.venue');
  if (input.venueId != null) body.venue = recordId(input.venueId, 'input.venueId', 'venue');
  if (input.venue != null) {
    checkLinked(input.venue, 'input.venue');
    body.venue = venueBody(input.venue, 'input.venue');
  }
  input.organizers?.forEach((o, i) => checkLinked(o, `input.organizers[${i}]`));
  if (input.organizerIds != null || input.organizers != null) {
    body.organizer = [
      ...recordIds(input.organizerIds ?? [], 'input.organizerIds', 'organizer'),
      ...(input.organizers ?? []).map((o, i) => organizerBody(o, `input.organizers[${i}]`)),
    ];
  }
  return body;
}

/**
 * End not before start. All-day events keep whole days (the plugin stretches them to 00:00:00 →
 * 23:59:59), so for them only the days are compared. Wall clocks of one event share its zone.
 */
function checkDates(
  start: string | undefined,
  end: string | undefined,
  allDay: boolean,
  changed: 'startDate' | 'endDate',
): void {
  if (!start || !end) return;
  const [s, e] = allDay ? [start.slice(0, 10), end.slice(0, 10)] : [start, end];
  if (e < s)
    throw invalidInput(
      `"input.${changed}" would put the end (${end}) before the start (${start})${allDay ? ' of an all-day event' : ''}.`,
      `input.${changed}`,
    );
}

/**
 * The fields the plugin resets when they are left out of an update, as they are now: they go with
 * every update so that the update changes only what was asked.
 */
function resetProne(e: WireEvent): WireEventWrite {
  return {
    status: e.status,
    all_day: e.all_day ?? false,
    show_map: e.show_map ?? false,
    show_map_link: e.show_map_link ?? false,
    hide_from_listings: e.hide_from_listings ?? false,
    sticky: e.sticky ?? false,
    featured: e.featured ?? false,
    venue: venueList(e.venue).map((v) => v.id),
    organizer: e.organizer.map((o) => o.id),
  };
}

type Ref = RecordRef;
const lockKey = (kind: string, id: number) => `calendar:${kind}:${id}`;
/** The argument that addressed the record: `id` or `slug`. */
const argOf = (ref: Ref) => ('id' in ref ? 'id' : 'slug');

function notFound(what: string, ref: Ref): UpstreamError {
  return new UpstreamError('calendar', 'not-found', `There is no ${what} with that ${argOf(ref)}.`, {
    status: 404,
    argument: argOf(ref),
  });
}

/** How an event write treats what it changes beyond the event: its terms, its password, its precondition. */
export interface EventWriteOptions {
  /** Create the categories and tags that `input` names by a name the site does not have. */
  createMissingTerms?: boolean;
  password?: string;
  expectedVersion?: string;
}

function termBody(input: TermInput): WireCategoryWrite {
  if (input.name != null) nonEmpty(input.name, 'input.name');
  const body: WireCategoryWrite = pick(input, 'name description');
  if (input.slug != null) body.slug = slugArg(input.slug, 'input.slug');
  if (input.parentId != null)
    body.parent = input.parentId === '0' ? 0 : recordId(input.parentId, 'input.parentId', 'category');
  return body;
}

const VENUES = kindOf({
  kind: 'venue',
  api: (c) => c.venues,
  body: (input: VenueInput) => (checkLinked(input, 'input'), venueBody(input)),
  normalize: normalizeVenue,
  version: venueVersion,
});
const ORGANIZERS = kindOf({
  kind: 'organizer',
  api: (c) => c.organizers,
  body: (input: OrganizerInput) => (checkLinked(input, 'input'), organizerBody(input)),
  normalize: normalizeOrganizer,
  version: organizerVersion,
});
const CATEGORIES = kindOf({
  kind: 'category',
  api: (c) => c.categories,
  body: termBody,
  normalize: normalizeTerm,
  version: termVersion,
});
// Tags have no parent.
const TAGS = kindOf({
  ...CATEGORIES,
  kind: 'tag',
  api: (c) => c.tags,
  body: (input: TermInput) => {
    const { parent: _p, ...body } = termBody(input);
    return body;
  },
});

export class CalendarWrites {
  constructor(
    private readonly client: CalendarClient,
    private readonly loaders: CalendarLoaders,
    private readonly locks: RecordLocks,
    private readonly signal?: AbortSignal,
  ) {}

  async createEvent(input: EventInput, options: EventWriteOptions = {}): Promise<CalendarEvent> {
    const body = eventChanges(input, undefined);
    checkDates(body.start_date, body.end_date, body.all_day === true, 'endDate');
    Object.assign(body, await this.terms(body, options.createMissingTerms === true));
    return this.event(
      await this.client.createEvent({
        ...body,
        title: body.title ?? '',
        start_date: body.start_date ?? '',
        end_date: body.end_date ?? '',
      }),
    );
  }

  async updateEvent(ref: Ref, input: EventInput, options: EventWriteOptions = {}): Promise<CalendarEvent> {
    const { password, expectedVersion } = options;
    // The checks that need no record come first: a bad value costs no call, an unknown term no write.
    const terms = await this.terms(eventChanges(input, input.timezone ?? 'UTC'), options.createMissingTerms === true);
    return this.underEventLock(ref, password, async (lock, id) => {
      const current = await this.client.getEvent(id, password, 'write');
      if (!current) throw notFound('event', ref);
      if (expectedVersion != null) {
        const version = eventVersion(normalizeEvent(current));
        if (version !== expectedVersion) throw versionConflict(version);
      }
      const zone = input.timezone ?? (current.timezone || undefined);
      const changes = { ...eventChanges(input, zone), ...terms };
      const allDay = changes.all_day ?? current.all_day ?? false;
      checkDates(
        changes.start_date ?? current.start_date,
        changes.end_date ?? current.end_date,
        allDay,
        input.endDate != null ? 'endDate' : 'startDate',
      );
      const body: WireEventWrite = { ...resetProne(current), ...changes };
      // Dates are read in the zone sent with them, or the site's: send the event's own along.
      if ((changes.start_date || changes.end_date) && !changes.timezone && current.timezone)
        body.timezone = current.timezone;
      if (input.venueId === null && !input.venue) body.venue = [];
      if (input.organizerIds === null && !input.organizers) body.organizer = [];
      // New organizers join the current ones unless `organizerIds` says which to keep.
      if (input.organizerIds === undefined && input.organizers)
        body.organizer = [
          ...current.organizer.map((o) => o.id),
          ...input.organizers.map((o, i) => organizerBody(o, `input.organizers[${i}]`)),
        ];
      if (password) body.password = password;
      lock.check();
      // Address the record by id: a changed slug must not break the write.
      return this.event(await this.client.updateEvent({ id }, body));
    });
  }

  async deleteEvent(ref: Ref, password?: string): Promise<CalendarEvent> {
    return this.underEventLock(ref, password, async (lock, id) => {
      lock.check();
      return this.event(await this.client.deleteEvent({ id }, password));
    });
  }

  /** Runs `work` under the lock of the event `ref` names (a slug is resolved first to its id). */
  private async underEventLock<T>(
    ref: Ref,
    password: string | undefined,
    work: (lock: HeldLock, id: number) => Promise<T>,
  ): Promise<T> {
    const id = 'id' in ref ? ref.id : (await this.client.getEventBySlug(ref.slug, password, 'write'))?.id;
    if (id === undefined) throw notFound('event', ref);
    return this.locks
      .run('calendar', lockKey('event', id), (lock) => work(lock, id), this.signal)
      .catch((e) => {
        throw concerning(e, argOf(ref));
      });
  }

  /** The write's categories and tags as ids of existing terms (see `term-refs.ts`), read before any write. */
  private async terms(
    body: WireEventWrite,
    createMissing: boolean,
  ): Promise<Pick<WireEventWrite, 'categories' | 'tags'>> {
    const refs = (v: WireEventWrite['categories']) => (Array.isArray(v) ? v : undefined);
    const [categories, tags] = await Promise.all([
      refs(body.categories) &&
        resolveTermRefs(this.client, 'categories', refs(body.categories)!, 'input.categories', createMissing),
      refs(body.tags) && resolveTermRefs(this.client, 'tags', refs(body.tags)!, 'input.tags', createMissing),
    ]);
    return { ...(categories ? { categories } : {}), ...(tags ? { tags } : {}) };
  }

  createVenue = (input: VenueInput) => this.create(VENUES, input);
  updateVenue = (ref: Ref, input: VenueInput, version?: string) => this.update(VENUES, ref, input, version);
  deleteVenue = (ref: Ref) => this.delete(VENUES, ref);
  createOrganizer = (input: OrganizerInput) => this.create(ORGANIZERS, input);
  updateOrganizer = (ref: Ref, input: OrganizerInput, version?: string) => this.update(ORGANIZERS, ref, input, version);
  deleteOrganizer = (ref: Ref) => this.delete(ORGANIZERS, ref);
  createCategory = (input: TermInput) => this.create(CATEGORIES, input);
  updateCategory = (id: number, input: TermInput, version?: string) => this.update(CATEGORIES, { id }, input, version);
  deleteCategory = (id: number) => this.delete(CATEGORIES, { id });
  createTag = (input: TermInput) => this.create(TAGS, input);
  updateTag = (id: number, input: TermInput, version?: string) => this.update(TAGS, { id }, input, version);
  deleteTag = (id: number) => this.delete(TAGS, { id });

  private async create<W, T, I, B>(k: Kind<W, T, I, B>, input: I): Promise<T> {
    return k.normalize(await k.api(this.client).create(k.body(input)));
  }

  private update<W extends { id: number }, T, I, B>(k: Kind<W, T, I, B>, ref: Ref, input: I, expected?: string) {
    const body = k.body(input);
    return this.locked(k, ref, expected, (id) => k.api(this.client).update({ id }, body));
  }

  private delete<W extends { id: number }, T, I, B>(k: Kind<W, T, I, B>, ref: Ref) {
    return this.locked(k, ref, undefined, (id) => k.api(this.client).delete({ id }));
  }

  /**
   * An update or delete of a record found by id or slug (resolved first to the id the lock and the
   * write use), under the record's lock; with `expectedVersion`, the record is read inside the lock
   * and a stale version is a CONFLICT. These updates are partial upstream, so only a precondition
   * needs the read.
   */
  private async locked<W extends { id: number }, T, I, B>(
    k: Kind<W, T, I, B>,
    ref: Ref,
    expectedVersion: string | undefined,
    write: (id: number) => Promise<W>,
  ): Promise<T> {
    const id = 'id' in ref ? ref.id : (await k.api(this.client).get(ref, 'write'))?.id;
    if (id === undefined) throw notFound(k.kind, ref);
    const written = await this.locks
      .run(
        'calendar',
        lockKey(k.kind, id),
        async (lock) => {
          if (expectedVersion != null) {
            const current = await k.api(this.client).get({ id }, 'write');
            if (!current) throw notFound(k.kind, ref);
            const now = k.version(k.normalize(current));
            if (now !== expectedVersion) throw versionConflict(now);
          }
          lock.check();
          return write(id);
        },
        this.signal,
      )
      .catch((e) => {
        throw concerning(e, argOf(ref));
      });
    return k.normalize(written);
  }

  /** A written event, normalised, with its embedded records primed for the rest of the request. */
  private event(wire: WireEvent): CalendarEvent {
    return this.loaders.primeEvent(normalizeEvent(wire));
  }
}

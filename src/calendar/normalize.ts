/**
 * Wire → domain: the calendar plugin's quirks stop here. Titles and names lose their HTML entities
 * (descriptions stay HTML), dates become ISO 8601 with the event's own offset, `author` becomes an
 * id, the polymorphic `venue`, `image` and `custom_fields` get one shape each, and cost is split into
 * the display string plus numbers.
 */
import { decodeHTML } from 'entities';
import type {
  CalendarEvent,
  CalendarImage,
  CalendarLinkedPost,
  CalendarOrganizer,
  CalendarTerm,
  CalendarVenue,
  CostDetails,
  CustomField,
} from './model.js';
import type {
  WireCostDetails,
  WireEmbeddedTerm,
  WireEvent,
  WireImage,
  WireOrganizer,
  WireTerm,
  WireVenue,
} from './wire.js';
import { formatOffset, wallMs, zoneOffsetMinutes } from './zones.js';

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const decoded = (v: unknown): string | null => {
  const t = text(v);
  return t === null ? null : decodeHTML(t);
};
/** WordPress sends `"0"` for "no author". */
const authorId = (v: unknown): string | null => {
  const s = typeof v === 'string' || typeof v === 'number' ? String(v) : '';
  return s === '' || s === '0' ? null : s;
};

/**
 * An ISO 8601 date-time keeping the local wall time, with the offset taken from the difference to
 * the UTC field (exact, DST included); without a UTC field the time zone decides, else UTC.
 */
export function isoDateTime(local: string | undefined, utc: string | undefined, timezone?: string): string | null {
  const localMs = local ? wallMs(local) : null;
  const utcMs = utc ? wallMs(utc) : null;
  if (localMs === null) return utcMs === null ? null : `${utc!.replace(' ', 'T')}Z`;
  let offset: number | null = utcMs === null ? null : Math.round((localMs - utcMs) / 60_000);
  if (offset === null && timezone) offset = zoneOffsetMinutes(timezone, localMs);
  return `${local!.replace(' ', 'T')}${formatOffset(offset ?? 0)}`;
}

export function normalizeImage(image: WireImage | false | undefined | null): CalendarImage | null {
  if (!image || typeof image !== 'object' || !image.url) return null;
  return {
    id: image.id,
    url: image.url,
    width: image.width ?? null,
    height: image.height ?? null,
    extension: text(image.extension),
    sizes: Object.entries(image.sizes ?? {}).map(([name, s]) => ({
      name,
      url: s.url,
      width: s.width ?? null,
      height: s.height ?? null,
      mimeType: text(s['mime-type']),
    })),
  };
}

export function normalizeCost(details: WireCostDetails | undefined): CostDetails {
  return {
    currencySymbol: text(details?.currency_symbol),
    currencyCode: text(details?.currency_code),
    currencyPosition: text(details?.currency_position),
    values: (details?.values ?? []).map(Number).filter((n) => Number.isFinite(n)),
  };
}

/*
 * The records are classes over their wire objects: each field is worked out when a resolver reads
 * it (and kept, where that costs anything), not for every record of every page: a query reads a few
 * fields of each venue and organizer an event embeds, and decoding all of them costs.
 */

/** Serialises as the plain record (every field worked out): idempotent replays store results as JSON. */
abstract class LazyRecord {
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { ...(this as object) };
    for (
      let proto = Object.getPrototypeOf(this) as object;
      proto !== LazyRecord.prototype;
      proto = Object.getPrototypeOf(proto) as object
    )
      for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(proto)))
        if (d.get && !(key in out)) out[key] = (this as unknown as Record<string, unknown>)[key];
    return out;
  }
}

export const normalizeTerm = (term: WireTerm | WireEmbeddedTerm): CalendarTerm => new Term(term);

class Term extends LazyRecord implements CalendarTerm {
  readonly id: number;
  readonly slug: string;
  readonly #w: WireTerm | WireEmbeddedTerm;
  #name?: string;
  constructor(w: WireTerm | WireEmbeddedTerm) {
    super();
    this.#w = w;
    this.id = w.id;
    this.slug = w.slug;
  }
  get name(): string {
    return (this.#name ??= decodeHTML(this.#w.name));
  }
  get description(): string {
    return this.#w.description ?? '';
  }
  get parentId(): number | null {
    return this.#w.parent ? this.#w.parent : null;
  }
  get count(): number {
    return this.#w.count ?? 0;
  }
  get url(): string | null {
    return 'url' in this.#w ? text(this.#w.url) : null;
  }
}

/** What venues and organizers share: both are posts linked to events. */
abstract class LinkedPost<W extends WireVenue | WireOrganizer> extends LazyRecord implements CalendarLinkedPost {
  readonly id: number;
  readonly globalId: string;
  readonly #p: W;
  #name?: string;
  #image?: CalendarImage | null;
  constructor(p: W) {
    super();
    this.#p = p;
    this.id = p.id;
    this.globalId = p.global_id;
  }
  /** The wire record (a method, not a getter: `toJSON` lists getters). */
  protected wire(): W {
    return this.#p;
  }
  protected abstract rawName(): unknown;
  get name(): string {
    // A password-protected venue or organizer sends its name as [] (plugin quirk).
    return (this.#name ??= decoded(this.rawName()) ?? '');
  }
  get slug(): string | null {
    return text(this.#p.slug);
  }
  get status(): string | null {
    return text(this.#p.status);
  }
  get authorId(): string | null {
    return authorId(this.#p.author);
  }
  get description(): string | null {
    return text(this.#p.description);
  }
  get url(): string | null {
    return text(this.#p.url);
  }
  get phone(): string | null {
    return text(this.#p.phone);
  }
  get website(): string | null {
    return text(this.#p.website);
  }
  get image(): CalendarImage | null {
    if (this.#image === undefined) this.#image = normalizeImage(this.#p.image);
    return this.#image;
  }
  get publishedAt(): string | null {
    return isoDateTime(this.#p.date, this.#p.date_utc);
  }
  get modifiedAt(): string | null {
    return isoDateTime(this.#p.modified, this.#p.modified_utc);
  }
}

class Venue extends LinkedPost<WireVenue> implements CalendarVenue {
  protected rawName(): unknown {
    return this.wire().venue;
  }
  get address(): string | null {
    return decoded(this.wire().address);
  }
  get city(): string | null {
    return decoded(this.wire().city);
  }
  get country(): string | null {
    return decoded(this.wire().country);
  }
  get province(): string | null {
    return decoded(this.wire().province);
  }
  get state(): string | null {
    return decoded(this.wire().state);
  }
  get stateProvince(): string | null {
    return decoded(this.wire().stateprovince);
  }
  get zip(): string | null {
    return text(this.wire().zip);
  }
  get latitude(): number | null {
    return this.wire().geo_lat ?? null;
  }
  get longitude(): number | null {
    return this.wire().geo_lng ?? null;
  }
  get showMap(): boolean | null {
    return this.wire().show_map ?? null;
  }
  get showMapLink(): boolean | null {
    return this.wire().show_map_link ?? null;
  }
}

class Organizer extends LinkedPost<WireOrganizer> implements CalendarOrganizer {
  protected rawName(): unknown {
    return this.wire().organizer;
  }
  get email(): string | null {
    return decoded(this.wire().email);
  }
}

export const normalizeVenue = (v: WireVenue): CalendarVenue => new Venue(v);
export const normalizeOrganizer = (o: WireOrganizer): CalendarOrganizer => new Organizer(o);

/** `venue` is one object, `[]` for none, or a list. */
export function venueList(venue: WireEvent['venue'] | undefined): WireVenue[] {
  if (!venue) return [];
  if (Array.isArray(venue))
    return venue.filter((v): v is WireVenue => Boolean(v && typeof v === 'object' && 'id' in v));
  return typeof venue === 'object' && 'id' in venue ? [venue] : [];
}

export const normalizeEvent = (e: WireEvent): CalendarEvent => new CalendarEventRecord(e);

class CalendarEventRecord extends LazyRecord implements CalendarEvent {
  readonly id: number;
  readonly globalId: string;
  readonly status: string;
  readonly slug: string;
  readonly url: string;
  #title?: string;
  #startDate?: string;
  #endDate?: string;
  #costDetails?: CostDetails;
  #image?: CalendarImage | null;
  #categories?: CalendarTerm[];
  #tags?: CalendarTerm[];
  #venues?: CalendarVenue[];
  #organizers?: CalendarOrganizer[];
  #customFields?: CustomField[];

  readonly #e: WireEvent;

  constructor(e: WireEvent) {
    super();
    this.#e = e;
    this.id = e.id;
    this.globalId = e.global_id;
    this.status = e.status;
    this.slug = e.slug;
    this.url = e.url;
  }
  #tz(): string | undefined {
    return text(this.#e.timezone) ?? undefined;
  }
  get globalIdLineage(): string[] {
    return Array.isArray(this.#e.global_id_lineage) ? this.#e.global_id_lineage : [];
  }
  get authorId(): string | null {
    return authorId(this.#e.author);
  }
  get title(): string {
    return (this.#title ??= decodeHTML(this.#e.title ?? ''));
  }
  get description(): string {
    return this.#e.description ?? '';
  }
  get excerpt(): string {
    return this.#e.excerpt ?? '';
  }
  get startDate(): string {
    return (this.#startDate ??= isoDateTime(this.#e.start_date, this.#e.utc_start_date, this.#tz()) ?? '');
  }
  get endDate(): string {
    return (this.#endDate ??= isoDateTime(this.#e.end_date, this.#e.utc_end_date, this.#tz()) ?? '');
  }
  get startDateUtc(): string | null {
    return text(this.#e.utc_start_date) ? `${this.#e.utc_start_date.replace(' ', 'T')}Z` : null;
  }
  get endDateUtc(): string | null {
    return text(this.#e.utc_end_date) ? `${this.#e.utc_end_date.replace(' ', 'T')}Z` : null;
  }
  get allDay(): boolean | null {
    return this.#e.all_day ?? null;
  }
  get timezone(): string | null {
    return this.#tz() ?? null;
  }
  get timezoneAbbr(): string | null {
    return text(this.#e.timezone_abbr);
  }
  get cost(): string | null {
    return text(this.#e.cost) === null ? null : decodeHTML(this.#e.cost);
  }
  get costDetails(): CostDetails {
    return (this.#costDetails ??= normalizeCost(this.#e.cost_details));
  }
  get website(): string | null {
    return text(this.#e.website);
  }
  get showMap(): boolean | null {
    return this.#e.show_map ?? null;
  }
  get showMapLink(): boolean | null {
    return this.#e.show_map_link ?? null;
  }
  get hideFromListings(): boolean | null {
    return this.#e.hide_from_listings ?? null;
  }
  get sticky(): boolean | null {
    return this.#e.sticky ?? null;
  }
  get featured(): boolean | null {
    return this.#e.featured ?? null;
  }
  get image(): CalendarImage | null {
    if (this.#image === undefined) this.#image = normalizeImage(this.#e.image);
    return this.#image;
  }
  get categories(): CalendarTerm[] {
    return (this.#categories ??= (this.#e.categories ?? []).map(normalizeTerm));
  }
  get tags(): CalendarTerm[] {
    return (this.#tags ??= (this.#e.tags ?? []).map(normalizeTerm));
  }
  get venues(): CalendarVenue[] {
    return (this.#venues ??= venueList(this.#e.venue).map(normalizeVenue));
  }
  get organizers(): CalendarOrganizer[] {
    return (this.#organizers ??= (Array.isArray(this.#e.organizer) ? this.#e.organizer : []).map(normalizeOrganizer));
  }
  get customFields(): CustomField[] {
    const fields = this.#e.custom_fields;
    return (this.#customFields ??= Array.isArray(fields)
      ? []
      : Object.entries(fields ?? {}).map(([key, f]) => ({ key, label: f.label, value: f.value })));
  }
  get publishedAt(): string | null {
    return isoDateTime(this.#e.date, this.#e.date_utc);
  }
  get modifiedAt(): string | null {
    return isoDateTime(this.#e.modified, this.#e.modified_utc);
  }
}

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

export function normalizeTerm(term: WireTerm | WireEmbeddedTerm): CalendarTerm {
  return {
    id: term.id,
    name: decodeHTML(term.name),
    slug: term.slug,
    description: term.description ?? '',
    parentId: term.parent ? term.parent : null,
    count: term.count ?? 0,
    url: 'url' in term ? text(term.url) : null,
  };
}

/** What venues and organizers share: both are posts linked to events. */
function linkedPost(p: WireVenue | WireOrganizer, name: unknown): CalendarLinkedPost {
  return {
    id: p.id,
    // A password-protected venue or organizer sends its name as [] (plugin quirk).
    name: decoded(name) ?? '',
    slug: text(p.slug),
    status: text(p.status),
    authorId: authorId(p.author),
    description: text(p.description),
    url: text(p.url),
    phone: text(p.phone),
    website: text(p.website),
    image: normalizeImage(p.image),
    globalId: p.global_id,
    publishedAt: isoDateTime(p.date, p.date_utc),
    modifiedAt: isoDateTime(p.modified, p.modified_utc),
  };
}

export function normalizeVenue(v: WireVenue): CalendarVenue {
  return {
    ...linkedPost(v, v.venue),
    address: decoded(v.address),
    city: decoded(v.city),
    country: decoded(v.country),
    province: decoded(v.province),
    state: decoded(v.state),
    stateProvince: decoded(v.stateprovince),
    zip: text(v.zip),
    latitude: typeof v.geo_lat === 'number' ? v.geo_lat : null,
    longitude: typeof v.geo_lng === 'number' ? v.geo_lng : null,
    showMap: v.show_map ?? null,
    showMapLink: v.show_map_link ?? null,
  };
}

export function normalizeOrganizer(o: WireOrganizer): CalendarOrganizer {
  return { ...linkedPost(o, o.organizer), email: decoded(o.email) };
}

/** `venue` is one object, `[]` for none, or a list. */
export function venueList(venue: WireEvent['venue'] | undefined): WireVenue[] {
  if (!venue) return [];
  if (Array.isArray(venue))
    return venue.filter((v): v is WireVenue => Boolean(v && typeof v === 'object' && 'id' in v));
  return typeof venue === 'object' && 'id' in venue ? [venue] : [];
}

export function normalizeEvent(e: WireEvent): CalendarEvent {
  const tz = text(e.timezone) ?? undefined;
  const customFields = Array.isArray(e.custom_fields)
    ? []
    : Object.entries(e.custom_fields ?? {}).map(([key, f]) => ({ key, label: f.label, value: f.value }));
  return {
    id: e.id,
    globalId: e.global_id,
    globalIdLineage: Array.isArray(e.global_id_lineage) ? e.global_id_lineage : [],
    authorId: authorId(e.author),
    status: e.status,
    title: decodeHTML(e.title ?? ''),
    description: e.description ?? '',
    excerpt: e.excerpt ?? '',
    slug: e.slug,
    url: e.url,
    startDate: isoDateTime(e.start_date, e.utc_start_date, tz) ?? '',
    endDate: isoDateTime(e.end_date, e.utc_end_date, tz) ?? '',
    startDateUtc: text(e.utc_start_date) ? `${e.utc_start_date.replace(' ', 'T')}Z` : null,
    endDateUtc: text(e.utc_end_date) ? `${e.utc_end_date.replace(' ', 'T')}Z` : null,
    allDay: e.all_day ?? null,
    timezone: tz ?? null,
    timezoneAbbr: text(e.timezone_abbr),
    cost: text(e.cost) === null ? null : decodeHTML(e.cost),
    costDetails: normalizeCost(e.cost_details),
    website: text(e.website),
    showMap: e.show_map ?? null,
    showMapLink: e.show_map_link ?? null,
    hideFromListings: e.hide_from_listings ?? null,
    sticky: e.sticky ?? null,
    featured: e.featured ?? null,
    image: normalizeImage(e.image),
    categories: (e.categories ?? []).map(normalizeTerm),
    tags: (e.tags ?? []).map(normalizeTerm),
    venues: venueList(e.venue).map(normalizeVenue),
    organizers: (Array.isArray(e.organizer) ? e.organizer : []).map(normalizeOrganizer),
    customFields,
    publishedAt: isoDateTime(e.date, e.date_utc),
    modifiedAt: isoDateTime(e.modified, e.modified_utc),
  };
}

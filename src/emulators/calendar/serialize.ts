/**
 * Stored records → the wire shapes of `../wire.ts`, reproducing the plugin's output quirks: titles
 * through a WordPress-like texturize (entities), descriptions through autop (`<p>`), string date parts,
 * dropped empty venue/organizer fields, venue polymorphism, two term shapes.
 */
import type {
  WireEmbeddedTerm,
  WireEvent,
  WireOrganizer,
  WireTerm,
  WireTermUrls,
  WireVenue,
} from '../../calendar/wire.js';
import { dateDetails, isoWithOffset, localToUtc, timezoneAbbr } from './dates.js';
import type { CalendarStore, CostRecord, EventRecord, OrganizerRecord, TermRecord, VenueRecord } from './store.js';

export interface Site {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `origin + /wp-json/ + namespace` */
  apiRoot: string;
}

/** The bits of WordPress's `wptexturize` that show in titles: `&amp;`, curly quotes, en dashes. */
export function texturize(raw: string): string {
  return raw
    .replace(/&(?![#a-z0-9]+;)/gi, '&amp;')
    .replace(/(^|[\s(])'/g, '$1&#8216;')
    .replace(/'/g, '&#8217;')
    .replace(/(^|[\s(])"/g, '$1&#8220;')
    .replace(/"/g, '&#8221;')
    .replace(/ - /g, ' &#8211; ');
}

/** `the_content`: plain text gets wrapped in paragraphs; HTML is kept; empty stays empty. */
function autop(text: string): string {
  const t = text.trim();
  if (t === '') return '';
  if (/^<(p|div|h\d|ul|ol|figure|blockquote)[\s>]/i.test(t)) return t;
  return t
    .split(/\n\s*\n/)
    .map((para) => `<p>${texturize(para.trim()).replace(/\n/g, '<br />\n')}</p>`)
    .join('\n');
}

const globalId = (site: Site, id: number) => `${new URL(site.origin).hostname}?id=${id}`;

function costDisplay(cost: CostRecord): string {
  if (cost.values.length === 0) return '';
  if (cost.values.length === 1 && Number(cost.values[0]) === 0) return 'Free';
  const fmt = (v: string) => (cost.position === 'postfix' ? `${v}${cost.symbol}` : `${cost.symbol}${v}`);
  const nums = cost.values;
  return nums.length === 1 ? fmt(nums[0]!) : `${fmt(nums[0]!)} – ${fmt(nums[nums.length - 1]!)}`;
}

/** array_filter: drop "", false, "0", null, undefined. */
function dropEmpty<T extends object>(obj: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj))
    if (v !== '' && v !== false && v !== '0' && v !== null && v !== undefined) out[k] = v;
  return out as Partial<T>;
}

function postDates(p: { date: string; modified: string }) {
  // The site time zone is UTC, so local and GMT post dates coincide.
  return { date: p.date, date_utc: p.date, modified: p.modified, modified_utc: p.modified };
}

/** A venue or organizer: the post fields, the kind's own `fields` (empty ones dropped), then `tail`. */
function linkedPost(site: Site, r: VenueRecord | OrganizerRecord, fields: object, jsonLd: unknown, tail = {}) {
  const base = dropEmpty({
    id: r.id,
    author: String(r.author),
    status: r.status,
    ...postDates(r),
    url: `${site.origin}/${r.kind}/${r.slug}/`,
    [r.kind]: texturize(r.title),
    description: autop(r.description),
    excerpt: autop(r.excerpt),
    slug: r.slug,
    image: r.image,
    ...fields,
    json_ld: jsonLd,
  });
  const gid = globalId(site, r.id);
  return { ...base, id: r.id, ...tail, global_id: gid, global_id_lineage: [gid] };
}

export function serializeVenue(site: Site, v: VenueRecord, single = false): WireVenue {
  const { address, city, country, province, state, zip, phone, website, stateprovince } = v;
  const fields = { address, city, country, province, state, zip, phone, website, stateprovince };
  const tail = { show_map: v.showMap, show_map_link: v.showMapLink };
  return linkedPost(site, v, fields, single ? venueJsonLd(site, v) : undefined, tail) as WireVenue;
}

export function serializeOrganizer(site: Site, o: OrganizerRecord, single = false): WireOrganizer {
  const fields = { phone: o.phone, website: o.website, email: o.email };
  return linkedPost(site, o, fields, single ? organizerJsonLd(site, o) : undefined) as WireOrganizer;
}

function termUrls(site: Site, t: TermRecord): WireTermUrls {
  const coll = `${site.apiRoot}/${t.taxonomy === 'post_tag' ? 'tags' : 'categories'}`;
  return { self: `${coll}/${t.id}`, collection: coll, ...(t.parent ? { up: `${coll}/${t.parent}` } : {}) };
}

function serializeEmbeddedTerm(site: Site, store: CalendarStore, t: TermRecord): WireEmbeddedTerm {
  return {
    name: texturize(t.name),
    slug: t.slug,
    term_group: 0,
    term_taxonomy_id: t.id,
    taxonomy: t.taxonomy,
    description: t.description,
    parent: t.parent,
    count: store.termCount(t),
    filter: 'raw',
    id: t.id,
    urls: termUrls(site, t),
  };
}

export function serializeTerm(site: Site, store: CalendarStore, t: TermRecord): WireTerm {
  const tag = t.taxonomy === 'post_tag';
  return {
    id: t.id,
    count: store.termCount(t),
    description: t.description,
    name: texturize(t.name),
    slug: t.slug,
    taxonomy: t.taxonomy,
    ...(tag ? {} : { parent: t.parent }),
    meta: [],
    url: `${site.origin}/${tag ? 'tag' : 'events/category'}/${t.slug}/`,
    urls: termUrls(site, t),
  };
}

interface EventSerializeOptions {
  /** Single GET: adds json_ld to the event and its venue/organizers. */
  single?: boolean;
  /** Archive view of a password-protected event: content fields blanked. */
  blank?: boolean;
}

export function serializeEvent(
  site: Site,
  store: CalendarStore,
  e: EventRecord,
  opts: EventSerializeOptions = {},
): WireEvent {
  const single = opts.single ?? false;
  const gid = globalId(site, e.id);
  const url = `${site.origin}/event/${e.slug}/`;
  const tz = e.timezone || 'UTC';
  const utcStart = localToUtc(e.start, tz);
  const utcEnd = localToUtc(e.end, tz);
  const venues = e.venueIds
    .map((id) => store.postOf('venue', id))
    .filter((v): v is VenueRecord => !!v && v.status !== 'trash');
  const venueData = venues.map((v) => serializeVenue(site, v, single));
  const organizers = e.organizerIds
    .map((id) => store.postOf('organizer', id))
    .filter((o): o is OrganizerRecord => !!o && o.status !== 'trash');
  const terms = (ids: number[]) =>
    ids
      .map((id) => store.term(id))
      .filter((t): t is TermRecord => !!t)
      .map((t) => serializeEmbeddedTerm(site, store, t));
  const blank = opts.blank ?? false;
  const event: WireEvent = {
    id: e.id,
    global_id: gid,
    global_id_lineage: [gid],
    author: String(e.author),
    status: e.status,
    ...postDates(e),
    url,
    rest_url: `${site.apiRoot}/events/${e.id}`,
    title: texturize(e.title),
    description: blank ? '' : autop(e.description),
    excerpt: blank ? '' : autop(e.excerpt),
    slug: e.slug,
    image: blank ? false : (e.image ?? false),
    all_day: blank ? null : e.allDay,
    start_date: e.start,
    start_date_details: dateDetails(e.start),
    end_date: e.end,
    end_date_details: dateDetails(e.end),
    utc_start_date: utcStart,
    utc_start_date_details: dateDetails(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: dateDetails(utcEnd),
    timezone: e.timezone,
    timezone_abbr: timezoneAbbr(e.timezone, utcStart),
    cost: blank ? '' : costDisplay(e.cost),
    cost_details: blank
      ? { currency_symbol: '', currency_code: '', currency_position: '', values: [] }
      : {
          currency_symbol: e.cost.symbol,
          currency_code: e.cost.code,
          currency_position: e.cost.position,
          values: [...e.cost.values],
        },
    website: blank ? '' : e.website === undefined ? url : e.website,
    show_map: blank ? null : e.showMap,
    show_map_link: blank ? null : e.showMapLink,
    hide_from_listings: blank ? null : e.hidden,
    sticky: blank ? null : e.sticky,
    featured: blank ? null : e.featured,
    categories: blank ? [] : terms(e.categoryIds),
    tags: blank ? [] : terms(e.tagIds),
    venue: blank || venueData.length === 0 ? [] : venueData.length === 1 ? venueData[0]! : venueData,
    organizer: blank ? [] : organizers.map((o) => serializeOrganizer(site, o, single)),
    custom_fields: Object.keys(e.customFields).length === 0 ? [] : structuredClone(e.customFields),
  };
  if (single) event.json_ld = eventJsonLd(e, url, utcStart, utcEnd, venues, organizers, site);
  return event;
}

const stripTags = (html: string) => html.replace(/<[^>]+>/g, '').trim();

function venueJsonLd(site: Site, v: VenueRecord): Record<string, unknown> {
  return {
    '@context': 'http://schema.org',
    '@type': 'Place',
    name: texturize(v.title),
    description: stripTags(autop(v.description)),
    url: `${site.origin}/venue/${v.slug}/`,
    address: {
      '@type': 'PostalAddress',
      streetAddress: v.address,
      addressLocality: v.city,
      addressRegion: v.stateprovince,
      postalCode: v.zip,
      addressCountry: v.country,
    },
    telephone: v.phone,
    sameAs: v.website,
  };
}

function organizerJsonLd(site: Site, o: OrganizerRecord): Record<string, unknown> {
  return {
    '@context': 'http://schema.org',
    '@type': 'Person',
    name: texturize(o.title),
    description: stripTags(autop(o.description)),
    url: `${site.origin}/organizer/${o.slug}/`,
    telephone: o.phone,
    email: o.email,
    sameAs: o.website,
  };
}

function eventJsonLd(
  e: EventRecord,
  url: string,
  utcStart: string,
  utcEnd: string,
  venues: VenueRecord[],
  organizers: OrganizerRecord[],
  site: Site,
): Record<string, unknown> {
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: texturize(e.title),
    description: stripTags(autop(e.description)),
    url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(e.start, utcStart),
    endDate: isoWithOffset(e.end, utcEnd),
  };
  if (e.image) ld.image = e.image.url;
  if (venues[0]) ld.location = venueJsonLd(site, venues[0]);
  if (organizers.length) ld.organizer = organizerJsonLd(site, organizers[0]!);
  if (e.cost.values.length) {
    ld.offers = {
      '@type': 'Offer',
      price: e.cost.values[0],
      priceCurrency: e.cost.code,
      url,
      category: 'primary',
      availability: 'inStock',
    };
  }
  return ld;
}

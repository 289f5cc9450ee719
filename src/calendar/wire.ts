/**
 * The calendar REST API's JSON payloads (The Events Calendar REST API v1, namespace `tribe/events/v1`,
 * renamed `calendar/events/v1` by our contract), typed exactly as the real plugin sends them — not as
 * its own /doc claims (see /work/shared/upstreams/calendar-facts.md §1). Shared by the emulator and
 * the gateway's REST client so both sides agree on one wire shape.
 *
 * Wire quirks kept on purpose: `author` is a numeric string, date parts are zero-padded strings,
 * `venue` is object | [] | object[], `image` is false | object, `custom_fields` is [] | object, empty
 * venue/organizer fields are absent, titles carry HTML entities, descriptions carry HTML.
 */

import { z } from 'zod';

/** `Y-m-d H:i:s`, no `T`, no offset (site/event-local or UTC depending on the field). */
export type WireDateTime = string;

/** Every part a zero-padded string (`"07"`), never a number. */
export interface WireDateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

export interface WireImageSize {
  width: number;
  height: number;
  'mime-type': string;
  filesize?: number;
  url: string;
}

/** Featured image: WP attachment metadata minus `file`/`image_meta`, empty entries dropped. */
export interface WireImage {
  url: string;
  id: number;
  extension: string;
  width: number;
  height: number;
  filesize?: number;
  sizes: Record<string, WireImageSize>;
}

export interface WireCostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: 'prefix' | 'postfix' | '';
  /** Numeric strings sorted numerically, e.g. `["5", "20"]`; `[]` when there is no cost. */
  values: string[];
}

export interface WireTermUrls {
  self: string;
  collection: string;
  /** Only for terms with a parent. */
  up?: string;
}

export type WireTaxonomy = 'tribe_events_cat' | 'post_tag';

/** A category or tag as embedded in an event (a WP_Term cast to an array, plus `id` and `urls`). */
export interface WireEmbeddedTerm {
  name: string;
  slug: string;
  term_group: number;
  term_taxonomy_id: number;
  taxonomy: WireTaxonomy;
  description: string;
  parent: number;
  count: number;
  filter: 'raw';
  id: number;
  urls: WireTermUrls;
}

/** A category or tag from `/categories`, `/tags` and their single routes (WP core terms controller shape). */
export interface WireTerm {
  id: number;
  count: number;
  description: string;
  name: string;
  slug: string;
  taxonomy: WireTaxonomy;
  /** Categories only: tags are not hierarchical. */
  parent?: number;
  /** Usually `[]`. */
  meta: unknown[] | Record<string, unknown>;
  /** Term archive permalink. */
  url: string;
  urls: WireTermUrls;
}

/** The post fields venues and organizers share; empty ones are omitted. */
export interface WireLinkedPost {
  id: number;
  /** Numeric string; omitted when "0". */
  author?: string;
  status?: string;
  date?: WireDateTime;
  date_utc?: WireDateTime;
  modified?: WireDateTime;
  modified_utc?: WireDateTime;
  url?: string;
  description?: string;
  excerpt?: string;
  slug?: string;
  image?: WireImage;
  phone?: string;
  website?: string;
  /** Only on single GETs. */
  json_ld?: Record<string, unknown>;
  global_id: string;
  global_id_lineage: string[];
}

/** A venue's postal address, as read and as written. */
export interface WireAddress {
  address?: string;
  city?: string;
  country?: string;
  province?: string;
  state?: string;
  zip?: string;
  stateprovince?: string;
}

/** Venue: every key except the last four is omitted when empty. */
export interface WireVenue extends WireLinkedPost, WireAddress {
  /** The venue name (HTML entities kept); `[]` on a password-protected venue (plugin quirk). */
  venue?: string | [];
  /** Only with Events Calendar Pro geolocation. */
  geo_lat?: number;
  geo_lng?: number;
  /** Default true; `null` on a password-protected venue. */
  show_map: boolean | null;
  show_map_link: boolean | null;
}

/** Organizer: the whole object is filtered, so every empty key is omitted. */
export interface WireOrganizer extends WireLinkedPost {
  /** The organizer name; `[]` on a password-protected organizer (plugin quirk). */
  organizer?: string | [];
  email?: string;
}

export interface WireCustomField {
  label: string;
  value: string;
}

/** All keys always present, in this order. */
export interface WireEvent {
  id: number;
  /** `host[/path]?id=N`, no scheme. */
  global_id: string;
  global_id_lineage: string[];
  /** Numeric string, e.g. `"1"`. */
  author: string;
  status: string;
  date: WireDateTime;
  date_utc: WireDateTime;
  modified: WireDateTime;
  modified_utc: WireDateTime;
  url: string;
  rest_url: string;
  /** HTML entities kept (`&amp;`, `&#8217;`, `&#8211;`). */
  title: string;
  /** HTML (`<p>…</p>`) or `""`. */
  description: string;
  excerpt: string;
  slug: string;
  image: false | WireImage;
  /** `null` on password-protected events in lists. */
  all_day: boolean | null;
  /** Event-local time (see `timezone`). All-day: `… 00:00:00` to `… 23:59:59`. */
  start_date: WireDateTime;
  start_date_details: WireDateDetails;
  end_date: WireDateTime;
  end_date_details: WireDateDetails;
  utc_start_date: WireDateTime;
  utc_start_date_details: WireDateDetails;
  utc_end_date: WireDateTime;
  utc_end_date_details: WireDateDetails;
  /** IANA name or `UTC+2`-style; `""` when unknown. */
  timezone: string;
  timezone_abbr: string;
  /** Display string with symbol: `"$10"`, `"€5 – €20"`, `"Free"`, `""`. */
  cost: string;
  cost_details: WireCostDetails;
  /** Falls back to the permalink when the event has no website meta; `""` when set empty. */
  website: string;
  show_map: boolean | null;
  show_map_link: boolean | null;
  hide_from_listings: boolean | null;
  sticky: boolean | null;
  featured: boolean | null;
  categories: WireEmbeddedTerm[];
  tags: WireEmbeddedTerm[];
  /** One venue → object, none → `[]`, several → list. */
  venue: WireVenue | [] | WireVenue[];
  /** Always a list. */
  organizer: WireOrganizer[];
  /** `[]` when none, else keyed by meta key (e.g. `_ecp_custom_2`). */
  custom_fields: [] | Record<string, WireCustomField>;
  /** Only on `GET /events/{id}` and `/events/by-slug/{slug}`. */
  json_ld?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Collections. `next_rest_url`/`previous_rest_url` are absent (not null) when not applicable.
// Headers: `X-TEC-Total`, `X-TEC-TotalPages`.

interface WirePaging {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
  total: number;
  /** `ceil(total / per_page)`, 0 when total is 0. */
  total_pages: number;
}

export interface WireEventsPage extends WirePaging {
  events: WireEvent[];
}
export interface WireVenuesPage extends WirePaging {
  venues: WireVenue[];
}
export interface WireOrganizersPage extends WirePaging {
  organizers: WireOrganizer[];
}
export interface WireCategoriesPage extends WirePaging {
  categories: WireTerm[];
}
export interface WireTagsPage extends WirePaging {
  tags: WireTerm[];
}

// ---------------------------------------------------------------------------------------------
// Errors: `{code, message, data: {status, params?}}`; HTTP status = data.status.

export interface WireError {
  code: string;
  message: string;
  data: {
    status: number;
    /** `rest_invalid_param`: name → message; `rest_missing_callback_param`: names in arg order. */
    params?: Record<string, string> | string[];
    details?: Record<string, unknown>;
  };
  additional_errors?: WireError[];
}

// ---------------------------------------------------------------------------------------------
// Write bodies (JSON). Create requires the marked fields; update takes the same fields, all optional.
// Update quirk: omitted booleans are written as false, omitted status becomes publish and omitted
// venue/organizer unlink — send the whole record.

/** A venue by id, `{id}`, or the data of a venue to create on the fly. */
export type WireVenueRef = number | string | { id: number } | WireVenueWrite;
/** An organizer by id, CSV of ids, or data; or a list of those. */
export type WireOrganizerRef = number | string | { id: number } | WireOrganizerWrite;

export interface WireEventWrite {
  title?: string;
  start_date?: string;
  end_date?: string;
  author?: number;
  date?: string;
  date_utc?: string;
  description?: string;
  slug?: string;
  excerpt?: string;
  status?: string;
  timezone?: string;
  all_day?: boolean;
  image?: string | number;
  cost?: string;
  website?: string;
  show_map?: boolean;
  show_map_link?: boolean;
  hide_from_listings?: boolean;
  sticky?: boolean;
  featured?: boolean;
  /** Ids, names or slugs (array or CSV); unknown names are created, unknown ids skipped. */
  categories?: (number | string)[] | string;
  tags?: (number | string)[] | string;
  venue?: WireVenueRef | WireVenueRef[];
  organizer?: WireOrganizerRef | WireOrganizerRef[];
  /** Update/delete of a password-protected event. */
  password?: string;
}

export interface WireEventCreate extends WireEventWrite {
  title: string;
  start_date: string;
  end_date: string;
}

export interface WireVenueWrite extends WireAddress {
  venue?: string;
  author?: number;
  date?: string;
  date_utc?: string;
  description?: string;
  status?: string;
  phone?: string;
  website?: string;
  image?: string;
  show_map?: string | boolean;
  show_map_link?: string | boolean;
}

export interface WireOrganizerWrite {
  organizer?: string;
  author?: number;
  date?: string;
  date_utc?: string;
  description?: string;
  status?: string;
  phone?: string;
  website?: string;
  email?: string;
  image?: string;
}

export interface WireCategoryWrite {
  name?: string;
  description?: string;
  slug?: string;
  parent?: number;
}

export interface WireTagWrite {
  name?: string;
  description?: string;
  slug?: string;
}

// ---------------------------------------------------------------------------------------------
// Checked at the client edge (src/core/contract.ts): what the gateway reads of each record without
// a fallback. The other fields pass through unchecked (the payload itself is handed on), so the check stays cheap.

/** The fields of an event the graph reads as non-null. */
export const eventShape = z.object({
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  status: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  utc_start_date: z.string(),
  utc_end_date: z.string(),
});

/** Venues and organizers: the id (the name has a plugin quirk of its own and a fallback). */
export const linkedPostShape = z.object({ id: z.number() });

/** Categories and tags. */
export const termShape = z.object({ id: z.number(), name: z.string(), slug: z.string() });

/** An archive page whose items sit under `key`, each checked with `item`. */
export const archivePageShape = <K extends string, S extends z.ZodType>(key: K, item: S) =>
  z.object({ [key]: z.array(item) } as Record<K, z.ZodArray<S>>);

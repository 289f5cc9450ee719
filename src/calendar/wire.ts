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

// Read payloads are zod schemas, and their types are inferred from them: one source for the
// shape the gateway checks (see the picked shapes at the end) and the type both sides compile
// against. Write bodies, which the gateway builds itself, stay plain interfaces.

/** `Y-m-d H:i:s`, no `T`, no offset (site/event-local or UTC depending on the field). */
const wireDateTime = z.string();

/** Every part a zero-padded string (`"07"`), never a number. */
const wireDateDetails = z.object({
  year: z.string(),
  month: z.string(),
  day: z.string(),
  hour: z.string(),
  minutes: z.string(),
  seconds: z.string(),
});
export type WireDateDetails = z.infer<typeof wireDateDetails>;

const wireImageSize = z.object({
  width: z.number(),
  height: z.number(),
  'mime-type': z.string(),
  filesize: z.number().optional(),
  url: z.string(),
});

/** Featured image: WP attachment metadata minus `file`/`image_meta`, empty entries dropped. */
const wireImage = z.object({
  url: z.string(),
  id: z.number(),
  extension: z.string(),
  width: z.number(),
  height: z.number(),
  filesize: z.number().optional(),
  sizes: z.record(z.string(), wireImageSize),
});
export type WireImage = z.infer<typeof wireImage>;

const wireCostDetails = z.object({
  currency_symbol: z.string(),
  currency_code: z.string(),
  currency_position: z.enum(['prefix', 'postfix', '']),
  /** Numeric strings sorted numerically, e.g. `["5", "20"]`; `[]` when there is no cost. */
  values: z.array(z.string()),
});
export type WireCostDetails = z.infer<typeof wireCostDetails>;

const wireTermUrls = z.object({
  self: z.string(),
  collection: z.string(),
  /** Only for terms with a parent. */
  up: z.string().optional(),
});
export type WireTermUrls = z.infer<typeof wireTermUrls>;

const wireTaxonomy = z.enum(['tribe_events_cat', 'post_tag']);
export type WireTaxonomy = z.infer<typeof wireTaxonomy>;

/** A category or tag as embedded in an event (a WP_Term cast to an array, plus `id` and `urls`). */
const wireEmbeddedTerm = z.object({
  name: z.string(),
  slug: z.string(),
  term_group: z.number(),
  term_taxonomy_id: z.number(),
  taxonomy: wireTaxonomy,
  description: z.string(),
  parent: z.number(),
  count: z.number(),
  filter: z.literal('raw'),
  id: z.number(),
  urls: wireTermUrls,
});
export type WireEmbeddedTerm = z.infer<typeof wireEmbeddedTerm>;

/** A category or tag from `/categories`, `/tags` and their single routes (WP core terms controller shape). */
const wireTerm = z.object({
  id: z.number(),
  count: z.number(),
  description: z.string(),
  name: z.string(),
  slug: z.string(),
  taxonomy: wireTaxonomy,
  /** Categories only: tags are not hierarchical. */
  parent: z.number().optional(),
  /** Usually `[]`. */
  meta: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]),
  /** Term archive permalink. */
  url: z.string(),
  urls: wireTermUrls,
});
export type WireTerm = z.infer<typeof wireTerm>;

/** The post fields venues and organizers share; empty ones are omitted. */
const wireLinkedPost = z.object({
  id: z.number(),
  /** Numeric string; omitted when "0". */
  author: z.string().optional(),
  status: z.string().optional(),
  date: wireDateTime.optional(),
  date_utc: wireDateTime.optional(),
  modified: wireDateTime.optional(),
  modified_utc: wireDateTime.optional(),
  url: z.string().optional(),
  description: z.string().optional(),
  excerpt: z.string().optional(),
  slug: z.string().optional(),
  image: wireImage.optional(),
  phone: z.string().optional(),
  website: z.string().optional(),
  /** Only on single GETs. */
  json_ld: z.record(z.string(), z.unknown()).optional(),
  global_id: z.string(),
  global_id_lineage: z.array(z.string()),
});

/** A venue's postal address, as read and as written. */
const wireAddress = z.object({
  address: z.string().optional(),
  city: z.string().optional(),
  country: z.string().optional(),
  province: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
  stateprovince: z.string().optional(),
});
export type WireAddress = z.infer<typeof wireAddress>;

/** Venue: every key except the last four is omitted when empty. */
const wireVenue = wireLinkedPost.extend(wireAddress.shape).extend({
  /** The venue name (HTML entities kept); `[]` on a password-protected venue (plugin quirk). */
  venue: z.union([z.string(), z.tuple([])]).optional(),
  /** Only with Events Calendar Pro geolocation. */
  geo_lat: z.number().optional(),
  geo_lng: z.number().optional(),
  /** Default true; `null` on a password-protected venue. */
  show_map: z.boolean().nullable(),
  show_map_link: z.boolean().nullable(),
});
export type WireVenue = z.infer<typeof wireVenue>;

/** Organizer: the whole object is filtered, so every empty key is omitted. */
const wireOrganizer = wireLinkedPost.extend({
  /** The organizer name; `[]` on a password-protected organizer (plugin quirk). */
  organizer: z.union([z.string(), z.tuple([])]).optional(),
  email: z.string().optional(),
});
export type WireOrganizer = z.infer<typeof wireOrganizer>;

const wireCustomField = z.object({ label: z.string(), value: z.string() });

/** All keys always present, in this order. */
const wireEvent = z.object({
  id: z.number(),
  /** `host[/path]?id=N`, no scheme. */
  global_id: z.string(),
  global_id_lineage: z.array(z.string()),
  /** Numeric string, e.g. `"1"`. */
  author: z.string(),
  status: z.string(),
  date: wireDateTime,
  date_utc: wireDateTime,
  modified: wireDateTime,
  modified_utc: wireDateTime,
  url: z.string(),
  rest_url: z.string(),
  /** HTML entities kept (`&amp;`, `&#8217;`, `&#8211;`). */
  title: z.string(),
  /** HTML (`<p>…</p>`) or `""`. */
  description: z.string(),
  excerpt: z.string(),
  slug: z.string(),
  image: z.union([z.literal(false), wireImage]),
  /** `null` on password-protected events in lists. */
  all_day: z.boolean().nullable(),
  /** Event-local time (see `timezone`). All-day: `… 00:00:00` to `… 23:59:59`. */
  start_date: wireDateTime,
  start_date_details: wireDateDetails,
  end_date: wireDateTime,
  end_date_details: wireDateDetails,
  utc_start_date: wireDateTime,
  utc_start_date_details: wireDateDetails,
  utc_end_date: wireDateTime,
  utc_end_date_details: wireDateDetails,
  /** IANA name or `UTC+2`-style; `""` when unknown. */
  timezone: z.string(),
  timezone_abbr: z.string(),
  /** Display string with symbol: `"$10"`, `"€5 – €20"`, `"Free"`, `""`. */
  cost: z.string(),
  cost_details: wireCostDetails,
  /** Falls back to the permalink when the event has no website meta; `""` when set empty. */
  website: z.string(),
  show_map: z.boolean().nullable(),
  show_map_link: z.boolean().nullable(),
  hide_from_listings: z.boolean().nullable(),
  sticky: z.boolean().nullable(),
  featured: z.boolean().nullable(),
  categories: z.array(wireEmbeddedTerm),
  tags: z.array(wireEmbeddedTerm),
  /** One venue → object, none → `[]`, several → list. */
  venue: z.union([wireVenue, z.tuple([]), z.array(wireVenue)]),
  /** Always a list. */
  organizer: z.array(wireOrganizer),
  /** `[]` when none, else keyed by meta key (e.g. `_ecp_custom_2`). */
  custom_fields: z.union([z.tuple([]), z.record(z.string(), wireCustomField)]),
  /** Only on `GET /events/{id}` and `/events/by-slug/{slug}`. */
  json_ld: z.record(z.string(), z.unknown()).optional(),
});
export type WireEvent = z.infer<typeof wireEvent>;

// ---------------------------------------------------------------------------------------------
// Collections. `next_rest_url`/`previous_rest_url` are absent (not null) when not applicable.
// Headers: `X-TEC-Total`, `X-TEC-TotalPages`.

const wirePaging = z.object({
  rest_url: z.string(),
  next_rest_url: z.string().optional(),
  previous_rest_url: z.string().optional(),
  total: z.number(),
  /** `ceil(total / per_page)`, 0 when total is 0. */
  total_pages: z.number(),
});

export const wireEventsPage = wirePaging.extend({ events: z.array(wireEvent) });
export type WireEventsPage = z.infer<typeof wireEventsPage>;

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

/** The post fields venue and organizer writes share. */
interface WireLinkedPostWrite {
  author?: number;
  date?: string;
  date_utc?: string;
  description?: string;
  status?: string;
  phone?: string;
  website?: string;
  image?: string;
}

export interface WireVenueWrite extends WireLinkedPostWrite, WireAddress {
  venue?: string;
  show_map?: string | boolean;
  show_map_link?: string | boolean;
}

export interface WireOrganizerWrite extends WireLinkedPostWrite {
  organizer?: string;
  email?: string;
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
export const eventShape = wireEvent.pick({
  id: true,
  title: true,
  slug: true,
  status: true,
  start_date: true,
  end_date: true,
  utc_start_date: true,
  utc_end_date: true,
});

/** Venues and organizers: the id (the name has a plugin quirk of its own and a fallback). */
export const linkedPostShape = wireLinkedPost.pick({ id: true });

/** Categories and tags. */
export const termShape = wireTerm.pick({ id: true, name: true, slug: true });

/** An archive page whose items sit under `key`, each checked with `item`. */
export const archivePageShape = <K extends string, S extends z.ZodType>(key: K, item: S) =>
  z.object({ [key]: z.array(item) } as Record<K, z.ZodArray<S>>);

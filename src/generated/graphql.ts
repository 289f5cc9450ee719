/* eslint-disable */
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  /** The `ID` scalar type represents a unique identifier, often used to refetch an object or as key for a cache. The ID type appears in a JSON response as a String; however, it is not intended to be human-readable. When expected as an input type, any string (such as `"4"`) or integer (such as `4`) input value will be accepted as an ID. */
  ID: { input: string; output: string; }
  /** The `String` scalar type represents textual data, represented as UTF-8 character sequences. The String type is most often used by GraphQL to represent free-form human-readable text. */
  String: { input: string; output: string; }
  /** The `Boolean` scalar type represents `true` or `false`. */
  Boolean: { input: boolean; output: boolean; }
  /** The `Int` scalar type represents non-fractional signed whole numeric values. Int can represent values between -(2^31) and 2^31 - 1. */
  Int: { input: number; output: number; }
  /** The `Float` scalar type represents signed double-precision fractional values as specified by [IEEE 754](https://en.wikipedia.org/wiki/IEEE_floating_point). */
  Float: { input: number; output: number; }
  /** A calendar day without a time or a time zone, `YYYY-MM-DD` (e.g. `2027-03-01`), for all-day values. */
  Date: { input: any; output: any; }
  /** A date-time. Output: RFC 3339 / ISO 8601 with a time-zone offset, e.g. `2027-03-01T18:00:00+01:00` or `2026-01-05T09:30:00.000Z`. Input: the same, or a wall clock without an offset (`2027-03-01 18:00:00`), read in the calendar site's time zone (on event writes: the event's); a bare day (`2027-03-01`) only where the field says it takes whole days. */
  DateTime: { input: string; output: string; }
  /** An HTML fragment as the calendar stores it (e.g. `<p>…</p>`); render it as HTML, not as text. */
  HTML: { input: any; output: any; }
  /** The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSON: { input: unknown; output: unknown; }
  /** The `JSONObject` scalar type represents JSON objects as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSONObject: { input: Record<string, unknown>; output: Record<string, unknown>; }
  /** A field whose value is a generic Universally Unique Identifier: https://en.wikipedia.org/wiki/Universally_unique_identifier. */
  UUID: { input: string; output: string; }
  _Any: { input: unknown; output: unknown; }
};

/** A new attribute of a schema. */
export type AddSchemaAttributeInput = {
  /** Whether an answer outside the options is allowed. */
  allowOther?: InputMaybe<Scalars['Boolean']['input']>;
  /** What the attribute records (at most 1000 characters). */
  description?: InputMaybe<Scalars['String']['input']>;
  /** Whether values are stored encrypted. */
  encrypted?: InputMaybe<Scalars['Boolean']['input']>;
  /** The formula of a formula attribute. */
  formula?: InputMaybe<Scalars['String']['input']>;
  /** How many options a multi-select answer may hold (1 to 100). */
  maxSelectedOptions?: InputMaybe<Scalars['Int']['input']>;
  /** The attribute's name (1 to 255 characters). */
  name: Scalars['String']['input'];
  /** The options of a select attribute. */
  options?: InputMaybe<Array<AttributeOptionInput>>;
  /** Whether records must answer the attribute. */
  required?: InputMaybe<Scalars['Boolean']['input']>;
  /** How the attribute is answered. */
  responseType: AttributeResponseType;
};

/** Where an attribute of an entity comes from. */
export type AttributeGroup =
  /** A seeded free-text attribute of the entity type, such as `description`. */
  | 'BASE'
  /** An attribute a tenant added to the schema; its name is the generated field name. */
  | 'CUSTOM'
  /** A seeded option attribute of the entity type (its values are selected options with option keys). */
  | 'EXTENDED_BASE';

/** The values to set on one attribute; an empty list clears it. */
export type AttributeInput = {
  /** The attribute's field name, e.g. `description`, `type` or a custom field name. */
  name: Scalars['String']['input'];
  /** The attribute's new values. */
  values: Array<AttributeValueInput>;
};

/** A new option of a select attribute. */
export type AttributeOptionInput = {
  /** The option's label (1 to 255 characters). */
  option: Scalars['String']['input'];
  /** The option's localisation key. */
  optionKey?: InputMaybe<Scalars['String']['input']>;
};

/** How an attribute is answered. */
export type AttributeResponseType =
  /** A date. */
  | 'DATE'
  /** A value computed by a formula. */
  | 'FORMULA'
  /** A level on a named scale. */
  | 'LEVEL'
  /** Several options of a list. */
  | 'MULTI_SELECT'
  /** A range of values. */
  | 'RANGE'
  /** A score. */
  | 'SCORE'
  /** One option of a list. */
  | 'SINGLE_SELECT'
  /** Free text. */
  | 'TEXT';

/** One value of an attribute: a text (`value`) or a selected option (`id`). */
export type AttributeValueInput = {
  /** The uuid of the option to select (option attributes). */
  id?: InputMaybe<Scalars['ID']['input']>;
  /** The text (text attributes), or the option's label. */
  value?: InputMaybe<Scalars['String']['input']>;
};

/** How the gateway learned of a change. */
export type ChangeOrigin =
  /** A mutation through the gateway (any replica). */
  | 'GATEWAY'
  /** Polling the upstream found it (a change made outside the gateway). */
  | 'POLL';

/** A new event category. */
export type CreateCategoryInput = {
  /** The description. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The name. */
  name: Scalars['String']['input'];
  /** The parent category (0 for top level). */
  parentId?: InputMaybe<Scalars['ID']['input']>;
  /** The URL slug; derived from the name when left out. */
  slug?: InputMaybe<Scalars['String']['input']>;
};

/** A new AI governance record. */
export type CreateEntityInput = {
  /** Initial attribute values. */
  attributes?: InputMaybe<Array<AttributeInput>>;
  /** The kind of record to create. */
  kind: EntityKind;
  /** The record's name (1 to 255 characters). */
  name: Scalars['String']['input'];
  /** The uuid of the organization that will own the record. */
  organizationId: Scalars['ID']['input'];
};

/** A new calendar event. */
export type CreateEventInput = {
  /** Whether the event lasts whole days. */
  allDay?: InputMaybe<Scalars['Boolean']['input']>;
  /** The categories, by id, slug or name; replaces the current ones. One the site does not have is a BAD_USER_INPUT listing the known slugs, before any write, unless `createMissingTerms` is true (then an unknown name creates the term). */
  categories?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The cost as text, e.g. `$10` or `5 - 20`. */
  cost?: InputMaybe<Scalars['String']['input']>;
  /** The description, as HTML. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** When the event ends (this or `endDay` is required). A wall clock without an offset (`2027-03-01 18:00:00`) is read in the event's time zone; a value with an offset is converted to it. */
  endDate?: InputMaybe<Scalars['DateTime']['input']>;
  /** The last day of an all-day event, instead of `endDate`; makes the event all-day. */
  endDay?: InputMaybe<Scalars['Date']['input']>;
  /** The excerpt, as HTML. */
  excerpt?: InputMaybe<Scalars['String']['input']>;
  /** Whether the event is featured. */
  featured?: InputMaybe<Scalars['Boolean']['input']>;
  /** Whether to hide the event from calendar lists. */
  hideFromListings?: InputMaybe<Scalars['Boolean']['input']>;
  /** The featured image, as an attachment id or an image URL to import. */
  image?: InputMaybe<Scalars['String']['input']>;
  /** Existing organizers of the event. */
  organizerIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** New organizers to create with the event (added to `organizerIds`). */
  organizers?: InputMaybe<Array<CreateOrganizerInput>>;
  /** The post status, e.g. PUBLISH or DRAFT. */
  postStatus?: InputMaybe<PostStatus>;
  /** Whether to show a map of the venue. */
  showMap?: InputMaybe<Scalars['Boolean']['input']>;
  /** Whether to show a link to a map of the venue. */
  showMapLink?: InputMaybe<Scalars['Boolean']['input']>;
  /** The URL slug; derived from the title when left out. */
  slug?: InputMaybe<Scalars['String']['input']>;
  /** When the event starts (this or `startDay` is required). A wall clock without an offset (`2027-03-01 18:00:00`) is read in the event's time zone; a value with an offset is converted to it. */
  startDate?: InputMaybe<Scalars['DateTime']['input']>;
  /** The first day of an all-day event, instead of `startDate`; makes the event all-day. */
  startDay?: InputMaybe<Scalars['Date']['input']>;
  /**
   * The post status as the upstream spells it, e.g. `publish`.
   * @deprecated Use `postStatus`, the PostStatus enum.
   */
  status?: InputMaybe<Scalars['String']['input']>;
  /** Whether to pin the event to the top of month views. */
  sticky?: InputMaybe<Scalars['Boolean']['input']>;
  /** The tags, by id, slug or name; replaces the current ones. One the site does not have is a BAD_USER_INPUT listing the known slugs, before any write, unless `createMissingTerms` is true (then an unknown name creates the term). */
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The event's time zone, e.g. `Europe/Berlin`; the site's when left out. */
  timezone?: InputMaybe<Scalars['String']['input']>;
  /** The title as plain text. */
  title: Scalars['String']['input'];
  /** A new venue to create with the event (instead of `venueId`). */
  venue?: InputMaybe<CreateVenueInput>;
  /** An existing venue for the event. */
  venueId?: InputMaybe<Scalars['ID']['input']>;
  /** The event's website URL. */
  website?: InputMaybe<Scalars['String']['input']>;
};

/** A new link between two records. */
export type CreateGovernanceLinkInput = {
  /** The link's own attributes, passed to the upstream as they are. */
  attributes?: InputMaybe<Scalars['JSONObject']['input']>;
  /** The first end (the source). */
  entity1: GovernanceLinkEndInput;
  /** The second end (the target). */
  entity2: GovernanceLinkEndInput;
  /** The uuid of the link type (a relationship type id); give this or `relationshipType`. */
  linkTypeId?: InputMaybe<Scalars['ID']['input']>;
  /** The name of the link type, e.g. `ai-system-composition` (see `relationshipTypes`); an unknown name is a BAD_USER_INPUT that lists the known ones. */
  relationshipType?: InputMaybe<Scalars['String']['input']>;
};

/** A new organizer. */
export type CreateOrganizerInput = {
  /** The description, as HTML. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The contact email address. */
  email?: InputMaybe<Scalars['String']['input']>;
  /** The featured image, as an attachment id or an image URL. */
  image?: InputMaybe<Scalars['String']['input']>;
  /** The organizer name. */
  name: Scalars['String']['input'];
  /** The contact phone number. */
  phone?: InputMaybe<Scalars['String']['input']>;
  /** The post status, e.g. PUBLISH. */
  postStatus?: InputMaybe<PostStatus>;
  /**
   * The post status as the upstream spells it, e.g. `publish`.
   * @deprecated Use `postStatus`, the PostStatus enum.
   */
  status?: InputMaybe<Scalars['String']['input']>;
  /** The website URL. */
  website?: InputMaybe<Scalars['String']['input']>;
};

/** A new event tag. */
export type CreateTagInput = {
  /** The description. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The name. */
  name: Scalars['String']['input'];
  /** The URL slug; derived from the name when left out. */
  slug?: InputMaybe<Scalars['String']['input']>;
};

/** A new venue. */
export type CreateVenueInput = {
  /** The street address. */
  address?: InputMaybe<Scalars['String']['input']>;
  /** The city. */
  city?: InputMaybe<Scalars['String']['input']>;
  /** The country. */
  country?: InputMaybe<Scalars['String']['input']>;
  /** The description, as HTML. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The featured image, as an attachment id or an image URL. */
  image?: InputMaybe<Scalars['String']['input']>;
  /** The venue name. */
  name: Scalars['String']['input'];
  /** The phone number. */
  phone?: InputMaybe<Scalars['String']['input']>;
  /** The post status, e.g. PUBLISH. */
  postStatus?: InputMaybe<PostStatus>;
  /** The province. */
  province?: InputMaybe<Scalars['String']['input']>;
  /** Whether to show a map of the venue. */
  showMap?: InputMaybe<Scalars['Boolean']['input']>;
  /** Whether to show a link to a map of the venue. */
  showMapLink?: InputMaybe<Scalars['Boolean']['input']>;
  /** The state. */
  state?: InputMaybe<Scalars['String']['input']>;
  /** The state or province as one value. */
  stateProvince?: InputMaybe<Scalars['String']['input']>;
  /**
   * The post status as the upstream spells it, e.g. `publish`.
   * @deprecated Use `postStatus`, the PostStatus enum.
   */
  status?: InputMaybe<Scalars['String']['input']>;
  /** The website URL. */
  website?: InputMaybe<Scalars['String']['input']>;
  /** The postal code. */
  zip?: InputMaybe<Scalars['String']['input']>;
};

/** Where the gateway learned a discovered name. */
export type DiscoverySource =
  /** The gateway's configuration (GOVERNANCE_DISCOVERY_FILE). */
  | 'CONFIGURED'
  /** The platform's documentation (a default of the gateway). */
  | 'DOCUMENTED'
  /** An upstream answer the gateway has seen, read with the gateway's own credential. */
  | 'OBSERVED';

/** The kind of an AI governance record. Records of other kinds (vendors, assets, …) can appear at the other end of a link but have no kind. */
export type EntityKind =
  /** An autonomous or assistive AI agent (entity type `aiagents`). */
  | 'AI_AGENT'
  /** An AI system built from models, datasets and agents (entity type `aisystems`). */
  | 'AI_SYSTEM'
  /** A dataset used to train, test or run models (entity type `datasets`). */
  | 'DATASET'
  /** A machine learning or AI model (entity type `models`). */
  | 'MODEL';

/** Which way a link points, seen from the entity it was listed for. */
export type EntityLinkDirection =
  /** The entity is the link's target (its second end). */
  | 'INCOMING'
  /** The entity is the link's source (its first end). */
  | 'OUTGOING';

/** The order of an entity's links. */
export type EntityLinkOrder =
  /** By link id, ascending. */
  | 'ID_ASC'
  /** By link id, descending (the upstream's default). */
  | 'ID_DESC'
  /** By link id, descending. */
  | 'NEWEST_FIRST'
  /** By link id, ascending. */
  | 'OLDEST_FIRST';

/** Conditions on the events listed; all optional, combined with AND. Without dates the upstream lists events from yesterday to 24 months ahead. */
export type EventFilter = {
  /** Only events in any of these categories, given by id or slug. */
  categories?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Only events ending on or before this date (whole days unless `strictDates`). A wall clock without an offset is read in the site's time zone. A bare day (`2027-03-01`) is that whole day, as `endDay`. */
  endDate?: InputMaybe<Scalars['DateTime']['input']>;
  /** Only events ending on or before this day (to its last second, site time); instead of `endDate`. */
  endDay?: InputMaybe<Scalars['Date']['input']>;
  /** Only events ending after this time; use it to include events in progress. A wall clock without an offset is read in the site's time zone. Give a time too; for whole days use `startDay`/`endDay`. */
  endsAfter?: InputMaybe<Scalars['DateTime']['input']>;
  /** Only events ending before this time. A wall clock without an offset is read in the site's time zone. Give a time too; for whole days use `startDay`/`endDay`. */
  endsBefore?: InputMaybe<Scalars['DateTime']['input']>;
  /** Leave out the events with these ids (at most 50), e.g. the event a page shows under its venue's `events`. The upstream has no such filter: the gateway reads as many more rows as it leaves out, so a page stays full; `totalCount` leaves out the excluded events it read. Lists only (`eventsChanged` refuses it). */
  exclude?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** Only featured events (true) or only events that are not featured (false). */
  featured?: InputMaybe<Scalars['Boolean']['input']>;
  /** Only events whose venue has (true) or lacks (false) geolocation data; needs Events Calendar Pro upstream. */
  geoloc?: InputMaybe<Scalars['Boolean']['input']>;
  /** The latitude to search near; give it together with `geolocLng`. */
  geolocLat?: InputMaybe<Scalars['Float']['input']>;
  /** The longitude to search near; give it together with `geolocLat`. */
  geolocLng?: InputMaybe<Scalars['Float']['input']>;
  /** Only the events with these ids; the upstream then ignores the date filters. */
  include?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** Only events by any of these organizers (ids). */
  organizers?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** Only events whose parent (a recurring series) is this event id. */
  postParent?: InputMaybe<Scalars['ID']['input']>;
  /** Only events with this text in their title or description. */
  search?: InputMaybe<Scalars['String']['input']>;
  /** Only events starting on or after this date (whole days unless `strictDates`). A wall clock without an offset is read in the site's time zone. A bare day (`2027-03-01`) is that whole day, as `startDay`. */
  startDate?: InputMaybe<Scalars['DateTime']['input']>;
  /** Only events starting on or after this day (from its first second, site time); instead of `startDate`. */
  startDay?: InputMaybe<Scalars['Date']['input']>;
  /** Only events starting after this time. A wall clock without an offset is read in the site's time zone. Give a time too; for whole days use `startDay`/`endDay`. */
  startsAfter?: InputMaybe<Scalars['DateTime']['input']>;
  /** Only events starting before this time. A wall clock without an offset is read in the site's time zone. Give a time too; for whole days use `startDay`/`endDay`. */
  startsBefore?: InputMaybe<Scalars['DateTime']['input']>;
  /**
   * Only events with these post statuses as the upstream spells them, e.g. `publish`.
   * @deprecated Use `statuses`, a list of the PostStatus enum.
   */
  status?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Only events with these post statuses; statuses other than PUBLISH need credentials that may see them. */
  statuses?: InputMaybe<Array<PostStatus>>;
  /** When true the given times are used exactly; when false (the default) whole days are included. */
  strictDates?: InputMaybe<Scalars['Boolean']['input']>;
  /** Only events with any of these tags, given by id or slug. */
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Only events with tickets (true) or without (false); needs the ticketing add-on upstream. */
  ticketed?: InputMaybe<Scalars['Boolean']['input']>;
  /** Only events at any of these venues (ids). */
  venues?: InputMaybe<Array<Scalars['ID']['input']>>;
};

/** How a filter compares a field with its values. */
export type GovernanceFilterOperator =
  /** The field equals one of the values. */
  | 'EQUAL_TO'
  /** The field is greater than the value. */
  | 'GREATER_THAN'
  /** The field is greater than or equal to the value. */
  | 'GREATER_THAN_EQUAL_TO'
  /** The field is less than the value. */
  | 'LESS_THAN'
  /** The field is less than or equal to the value. */
  | 'LESS_THAN_EQUAL_TO'
  /** The field equals none of the values. */
  | 'NOT_EQUAL_TO';

/** One end of a new link: a record and, optionally, its kind or type name. */
export type GovernanceLinkEndInput = {
  /** The record's id (`id` of an entity or a link end), or its uuid. */
  id: Scalars['ID']['input'];
  /** The record's kind; looked up when omitted. */
  kind?: InputMaybe<EntityKind>;
  /** The record's entity type name, for records outside AI governance such as `vendors`. */
  typeName?: InputMaybe<Scalars['String']['input']>;
};

/** The order of a list sorted by name. */
export type GovernanceNameOrder =
  /** By name, A to Z (the default). */
  | 'NAME_ASC'
  /** By name, Z to A. */
  | 'NAME_DESC';

/** Which organizations' records a search covers, relative to the organization it looks from (`organizationId`, else the caller's). */
export type GovernanceOrganizationTraversal =
  /** Every organization of the tenant. */
  | 'ALL'
  /** The caller's organization, its parents and its children. */
  | 'ANCESTORS_AND_DESCENDANTS'
  /** The caller's organization and its children. */
  | 'DESCENDANTS';

/** A condition on a field of the records searched, e.g. `{ field: "type", values: ["<option uuid>"] }`. */
export type GovernanceRecordFilter = {
  /** The field to test, e.g. `source` or `type` (option attributes take option uuids). */
  field: Scalars['String']['input'];
  /** How to compare; equality by default. */
  operator?: InputMaybe<GovernanceFilterOperator>;
  /** The values to compare with. */
  values: Array<Scalars['String']['input']>;
};

/** Which record to move, and to which stage of its workflow. */
export type MoveEntityToStageInput = {
  /** The uuid of the record to move. */
  entityId: Scalars['ID']['input'];
  /** Whether the workflow's rules run on the move. */
  executeRule?: InputMaybe<Scalars['Boolean']['input']>;
  /** The name of the stage to move to, e.g. `Development`. */
  nextStageName: Scalars['String']['input'];
  /** The workflow type uuid; taken from the record's type when omitted. */
  workflowType?: InputMaybe<Scalars['ID']['input']>;
};

/** The status of a WordPress post (event, venue or organizer). */
export type PostStatus =
  /** A draft. */
  | 'DRAFT'
  /** Scheduled to be published later. */
  | 'FUTURE'
  /** A status a plugin of the site registered; the raw value is in `status`. Output only. */
  | 'OTHER'
  /** Waiting for review. */
  | 'PENDING'
  /** Visible only to users who may read private posts. */
  | 'PRIVATE'
  /** Published: visible to everyone. */
  | 'PUBLISH'
  /** In the trash (deleted, but restorable on the site). */
  | 'TRASH';

/** The direction of a category or tag list's order; only for the deprecated one-word `orderBy` values. */
export type TermOrder =
  /** Ascending (the default). */
  | 'ASC'
  /** Descending. */
  | 'DESC';

/** The order of a category or tag list, as `FIELD_DIRECTION`. */
export type TermOrderBy =
  /** The number of events, in the direction of `order`. */
  | 'COUNT'
  /** The number of events, ascending. */
  | 'COUNT_ASC'
  /** The number of events, descending. */
  | 'COUNT_DESC'
  /** The description, in the direction of `order`. */
  | 'DESCRIPTION'
  /** The description, ascending. */
  | 'DESCRIPTION_ASC'
  /** The description, descending. */
  | 'DESCRIPTION_DESC'
  /** The id, in the direction of `order`. */
  | 'ID'
  /** The id, ascending. */
  | 'ID_ASC'
  /** The id, descending. */
  | 'ID_DESC'
  /** The order of the ids given in `include`. */
  | 'INCLUDE'
  /** The order of the ids given in `include`. */
  | 'INCLUDE_ORDER'
  /** The name, in the direction of `order`. */
  | 'NAME'
  /** The name, ascending (the default). */
  | 'NAME_ASC'
  /** The name, descending. */
  | 'NAME_DESC'
  /** The slug, in the direction of `order`. */
  | 'SLUG'
  /** The slug, ascending. */
  | 'SLUG_ASC'
  /** The slug, descending. */
  | 'SLUG_DESC';

/** Changes to an event category; fields left out keep their values. */
export type UpdateCategoryInput = {
  /** The description. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The name. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** The parent category (0 for top level). */
  parentId?: InputMaybe<Scalars['ID']['input']>;
  /** The URL slug; derived from the name when left out. */
  slug?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a record; fields left out keep their values. */
export type UpdateEntityInput = {
  /** Attributes to change; attributes left out keep their values. */
  attributes?: InputMaybe<Array<AttributeInput>>;
  /** The record's new name (1 to 255 characters). */
  name?: InputMaybe<Scalars['String']['input']>;
  /** The uuid of the organization that will own the record. */
  organizationId?: InputMaybe<Scalars['ID']['input']>;
};

/** Changes to a calendar event; fields left out keep their values. */
export type UpdateEventInput = {
  /** Whether the event lasts whole days. */
  allDay?: InputMaybe<Scalars['Boolean']['input']>;
  /** The categories, by id, slug or name; replaces the current ones. One the site does not have is a BAD_USER_INPUT listing the known slugs, before any write, unless `createMissingTerms` is true (then an unknown name creates the term). */
  categories?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The cost as text, e.g. `$10` or `5 - 20`. */
  cost?: InputMaybe<Scalars['String']['input']>;
  /** The description, as HTML. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** When the event ends. A wall clock without an offset (`2027-03-01 18:00:00`) is read in the event's time zone; a value with an offset is converted to it. */
  endDate?: InputMaybe<Scalars['DateTime']['input']>;
  /** The last day of an all-day event, instead of `endDate`; makes the event all-day. */
  endDay?: InputMaybe<Scalars['Date']['input']>;
  /** The excerpt, as HTML. */
  excerpt?: InputMaybe<Scalars['String']['input']>;
  /** Whether the event is featured. */
  featured?: InputMaybe<Scalars['Boolean']['input']>;
  /** Whether to hide the event from calendar lists. */
  hideFromListings?: InputMaybe<Scalars['Boolean']['input']>;
  /** The featured image, as an attachment id or an image URL to import. */
  image?: InputMaybe<Scalars['String']['input']>;
  /** Existing organizers of the event, replacing the current ones; null or [] removes them. */
  organizerIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** New organizers to create and add to the event: to those of `organizerIds`, or to the current ones when `organizerIds` is left out. */
  organizers?: InputMaybe<Array<CreateOrganizerInput>>;
  /** The post status, e.g. PUBLISH or DRAFT. */
  postStatus?: InputMaybe<PostStatus>;
  /** Whether to show a map of the venue. */
  showMap?: InputMaybe<Scalars['Boolean']['input']>;
  /** Whether to show a link to a map of the venue. */
  showMapLink?: InputMaybe<Scalars['Boolean']['input']>;
  /** The URL slug; derived from the title when left out. */
  slug?: InputMaybe<Scalars['String']['input']>;
  /** When the event starts. A wall clock without an offset (`2027-03-01 18:00:00`) is read in the event's time zone; a value with an offset is converted to it. */
  startDate?: InputMaybe<Scalars['DateTime']['input']>;
  /** The first day of an all-day event, instead of `startDate`; makes the event all-day. */
  startDay?: InputMaybe<Scalars['Date']['input']>;
  /**
   * The post status as the upstream spells it, e.g. `publish`.
   * @deprecated Use `postStatus`, the PostStatus enum.
   */
  status?: InputMaybe<Scalars['String']['input']>;
  /** Whether to pin the event to the top of month views. */
  sticky?: InputMaybe<Scalars['Boolean']['input']>;
  /** The tags, by id, slug or name; replaces the current ones. One the site does not have is a BAD_USER_INPUT listing the known slugs, before any write, unless `createMissingTerms` is true (then an unknown name creates the term). */
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The event's time zone, e.g. `Europe/Berlin`; the site's when left out. */
  timezone?: InputMaybe<Scalars['String']['input']>;
  /** The title as plain text. */
  title?: InputMaybe<Scalars['String']['input']>;
  /** A new venue to create and give the event instead of its current one (instead of `venueId`). */
  venue?: InputMaybe<CreateVenueInput>;
  /** An existing venue for the event; null removes the venue. */
  venueId?: InputMaybe<Scalars['ID']['input']>;
  /** The event's website URL. */
  website?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to an organizer; fields left out keep their values. */
export type UpdateOrganizerInput = {
  /** The description, as HTML. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The contact email address. */
  email?: InputMaybe<Scalars['String']['input']>;
  /** The featured image, as an attachment id or an image URL. */
  image?: InputMaybe<Scalars['String']['input']>;
  /** The organizer name. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** The contact phone number. */
  phone?: InputMaybe<Scalars['String']['input']>;
  /** The post status, e.g. PUBLISH. */
  postStatus?: InputMaybe<PostStatus>;
  /**
   * The post status as the upstream spells it, e.g. `publish`.
   * @deprecated Use `postStatus`, the PostStatus enum.
   */
  status?: InputMaybe<Scalars['String']['input']>;
  /** The website URL. */
  website?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to an event tag; fields left out keep their values. */
export type UpdateTagInput = {
  /** The description. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The name. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** The URL slug; derived from the name when left out. */
  slug?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a venue; fields left out keep their values. */
export type UpdateVenueInput = {
  /** The street address. */
  address?: InputMaybe<Scalars['String']['input']>;
  /** The city. */
  city?: InputMaybe<Scalars['String']['input']>;
  /** The country. */
  country?: InputMaybe<Scalars['String']['input']>;
  /** The description, as HTML. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** The featured image, as an attachment id or an image URL. */
  image?: InputMaybe<Scalars['String']['input']>;
  /** The venue name. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** The phone number. */
  phone?: InputMaybe<Scalars['String']['input']>;
  /** The post status, e.g. PUBLISH. */
  postStatus?: InputMaybe<PostStatus>;
  /** The province. */
  province?: InputMaybe<Scalars['String']['input']>;
  /** Whether to show a map of the venue. */
  showMap?: InputMaybe<Scalars['Boolean']['input']>;
  /** Whether to show a link to a map of the venue. */
  showMapLink?: InputMaybe<Scalars['Boolean']['input']>;
  /** The state. */
  state?: InputMaybe<Scalars['String']['input']>;
  /** The state or province as one value. */
  stateProvince?: InputMaybe<Scalars['String']['input']>;
  /**
   * The post status as the upstream spells it, e.g. `publish`.
   * @deprecated Use `postStatus`, the PostStatus enum.
   */
  status?: InputMaybe<Scalars['String']['input']>;
  /** The website URL. */
  website?: InputMaybe<Scalars['String']['input']>;
  /** The postal code. */
  zip?: InputMaybe<Scalars['String']['input']>;
};

/** How a workflow is configured. */
export type WorkflowMode =
  /** An advanced workflow, with approvals, rules and exception stages. */
  | 'ADVANCED'
  /** A basic workflow: stages in sequence. */
  | 'BASIC';

export type AccountBudgetQueryVariables = Exact<{ [key: string]: never; }>;


export type AccountBudgetQuery = { __typename?: 'Query', budget?: Array<{ __typename?: 'UpstreamBudget', upstream?: string | null, shared?: boolean | null, pausedForMs?: number | null, ramping?: boolean | null, rules?: Array<{ __typename?: 'BudgetRule', rule?: string | null, allowed?: number | null, remaining?: number | null, windowMs?: number | null, nextSlotInMs?: number | null }> | null }> | null };

export type FindEventsQueryVariables = Exact<{
  search?: InputMaybe<Scalars['String']['input']>;
  startsAfter?: InputMaybe<Scalars['DateTime']['input']>;
  startsBefore?: InputMaybe<Scalars['DateTime']['input']>;
  categories?: InputMaybe<Array<Scalars['String']['input']> | Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type FindEventsQuery = { __typename?: 'Query', events?: { __typename?: 'EventConnection', totalCount?: number | null, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, edges: Array<{ __typename?: 'EventEdge', cursor: string, node: { __typename?: 'Event', id: string, title: string, startDate: string, endDate: string, version: string, venue?: { __typename?: 'Venue', name: string } | null, categories: Array<{ __typename?: 'Category', name: string }> } }> } | null };

export type GetEventQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type GetEventQuery = { __typename?: 'Query', event?: { __typename?: 'Event', excerpt: any, timezone?: string | null, allDay?: boolean | null, url: string, id: string, title: string, startDate: string, endDate: string, version: string, venue?: { __typename?: 'Venue', id: string, name: string, address?: string | null, city?: string | null, country?: string | null } | null, organizers: Array<{ __typename?: 'Organizer', id: string, name: string, email?: string | null }>, categories: Array<{ __typename?: 'Category', name: string }>, tags: Array<{ __typename?: 'Tag', name: string }> } | null };

export type CreateEventMutationVariables = Exact<{
  input: CreateEventInput;
  clientMutationId?: InputMaybe<Scalars['String']['input']>;
}>;


export type CreateEventMutation = { __typename?: 'Mutation', createEvent?: { __typename?: 'Event', url: string, id: string, title: string, startDate: string, endDate: string, version: string } | null };

export type UpdateEventMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  input: UpdateEventInput;
  expectedVersion?: InputMaybe<Scalars['String']['input']>;
}>;


export type UpdateEventMutation = { __typename?: 'Mutation', updateEvent?: { __typename?: 'Event', id: string, title: string, startDate: string, endDate: string, version: string } | null };

export type DeleteEventMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type DeleteEventMutation = { __typename?: 'Mutation', deleteEvent?: { __typename?: 'DeleteEventPayload', deletedId: string } | null };

export type FindEntitiesQueryVariables = Exact<{
  kind?: InputMaybe<EntityKind>;
  stage?: InputMaybe<Scalars['String']['input']>;
  search?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type FindEntitiesQuery = { __typename?: 'Query', entities?: { __typename?: 'EntityConnection', totalCount?: number | null, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, edges: Array<{ __typename?: 'EntityEdge', cursor: string, node: { __typename?: 'Entity', updatedAt: string, id: string, number: number, name: string, kind?: EntityKind | null, type: { __typename?: 'EntityType', name: string }, workflowStage?: { __typename?: 'EntityStage', name: string } | null } }> } | null };

export type GetEntityQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type GetEntityQuery = { __typename?: 'Query', entity?: { __typename?: 'Entity', version: string, organizationId: string, id: string, number: number, name: string, kind?: EntityKind | null, workflowStage?: { __typename?: 'EntityStage', workflowType: string, name: string } | null, attributes: Array<{ __typename?: 'EntityAttribute', name: string, values: Array<{ __typename?: 'AttributeValue', id: string, value: string }> }>, links?: { __typename?: 'EntityLinkConnection', totalCount?: number | null, nodes: Array<{ __typename?: 'GovernanceLink', id: string, label: string, direction: EntityLinkDirection, relationshipType?: { __typename?: 'RelationshipType', id: string } | null, counterpart: { __typename?: 'Entity', id: string, name: string, kind?: EntityKind | null } | { __typename?: 'GovernanceLinkedRecord', id: string, name: string, kind?: EntityKind | null } }> } | null, type: { __typename?: 'EntityType', name: string } } | null };

export type DescribeGovernanceModelQueryVariables = Exact<{ [key: string]: never; }>;


export type DescribeGovernanceModelQuery = { __typename?: 'Query', entityTypes?: { __typename?: 'EntityTypeConnection', nodes: Array<{ __typename?: 'EntityType', id: string, name: string, kind?: EntityKind | null, workflow?: { __typename?: 'EntityTypeWorkflow', stages: Array<{ __typename?: 'KnownWorkflowStage', name: string }> } | null }> } | null, relationshipTypes: Array<{ __typename?: 'KnownRelationshipType', name: string, forwardLabel?: string | null, reverseLabel?: string | null, ends: Array<{ __typename?: 'RelationshipEnds', firstKind?: EntityKind | null, secondKind?: EntityKind | null }> }>, organizations: Array<{ __typename?: 'GovernanceOrganization', id: string, name?: string | null }> };

export type RegisterEntityMutationVariables = Exact<{
  kind: EntityKind;
  name: Scalars['String']['input'];
  organizationId: Scalars['ID']['input'];
  clientMutationId?: InputMaybe<Scalars['String']['input']>;
}>;


export type RegisterEntityMutation = { __typename?: 'Mutation', createEntity?: { __typename?: 'Entity', id: string, number: number, name: string, kind?: EntityKind | null, version: string, workflowStage?: { __typename?: 'EntityStage', name: string } | null } | null };

export type LinkEntitiesMutationVariables = Exact<{
  input: CreateGovernanceLinkInput;
  clientMutationId?: InputMaybe<Scalars['String']['input']>;
}>;


export type LinkEntitiesMutation = { __typename?: 'Mutation', createLink?: { __typename?: 'GovernanceLink', id: string, forwardLabel: string, entity1: { __typename?: 'Entity', id: string, name: string } | { __typename?: 'GovernanceLinkedRecord', id: string, name: string }, entity2: { __typename?: 'Entity', id: string, name: string } | { __typename?: 'GovernanceLinkedRecord', id: string, name: string } } | null };

export type MoveEntityToStageMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  stage: Scalars['String']['input'];
}>;


export type MoveEntityToStageMutation = { __typename?: 'Mutation', moveEntityToStage?: { __typename?: 'WorkflowStage', id: string, name: string, sequence: number } | null };

export type UpdateEntityMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  input: UpdateEntityInput;
  expectedVersion?: InputMaybe<Scalars['String']['input']>;
}>;


export type UpdateEntityMutation = { __typename?: 'Mutation', updateEntity?: { __typename?: 'Entity', id: string, name: string, version: string, attributes: Array<{ __typename?: 'EntityAttribute', name: string, values: Array<{ __typename?: 'AttributeValue', value: string }> }> } | null };

export type DeleteEntityMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type DeleteEntityMutation = { __typename?: 'Mutation', deleteEntity?: { __typename?: 'DeleteEntityPayload', deletedId: string } | null };

export type UnlinkEntitiesMutationVariables = Exact<{
  linkId: Scalars['ID']['input'];
  linkTypeId: Scalars['ID']['input'];
}>;


export type UnlinkEntitiesMutation = { __typename?: 'Mutation', deleteLink?: { __typename?: 'DeleteGovernanceLinkPayload', deletedId: string } | null };

export type EventGraphQueryVariables = Exact<{
  first?: Scalars['Int']['input'];
}>;


export type EventGraphQuery = { __typename?: 'Query', events?: { __typename?: 'EventConnection', nodes: Array<{ __typename?: 'Event', id: string, title: string, startDate: string, venue?: { __typename?: 'Venue', id: string, name: string, city?: string | null, country?: string | null, events?: { __typename?: 'EventConnection', nodes: Array<{ __typename?: 'Event', id: string, title: string }> } | null } | null, organizers: Array<{ __typename?: 'Organizer', id: string, name: string, email?: string | null, events?: { __typename?: 'EventConnection', nodes: Array<{ __typename?: 'Event', id: string, title: string, venue?: { __typename?: 'Venue', id: string, name: string } | null }> } | null }> }> } | null };

export type EventDetailsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type EventDetailsQuery = { __typename?: 'Query', event?: { __typename?: 'Event', allDay?: boolean | null, id: string, title: string, startDate: string, endDate: string, version: string, categories: Array<{ __typename?: 'Category', id: string, name: string }>, tags: Array<{ __typename?: 'Tag', id: string, name: string }> } | null };

export type CreateTagMutationVariables = Exact<{
  name: Scalars['String']['input'];
}>;


export type CreateTagMutation = { __typename?: 'Mutation', createTag?: { __typename?: 'Tag', id: string, name: string, slug: string } | null };

export type EntityCardFragment = { __typename?: 'Entity', id: string, number: number, name: string, kind?: EntityKind | null, type: { __typename?: 'EntityType', name: string }, workflowStage?: { __typename?: 'EntityStage', name: string } | null };

export type EventCardFragment = { __typename?: 'Event', id: string, title: string, startDate: string, endDate: string, version: string };

export type EntityGraphQueryVariables = Exact<{
  first?: Scalars['Int']['input'];
}>;


export type EntityGraphQuery = { __typename?: 'Query', entities?: { __typename?: 'EntityConnection', nodes: Array<{ __typename?: 'Entity', id: string, name: string, kind?: EntityKind | null, type: { __typename?: 'EntityType', name: string }, links?: { __typename?: 'EntityLinkConnection', totalCount?: number | null, nodes: Array<{ __typename?: 'GovernanceLink', id: string, label: string, relationshipType?: { __typename?: 'RelationshipType', id: string, name: string } | null, source: { __typename?: 'Entity', id: string, name: string } | { __typename?: 'GovernanceLinkedRecord', id: string, name: string }, target: { __typename?: 'Entity', id: string, name: string } | { __typename?: 'GovernanceLinkedRecord', id: string, name: string }, counterpart: { __typename?: 'Entity', id: string, name: string, typeName: string, kind?: EntityKind | null, deleted: boolean, entity?: { __typename?: 'Entity', id: string, number: number, name: string, kind?: EntityKind | null, type: { __typename?: 'EntityType', name: string }, workflowStage?: { __typename?: 'EntityStage', name: string } | null } | null } | { __typename?: 'GovernanceLinkedRecord', id: string, name: string, typeName: string, kind?: EntityKind | null, deleted: boolean, entity?: { __typename?: 'Entity', id: string, number: number, name: string, kind?: EntityKind | null, type: { __typename?: 'EntityType', name: string }, workflowStage?: { __typename?: 'EntityStage', name: string } | null } | null } }> } | null }> } | null };

export type AiSystemsInStageQueryVariables = Exact<{
  stage?: Scalars['String']['input'];
  first?: Scalars['Int']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type AiSystemsInStageQuery = { __typename?: 'Query', entities?: { __typename?: 'EntityConnection', totalCount?: number | null, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename?: 'Entity', id: string, name: string, workflowStage?: { __typename?: 'EntityStage', name: string } | null, links?: { __typename?: 'EntityLinkConnection', totalCount?: number | null, nodes: Array<{ __typename?: 'GovernanceLink', label: string, counterpart: { __typename?: 'Entity', id: string, name: string, kind?: EntityKind | null } | { __typename?: 'GovernanceLinkedRecord', id: string, name: string, kind?: EntityKind | null } }> } | null }> } | null };

export type DiscoveryPickersQueryVariables = Exact<{ [key: string]: never; }>;


export type DiscoveryPickersQuery = { __typename?: 'Query', relationshipTypes: Array<{ __typename?: 'KnownRelationshipType', name: string, forwardLabel?: string | null, sources: Array<DiscoverySource>, ends: Array<{ __typename?: 'RelationshipEnds', firstKind?: EntityKind | null, secondKind?: EntityKind | null }> }>, organizations: Array<{ __typename?: 'GovernanceOrganization', id: string, name?: string | null, parentId?: string | null, sources: Array<DiscoverySource> }> };

export type EntityDetailsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type EntityDetailsQuery = { __typename?: 'Query', entity?: { __typename?: 'Entity', id: string, number: number, name: string, kind?: EntityKind | null, type: { __typename?: 'EntityType', id: string, name: string }, workflowStage?: { __typename?: 'EntityStage', name: string } | null } | null };

export type EntityTypeListQueryVariables = Exact<{ [key: string]: never; }>;


export type EntityTypeListQuery = { __typename?: 'Query', entityTypes?: { __typename?: 'EntityTypeConnection', totalCount?: number | null, nodes: Array<{ __typename?: 'EntityType', id: string, name: string, enabled?: boolean | null }> } | null };

export const EntityCardFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EntityCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Entity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workflowStage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<EntityCardFragment, unknown>;
export const EventCardFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EventCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"startDate"}},{"kind":"Field","name":{"kind":"Name","value":"endDate"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<EventCardFragment, unknown>;
export const AccountBudgetDocument = {"__meta__":{"hash":"b944a2e73ec60c726757c47d7678e493b06bc1c25add0ded77038ee6b784fa45"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountBudget"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"budget"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"upstream"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"pausedForMs"}},{"kind":"Field","name":{"kind":"Name","value":"ramping"}},{"kind":"Field","name":{"kind":"Name","value":"rules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"allowed"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"windowMs"}},{"kind":"Field","name":{"kind":"Name","value":"nextSlotInMs"}}]}}]}}]}}]} as unknown as DocumentNode<AccountBudgetQuery, AccountBudgetQueryVariables>;
export const FindEventsDocument = {"__meta__":{"hash":"9192fd1cbb9b2739cca9bf0e492f4f718dfb94f1358b545d23cdc20702740cd5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FindEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"startsAfter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"startsBefore"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"categories"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"startsAfter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"startsAfter"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"startsBefore"},"value":{"kind":"Variable","name":{"kind":"Name","value":"startsBefore"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"categories"},"value":{"kind":"Variable","name":{"kind":"Name","value":"categories"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EventCard"}},{"kind":"Field","name":{"kind":"Name","value":"venue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"categories"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EventCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"startDate"}},{"kind":"Field","name":{"kind":"Name","value":"endDate"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<FindEventsQuery, FindEventsQueryVariables>;
export const GetEventDocument = {"__meta__":{"hash":"9fe2f4105d441a5567037db3f40d0b927c0abd947f63bee45dae521d338fad8d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GetEvent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"event"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EventCard"}},{"kind":"Field","name":{"kind":"Name","value":"excerpt"}},{"kind":"Field","name":{"kind":"Name","value":"timezone"}},{"kind":"Field","name":{"kind":"Name","value":"allDay"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"venue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"address"}},{"kind":"Field","name":{"kind":"Name","value":"city"}},{"kind":"Field","name":{"kind":"Name","value":"country"}}]}},{"kind":"Field","name":{"kind":"Name","value":"organizers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}},{"kind":"Field","name":{"kind":"Name","value":"categories"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"tags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EventCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"startDate"}},{"kind":"Field","name":{"kind":"Name","value":"endDate"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<GetEventQuery, GetEventQueryVariables>;
export const CreateEventDocument = {"__meta__":{"hash":"ba7a76dfabcfa02533afbd034acbc80cf8494fc08bf1461b5591450f04a29152"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateEvent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateEventInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientMutationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createEvent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"clientMutationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientMutationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EventCard"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EventCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"startDate"}},{"kind":"Field","name":{"kind":"Name","value":"endDate"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<CreateEventMutation, CreateEventMutationVariables>;
export const UpdateEventDocument = {"__meta__":{"hash":"c711684c970e64337ddabfb34fe454eba61a4dbb88401e4890707f36a012dac3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateEvent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateEventInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateEvent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EventCard"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EventCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"startDate"}},{"kind":"Field","name":{"kind":"Name","value":"endDate"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<UpdateEventMutation, UpdateEventMutationVariables>;
export const DeleteEventDocument = {"__meta__":{"hash":"163b98d339045204d5808eb882a905a3f227330d870a369d628724f86bed3652"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteEvent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteEvent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deletedId"}}]}}]}}]} as unknown as DocumentNode<DeleteEventMutation, DeleteEventMutationVariables>;
export const FindEntitiesDocument = {"__meta__":{"hash":"dc90554fcf3c6b8b984998b95a972a8aa4bc479399c6b08c1efd883abe723cdd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FindEntities"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EntityKind"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"stage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entities"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"stage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"stage"}}},{"kind":"Argument","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EntityCard"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EntityCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Entity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workflowStage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<FindEntitiesQuery, FindEntitiesQueryVariables>;
export const GetEntityDocument = {"__meta__":{"hash":"4d5489a23d53399c70e4d30258491ae0bf6c693372d14ee0390db54b6f7b73ce"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GetEntity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EntityCard"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"organizationId"}},{"kind":"Field","name":{"kind":"Name","value":"workflowStage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"workflowType"}}]}},{"kind":"Field","name":{"kind":"Name","value":"attributes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"values"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"links"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"relationshipType"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"direction"}},{"kind":"Field","name":{"kind":"Name","value":"counterpart"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EntityCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Entity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workflowStage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<GetEntityQuery, GetEntityQueryVariables>;
export const DescribeGovernanceModelDocument = {"__meta__":{"hash":"54201c01ef0dcd9806d62ba6728b924049af8ec629d9e39aa6d9d761b571ab2c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DescribeGovernanceModel"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entityTypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"workflow"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"stages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationshipTypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"forwardLabel"}},{"kind":"Field","name":{"kind":"Name","value":"reverseLabel"}},{"kind":"Field","name":{"kind":"Name","value":"ends"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"firstKind"}},{"kind":"Field","name":{"kind":"Name","value":"secondKind"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"organizations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DescribeGovernanceModelQuery, DescribeGovernanceModelQueryVariables>;
export const RegisterEntityDocument = {"__meta__":{"hash":"c3301d769aa0954f6b970072d521334e82022896fb3be56f58d0014421a6a806"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RegisterEntity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"EntityKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientMutationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createEntity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"organizationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"clientMutationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientMutationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"workflowStage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<RegisterEntityMutation, RegisterEntityMutationVariables>;
export const LinkEntitiesDocument = {"__meta__":{"hash":"48f59dcdc4ce05b631086898b9b63e7ca4486598227755a7596607851d539b94"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LinkEntities"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateGovernanceLinkInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientMutationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"clientMutationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientMutationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"forwardLabel"}},{"kind":"Field","name":{"kind":"Name","value":"entity1"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"entity2"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<LinkEntitiesMutation, LinkEntitiesMutationVariables>;
export const MoveEntityToStageDocument = {"__meta__":{"hash":"7dc8c78e2326dd1e1712d73524de9fb5df6e51a168229234e6ddf3c3e8c157af"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"MoveEntityToStage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"stage"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"moveEntityToStage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"entityId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"nextStageName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"stage"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"sequence"}}]}}]}}]} as unknown as DocumentNode<MoveEntityToStageMutation, MoveEntityToStageMutationVariables>;
export const UpdateEntityDocument = {"__meta__":{"hash":"a0dd0cc3a229ed1a38ea2bc213238c2de2473d1ef6bcb99f6fc4c4ea4d3fa1f0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateEntity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateEntityInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateEntity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"attributes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"values"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]}}]} as unknown as DocumentNode<UpdateEntityMutation, UpdateEntityMutationVariables>;
export const DeleteEntityDocument = {"__meta__":{"hash":"a1191406b3a2a8a733daca6e1a580a2d80f9e5bfb4cdf4a9d9a8cdeab7490990"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteEntity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteEntity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deletedId"}}]}}]}}]} as unknown as DocumentNode<DeleteEntityMutation, DeleteEntityMutationVariables>;
export const UnlinkEntitiesDocument = {"__meta__":{"hash":"9c13ea28c62aa48f7149a8eb0b64ceccd6be0d80e07d7e726b0e35b4724eba05"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UnlinkEntities"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"linkId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"linkTypeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"linkId"}}},{"kind":"Argument","name":{"kind":"Name","value":"linkTypeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"linkTypeId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deletedId"}}]}}]}}]} as unknown as DocumentNode<UnlinkEntitiesMutation, UnlinkEntitiesMutationVariables>;
export const EventGraphDocument = {"__meta__":{"hash":"a57bfc9b1b300b50f9405bc30cfc662a78d72aa6cf3a7cfaacc2e581531ca640"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EventGraph"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},"defaultValue":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"startDate"}},{"kind":"Field","name":{"kind":"Name","value":"venue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"city"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"3"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"organizers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"3"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"venue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<EventGraphQuery, EventGraphQueryVariables>;
export const EventDetailsDocument = {"__meta__":{"hash":"62db64900cfdb68986861b1d70d47f710699081968adf881bc85b3a64def79c5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EventDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"event"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EventCard"}},{"kind":"Field","name":{"kind":"Name","value":"allDay"}},{"kind":"Field","name":{"kind":"Name","value":"categories"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"tags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EventCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"startDate"}},{"kind":"Field","name":{"kind":"Name","value":"endDate"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]} as unknown as DocumentNode<EventDetailsQuery, EventDetailsQueryVariables>;
export const CreateTagDocument = {"__meta__":{"hash":"3c08fbb31bfe05ea51b872e5066a1fcab27d860d1841dfd4ddb4ad55b8c4947c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateTag"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createTag"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}}]}}]}}]} as unknown as DocumentNode<CreateTagMutation, CreateTagMutationVariables>;
export const EntityGraphDocument = {"__meta__":{"hash":"d6bc553b728619b62883f1f4cb1982095bdadd21b48b4fb7a52a027d8192aa27"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EntityGraph"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},"defaultValue":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entities"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"EnumValue","value":"AI_SYSTEM"}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"links"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"relationshipType"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"source"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"target"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"counterpart"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"typeName"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}},{"kind":"Field","name":{"kind":"Name","value":"entity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EntityCard"}}]}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EntityCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Entity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workflowStage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<EntityGraphQuery, EntityGraphQueryVariables>;
export const AiSystemsInStageDocument = {"__meta__":{"hash":"17e0312f85e1f2e633b0c8cb8e72f568fdd87291c54d4317333db576358181a9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AiSystemsInStage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"stage"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},"defaultValue":{"kind":"StringValue","value":"Development","block":false}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},"defaultValue":{"kind":"IntValue","value":"20"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entities"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"EnumValue","value":"AI_SYSTEM"}},{"kind":"Argument","name":{"kind":"Name","value":"stage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"stage"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"workflowStage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"links"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"counterpartKinds"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"DATASET"},{"kind":"EnumValue","value":"MODEL"}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"counterpart"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<AiSystemsInStageQuery, AiSystemsInStageQueryVariables>;
export const DiscoveryPickersDocument = {"__meta__":{"hash":"31f9f91a6d690cac3670cdd4cd6dd0f9630b5516453924b63609227093ada0ab"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DiscoveryPickers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"relationshipTypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"forwardLabel"}},{"kind":"Field","name":{"kind":"Name","value":"ends"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"firstKind"}},{"kind":"Field","name":{"kind":"Name","value":"secondKind"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sources"}}]}},{"kind":"Field","name":{"kind":"Name","value":"organizations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"sources"}}]}}]}}]} as unknown as DocumentNode<DiscoveryPickersQuery, DiscoveryPickersQueryVariables>;
export const EntityDetailsDocument = {"__meta__":{"hash":"1bfbcd2018dd27221a4d6bfcec5936bb359c0ef1ef50c627a4362730b737ef2d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EntityDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EntityCard"}},{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EntityCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Entity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workflowStage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<EntityDetailsQuery, EntityDetailsQueryVariables>;
export const EntityTypeListDocument = {"__meta__":{"hash":"137550d7d72c5d5f91b2d11788596fe50d1c0947fa47688f963a5ac7bff3cdea"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EntityTypeList"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entityTypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}}]}}]}}]}}]} as unknown as DocumentNode<EntityTypeListQuery, EntityTypeListQueryVariables>;
/**
 * The Event type and the event queries. The venue, organizers, categories and tags an event payload
 * embeds are served from it (and prime their loaders), so they cost no upstream call.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { VERSION_HELP } from '../../graph/write-args.js';
import { eventVersion } from '../versions.js';
import { listKeyOf } from '../../graph/paging.js';
import { eventsQuery, excludedIds, recordRef } from '../inputs.js';
import { normalizeEvent } from '../normalize.js';
import { GLOBAL_ID_HELP, HTMLScalar } from './common.js';
import { PostStatus, postStatusOf, STATUS_DEPRECATION } from './post-status.js';
import { pagedConnection } from './paged.js';
import { EventFilter } from './event-filter.js';
import {
  CategoryRef,
  CostDetailsRef,
  CustomFieldRef,
  EventConnection,
  EventRef,
  ImageRef,
  OrganizerRef,
  TagRef,
  VenueRef,
} from './refs.js';

EventRef.implement({
  description: 'A calendar event.',
  fields: (t) => ({
    globalId: t.exposeString('globalId', { nullable: false, description: GLOBAL_ID_HELP }),
    globalIdLineage: t.exposeStringList('globalIdLineage', {
      nullable: false,
      description: 'The global ids of the sites the event was imported through, its own first.',
    }),
    authorId: t.exposeID('authorId', { description: 'The WordPress user id of the author, when the event has one.' }),
    version: t.string({ nullable: false, description: VERSION_HELP, resolve: (e) => eventVersion(e) }),
    status: t.exposeString('status', {
      nullable: false,
      description:
        'The post status as the upstream spells it: `publish`, `draft`, `pending`, `future`, `private` or `trash`.',
      deprecationReason: STATUS_DEPRECATION,
    }),
    postStatus: t.field({
      type: PostStatus,
      nullable: false,
      description: 'The post status; OTHER for a status a plugin of the site added.',
      resolve: (e) => postStatusOf(e.status)!,
    }),
    title: t.exposeString('title', {
      nullable: false,
      description: 'The title as plain text (HTML entities decoded).',
    }),
    description: t.expose('description', {
      nullable: false,
      type: HTMLScalar,
      description: 'The description as HTML; empty when there is none.',
    }),
    excerpt: t.expose('excerpt', {
      nullable: false,
      type: HTMLScalar,
      description: 'The excerpt as HTML; empty when there is none.',
    }),
    slug: t.exposeString('slug', { nullable: false, description: 'The URL slug of the event.' }),
    url: t.exposeString('url', { nullable: false, description: 'The public web page of the event.' }),
    startDate: t.expose('startDate', {
      nullable: false,
      type: 'DateTime',
      description: 'When the event starts: its local wall time with the offset of its time zone.',
    }),
    endDate: t.expose('endDate', {
      nullable: false,
      type: 'DateTime',
      description: 'When the event ends: its local wall time with the offset of its time zone.',
    }),
    allDay: t.exposeBoolean('allDay', {
      description: 'Whether the event lasts whole days; null when hidden by a password.',
    }),
    timezone: t.exposeString('timezone', {
      description: "The event's time zone, e.g. `Europe/Berlin` or `UTC+2`, when it has one.",
    }),
    timezoneAbbr: t.exposeString('timezoneAbbr', {
      description: 'The abbreviation of the time zone at the start, e.g. `CET`, when known.',
    }),
    cost: t.exposeString('cost', {
      description: 'The cost as the site displays it, e.g. `$5 – $20` or `Free`; null when there is none.',
    }),
    costDetails: t.expose('costDetails', {
      nullable: false,
      type: CostDetailsRef,
      description: 'The cost as numbers with its currency.',
    }),
    website: t.exposeString('website', {
      description: "The event's website (the upstream falls back to the event page), when there is one.",
    }),
    showMap: t.exposeBoolean('showMap', {
      description: 'Whether the site shows a map of the venue; null when hidden by a password.',
    }),
    showMapLink: t.exposeBoolean('showMapLink', {
      description: 'Whether the site shows a link to a map of the venue; null when hidden by a password.',
    }),
    hideFromListings: t.exposeBoolean('hideFromListings', {
      description: 'Whether the event is hidden from calendar lists (such events never appear in `events`).',
    }),
    sticky: t.exposeBoolean('sticky', { description: 'Whether the event is pinned to the top of month views.' }),
    featured: t.exposeBoolean('featured', { description: 'Whether the event is featured.' }),
    image: t.expose('image', { type: ImageRef, description: 'The featured image, or null when there is none.' }),
    venue: t.field({
      type: VenueRef,
      description: 'The venue of the event (the first, when there are several), or null.',
      resolve: (e) => e.venues[0] ?? null,
    }),
    venues: t.expose('venues', {
      nullable: false,
      type: [VenueRef],
      description: 'All venues of the event; usually one or none.',
    }),
    organizers: t.expose('organizers', {
      nullable: false,
      type: [OrganizerRef],
      description: 'The organizers of the event.',
    }),
    categories: t.expose('categories', {
      nullable: false,
      type: [CategoryRef],
      description: 'The event categories the event is in.',
    }),
    tags: t.field({ nullable: false, type: [TagRef], description: 'The tags of the event.', resolve: (e) => e.tags }),
    customFields: t.expose('customFields', {
      nullable: false,
      type: [CustomFieldRef],
      description: 'Additional fields of the event; empty when there are none.',
    }),
    publishedAt: t.expose('publishedAt', {
      type: 'DateTime',
      description: 'When the event post was published (not when the event happens).',
    }),
    modifiedAt: t.expose('modifiedAt', { type: 'DateTime', description: 'When the event post was last changed.' }),
  }),
});

builder.queryFields((t) => ({
  event: t.field({
    ...requires('calendar:read'),
    type: EventRef,
    description:
      'One event by id or by slug (give exactly one); null when there is no such event, GONE when it is in the trash.',
    args: {
      id: t.arg.id({ description: "The event's WordPress id." }),
      slug: t.arg.string({ description: "The event's slug." }),
      password: t.arg.string({ description: 'The password of a password-protected event.' }),
    },
    resolve: async (_root, args, { calendar }) => {
      const ref = recordRef(args, 'event');
      if (args.password) {
        // A password read is not shared with other readers of the same event.
        const wire =
          'id' in ref
            ? await calendar.client.getEvent(ref.id, args.password)
            : await calendar.client.getEventBySlug(ref.slug, args.password);
        return wire && calendar.loaders.primeEvent(normalizeEvent(wire));
      }
      return 'id' in ref ? calendar.loaders.event.load(ref.id) : calendar.loaders.eventBySlug.load(ref.slug);
    },
  }),
  events: t.connection(
    {
      ...requires('calendar:read'),
      type: EventRef,
      description:
        'Events in start order, filtered; `first` may exceed the upstream page of 50 up to the configured maximum.',
      args: { filter: t.arg({ type: EventFilter, description: 'Conditions on the events listed.' }) },
      resolve: (_root, args, { calendar }) => {
        const query = eventsQuery(args.filter);
        const key = listKeyOf('events', { filter: query });
        return pagedConnection(calendar, args, key, calendar.loaders.events, query, excludedIds(args.filter));
      },
    },
    EventConnection,
  ),
}));

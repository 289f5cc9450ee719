/**
 * The events filter: every filter of `GET /events`. Dates are DateTime (ISO 8601 with an offset, or
 * the site's wall clock `YYYY-MM-DD HH:MM:SS`) or, for whole days, Date; they are checked again
 * against the upstream's rules before any call (see `../inputs.ts`, whose `EventFilterInput` types it).
 */
import { builder } from '../../graph/builder.js';
import type { EventFilterInput } from '../inputs.js';
import { PostStatus } from './post-status.js';

const DATE_HELP = "A wall clock without an offset is read in the site's time zone.";
/** The point-in-time filters: a bare day is refused there, naming the argument. */
const TIME_HELP = `${DATE_HELP} Give a time too; for whole days use \`startDay\`/\`endDay\`.`;

export const EventFilter = builder.inputRef<EventFilterInput>('EventFilter').implement({
  description:
    'Conditions on the events listed; all optional, combined with AND. Without dates the upstream lists events from yesterday to 24 months ahead.',
  fields: (t) => ({
    startDate: t.field({
      type: 'DateTime',
      description: `Only events starting on or after this date (whole days unless \`strictDates\`). ${DATE_HELP} A bare day (\`2027-03-01\`) is that whole day, as \`startDay\`.`,
    }),
    endDate: t.field({
      type: 'DateTime',
      description: `Only events ending on or before this date (whole days unless \`strictDates\`). ${DATE_HELP} A bare day (\`2027-03-01\`) is that whole day, as \`endDay\`.`,
    }),
    startDay: t.field({
      type: 'Date',
      description:
        'Only events starting on or after this day (from its first second, site time); instead of `startDate`.',
    }),
    endDay: t.field({
      type: 'Date',
      description: 'Only events ending on or before this day (to its last second, site time); instead of `endDate`.',
    }),
    startsBefore: t.field({ type: 'DateTime', description: `Only events starting before this time. ${TIME_HELP}` }),
    startsAfter: t.field({ type: 'DateTime', description: `Only events starting after this time. ${TIME_HELP}` }),
    endsBefore: t.field({ type: 'DateTime', description: `Only events ending before this time. ${TIME_HELP}` }),
    endsAfter: t.field({
      type: 'DateTime',
      description: `Only events ending after this time; use it to include events in progress. ${TIME_HELP}`,
    }),
    strictDates: t.boolean({
      description: 'When true the given times are used exactly; when false (the default) whole days are included.',
    }),
    search: t.string({ description: 'Only events with this text in their title or description.' }),
    categories: t.stringList({ description: 'Only events in any of these categories, given by id or slug.' }),
    tags: t.stringList({ description: 'Only events with any of these tags, given by id or slug.' }),
    venues: t.idList({ description: 'Only events at any of these venues (ids).' }),
    organizers: t.idList({ description: 'Only events by any of these organizers (ids).' }),
    featured: t.boolean({ description: 'Only featured events (true) or only events that are not featured (false).' }),
    statuses: t.field({
      type: [PostStatus],
      description:
        'Only events with these post statuses; statuses other than PUBLISH need credentials that may see them.',
    }),
    status: t.stringList({
      description: 'Only events with these post statuses as the upstream spells them, e.g. `publish`.',
      deprecationReason: 'Use `statuses`, a list of the PostStatus enum.',
    }),
    include: t.idList({ description: 'Only the events with these ids; the upstream then ignores the date filters.' }),
    exclude: t.idList({
      description:
        "Leave out the events with these ids (at most 50), e.g. the event a page shows under its venue's `events`. The upstream has no such filter: the gateway reads as many more rows as it leaves out, so a page stays full; `totalCount` leaves out the excluded events it read. Lists only (`eventsChanged` refuses it).",
    }),
    postParent: t.id({ description: 'Only events whose parent (a recurring series) is this event id.' }),
    ticketed: t.boolean({
      description: 'Only events with tickets (true) or without (false); needs the ticketing add-on upstream.',
    }),
    geoloc: t.boolean({
      description:
        'Only events whose venue has (true) or lacks (false) geolocation data; needs Events Calendar Pro upstream.',
    }),
    geolocLat: t.float({ description: 'The latitude to search near; give it together with `geolocLng`.' }),
    geolocLng: t.float({ description: 'The longitude to search near; give it together with `geolocLat`.' }),
  }),
});

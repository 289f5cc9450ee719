/**
 * Calendar refusals the graph can word, each naming the graph argument it concerns: WordPress
 * parameter names as the graph's arguments (`venue` of an event write is `input.venueId`), the
 * parameters that name other records (refused, they name one that does not exist) and the plugin's
 * own refusal codes. `errors.ts` reads the error body and asks here for the words.
 */
import type { UpstreamError, UpstreamErrorKind } from '../core/errors.js';

const camel = (name: string): string => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Upstream parameters whose graph argument is not simply their camelCase name. */
const GRAPH_NAMES: Record<string, string> = { event: 'eventId', orderby: 'orderBy', parent: 'parentId' };

/** Per operation, where the same parameter is a different argument (a filter of ids, a write's record). */
const NAMES: Record<string, Record<string, string>> = {
  'events.list': { venue: 'venues', organizer: 'organizers' },
  'events.create': { venue: 'venueId', organizer: 'organizerIds' },
  'events.update': { venue: 'venueId', organizer: 'organizerIds' },
};

/** Where an operation's arguments sit: a write's in `input`, the events filter's in `filter`. */
export function prefixOf(operation = ''): string {
  if (/\.(create|update)$/.test(operation)) return 'input.';
  return operation === 'events.list' ? 'filter.' : '';
}

/** Parameters that name other records: refused, they name one that does not exist. */
const REFERS_TO: Record<string, string> = {
  venue: 'venue',
  organizer: 'organizer',
  categories: 'category',
  tags: 'tag',
  event: 'event',
  post: 'event',
  post_parent: 'event',
  parent: 'category',
};

const article = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

/** The kind of record an operation is about, by its collection. */
const RECORDS: Record<string, string> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
};
export const recordOf = (operation = '') => RECORDS[operation.split('.')[0]!] ?? 'calendar record';

/** The graph argument an upstream parameter of `operation` stands for (without its prefix). */
export function graphArgument(param: string, operation = ''): string {
  return NAMES[operation]?.[param] ?? GRAPH_NAMES[param] ?? camel(param);
}

/** "a venue" when `param` names another record, else undefined. */
export function recordNamedBy(param: string): string | undefined {
  const record = REFERS_TO[param];
  return record && article(record);
}

/** The plugin's own refusal codes that concern one argument, or need their own words. */
export function calendarRefusal(
  code: string | undefined,
  operation: string | undefined,
  make: (kind: UpstreamErrorKind, message: string, argument?: string) => UpstreamError,
): UpstreamError | undefined {
  switch (code) {
    case 'term_exists':
      return make(
        'bad-request',
        `A ${recordOf(operation)} with this name already exists here; use it, or give another name.`,
        'input.name',
      );
    case 'could-not-create-venue':
      return make('bad-request', 'The venue could not be created from the data given.', 'input.venue');
    case 'could-not-create-organizer':
      return make('bad-request', 'The organizers could not be created from the data given.', 'input.organizers');
    case 'invalid-linked-post-id':
      return make('bad-request', 'A venue or organizer id given does not exist.');
    case 'could-not-update-venue':
      return make('bad-request', 'The venue could not be updated.');
    case 'could-not-update-organizer':
      return make('bad-request', 'The organizer could not be updated.');
    default:
      return undefined;
  }
}

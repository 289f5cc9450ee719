/**
 * Calendar cache tags: an answer is tagged with every kind of record it embeds or depends on, and a
 * write drops its collection's own tag (an event write all four: it may create venues, organizers
 * and terms inline).
 */
export const Tags = {
  events: 'calendar:events',
  venues: 'calendar:venues',
  organizers: 'calendar:organizers',
  terms: 'calendar:terms',
} as const;

/** The calendar's collections, as the API names them. */
export type Collection = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

/**
 * The tags of a collection's answers, its own first (the one its writes drop): venue, organizer and
 * term lists filter and count by their events, hence the events tag.
 */
export const TAGS_OF: Record<Collection, readonly string[]> = {
  events: [Tags.events, Tags.venues, Tags.organizers, Tags.terms],
  venues: [Tags.venues, Tags.events],
  organizers: [Tags.organizers, Tags.events],
  categories: [Tags.terms, Tags.events],
  tags: [Tags.terms, Tags.events],
};

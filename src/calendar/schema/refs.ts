/**
 * Object references of the calendar graph, declared once with the domain record behind each, so the
 * type files can point at each other without import cycles. Each is implemented in its own file.
 */
import { builder } from '../../graph/builder.js';
import type * as M from '../model.js';

export const EventRef = builder.objectRef<M.CalendarEvent>('Event');
export const LinkedPostRef = builder.interfaceRef<M.CalendarLinkedPost>('CalendarLinkedPost');
export const VenueRef = builder.objectRef<M.CalendarVenue>('Venue');
export const OrganizerRef = builder.objectRef<M.CalendarOrganizer>('Organizer');
export const CategoryRef = builder.objectRef<M.CalendarTerm>('Category');
export const TagRef = builder.objectRef<M.CalendarTerm>('Tag');
export const ImageRef = builder.objectRef<M.CalendarImage>('CalendarImage');
export const ImageSizeRef = builder.objectRef<M.CalendarImage['sizes'][number]>('CalendarImageSize');
export const CostDetailsRef = builder.objectRef<M.CostDetails>('EventCostDetails');
export const CustomFieldRef = builder.objectRef<M.CustomField>('EventCustomField');

/** A connection type with its edge, both described (the SDL doubles as the API's documentation). */
function connection<T extends typeof EventRef | typeof VenueRef | typeof OrganizerRef | typeof CategoryRef>(
  type: T,
  name: string,
  what: string,
) {
  return builder.connectionObject(
    {
      type,
      name: `${name}Connection`,
      description: `A page of ${what}, with cursors to page on.`,
      edgesField: { description: `The ${what} of this page, each with its cursor.` },
    },
    {
      name: `${name}Edge`,
      description: `One of the ${what} in a page, with its cursor.`,
      nodeField: { description: `The record itself.` },
    },
  );
}

export const EventConnection = connection(EventRef, 'Event', 'events');
export const VenueConnection = connection(VenueRef, 'Venue', 'venues');
export const OrganizerConnection = connection(OrganizerRef, 'Organizer', 'organizers');
export const CategoryConnection = connection(CategoryRef, 'Category', 'categories');
export const TagConnection = connection(TagRef, 'Tag', 'tags');

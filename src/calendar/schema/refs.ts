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

/** The names and descriptions of a list's connection and edge types (the SDL doubles as the API's documentation). */
export function connectionTypes(name: string, what: string) {
  return [
    {
      name: `${name}Connection`,
      description: `A page of ${what}, with cursors to page on.`,
      edgesField: { description: `The ${what} of this page, each with its cursor.` },
    },
    {
      name: `${name}Edge`,
      description: `One of the ${what} in a page, with its cursor.`,
      nodeField: { description: `The record itself.` },
    },
  ] as const;
}

const connection = <T extends typeof EventRef | typeof CategoryRef>(type: T, name: string, what: string) =>
  builder.connectionObject({ type, ...connectionTypes(name, what)[0] }, connectionTypes(name, what)[1]);

export const EventConnection = connection(EventRef, 'Event', 'events');
export const CategoryConnection = connection(CategoryRef, 'Category', 'categories');
export const TagConnection = connection(TagRef, 'Tag', 'tags');

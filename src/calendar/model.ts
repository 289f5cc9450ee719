/**
 * The calendar's records as the graph sees them (the domain model): one shape per record, ids as
 * numbers, dates as ISO 8601 strings with offset, no wire quirks. `normalize.ts` builds them.
 */
export interface CalendarImage {
  id: number;
  url: string;
  width: number | null;
  height: number | null;
  extension: string | null;
  sizes: { name: string; url: string; width: number | null; height: number | null; mimeType: string | null }[];
}

export interface CostDetails {
  currencySymbol: string | null;
  currencyCode: string | null;
  currencyPosition: string | null;
  values: number[];
}

export interface CalendarTerm {
  id: number;
  name: string;
  slug: string;
  description: string;
  parentId: number | null;
  count: number;
  url: string | null;
}

/** What venues and organizers share: both are posts of the site, linked from events. */
export interface CalendarLinkedPost {
  id: number;
  name: string;
  slug: string | null;
  status: string | null;
  authorId: string | null;
  description: string | null;
  url: string | null;
  phone: string | null;
  website: string | null;
  image: CalendarImage | null;
  globalId: string;
  publishedAt: string | null;
  modifiedAt: string | null;
}

export interface CalendarVenue extends CalendarLinkedPost {
  address: string | null;
  city: string | null;
  country: string | null;
  province: string | null;
  state: string | null;
  stateProvince: string | null;
  zip: string | null;
  latitude: number | null;
  longitude: number | null;
  showMap: boolean | null;
  showMapLink: boolean | null;
}

export interface CalendarOrganizer extends CalendarLinkedPost {
  email: string | null;
}

export interface CustomField {
  key: string;
  label: string;
  value: string;
}

export interface CalendarEvent {
  id: number;
  globalId: string;
  globalIdLineage: string[];
  authorId: string | null;
  status: string;
  title: string;
  description: string;
  excerpt: string;
  slug: string;
  url: string;
  startDate: string;
  endDate: string;
  startDateUtc: string | null;
  endDateUtc: string | null;
  allDay: boolean | null;
  timezone: string | null;
  timezoneAbbr: string | null;
  cost: string | null;
  costDetails: CostDetails;
  website: string | null;
  showMap: boolean | null;
  showMapLink: boolean | null;
  hideFromListings: boolean | null;
  sticky: boolean | null;
  featured: boolean | null;
  image: CalendarImage | null;
  categories: CalendarTerm[];
  tags: CalendarTerm[];
  venues: CalendarVenue[];
  organizers: CalendarOrganizer[];
  customFields: CustomField[];
  publishedAt: string | null;
  modifiedAt: string | null;
}

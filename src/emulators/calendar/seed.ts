/**
 * Deterministic seed data (same seed + same `now` → same records). Events sit relative to `now`:
 * 72 listed ones from tomorrow to ~12 months ahead, 10 in the past, 3 hidden, 2 drafts, 1 with a
 * password, plus venues, organizers, nested categories and tags, some of them unused so `hide_empty`
 * and `has_events` have something to hide. A larger `SeedSize` (the bench's replay) spreads more
 * listed events over the default window (about two years), with more venues and organizers named
 * after the same ones, and a password on one listed event in 150 besides.
 */
import { createRng, list } from '../kit/random.js';
import type { WireImage } from '../../calendar/wire.js';
import { addDays, startOfDay, utcWall, wallAsUtc, type WallClock } from './dates.js';
import {
  slugify,
  type CostRecord,
  type EventRecord,
  type OrganizerRecord,
  type StoreData,
  type TermRecord,
  type VenueRecord,
} from './store.js';

/** name|address|city|state or province|country|zip|phone|website */
const VENUES = [
  'Blue Note Hall|131 W 3rd St|New York|NY|United States|10012|+1 212-475-8592|https://bluenote.example.com',
  'Kulturbrauerei|Schönhauser Allee 36|Berlin||Germany|10435|+49 30 44352170|https://kulturbrauerei.example.de',
  'LX Factory|Rua Rodrigues de Faria 103|Lisboa||Portugal|1300-501|+351 21 314 3399|',
  'The Riverside Pavilion|400 Riverside Dr|New York|NY|United States|10025||https://riverside.example.org',
  'Tempelhofer Feld|Tempelhofer Damm|Berlin||Germany|12101||',
  'Community Library Annex|12 Elm Street|Brooklyn|NY|United States|11201|+1 718-555-0143|',
  'Café Tati|Rua da Ribeira Nova 36|Lisboa||Portugal|1200-376|+351 21 346 1279|https://cafetati.example.pt',
  'Old Town Hall|1 Market Square|London||United Kingdom|EC2V 7HH|+44 20 7946 0000|https://oldtownhall.example.co.uk',
  'Makerspace 42|42 Industrial Way|Portland|OR|United States|97209|+1 503-555-0199|https://makerspace42.example.com',
  'Greenhouse Gardens||Berlin||Germany|||https://greenhouse.example.de',
  'Harbour Stage|Doca de Alcântara|Lisboa||Portugal|1350-352||',
  "St. Mark's Church Hall|131 E 10th St|New York|NY|United States|10003|+1 212-674-6377|",
  'Online|||||||',
  'Westside Conference Center|900 W Olympic Blvd|Los Angeles|CA|United States|90015|+1 213-555-0110|https://westside.example.com',
  'Dockside Warehouse|Pier 7|Hamburg||Germany|20457||',
].map((row) => row.split('|') as [string, string, string, string, string, string, string, string]);

/** name|email|phone|website */
const ORGANIZERS = [
  'Riverside Arts Council|hello@riversidearts.example.org|+1 212-555-0101|https://riversidearts.example.org',
  'Berlin Jazz Collective|info@bjc.example.de|+49 30 555 0102|',
  'Lisbon Makers|ola@lisbonmakers.example.pt||https://lisbonmakers.example.pt',
  'Open Source Meetup Group|organizers@osmeetup.example.com||https://osmeetup.example.com',
  'Friends of the Library|friends@library.example.org|+1 718-555-0188|',
  'Green City Initiative||+49 30 555 0177|https://greencity.example.de',
  'Founders & Friends|team@foundersfriends.example.com||',
  'The Food Collective|eat@foodcollective.example.com|+1 503-555-0166|https://foodcollective.example.com',
  'Dr. Maria Costa|maria.costa@example.pt||',
  'City Running Club|run@cityrunning.example.org|+44 20 7946 0199|https://cityrunning.example.org',
  'Film Society|screenings@filmsociety.example.com||https://filmsociety.example.com',
  'Youth Orchestra Trust|contact@youthorchestra.example.org|+1 213-555-0122|',
].map((row) => row.split('|') as [string, string, string, string]);

/** Parent category → children. "Conferences" and its "Unconference" child stay unused. */
const CATEGORIES: [string, string[]][] = [
  ['Music', ['Jazz', 'Classical']],
  ['Workshops', ['Crafts', 'Coding']],
  ['Community', ['Markets', 'Volunteering']],
  ['Conferences', ['Unconference']],
];
const USED_CATEGORIES = list(`Music, Jazz, Classical, Workshops, Crafts, Coding, Community, Markets, Volunteering`);

const TAGS = list(`outdoor, family-friendly, free-entry, live music, networking, beginners, wheelchair accessible, food,
  art, tech, evening, weekend, archived, rooftop, members only`);
const USED_TAGS = 12;

const TITLES = list(`Jazz & Blues Night, Founders' Breakfast, Spring Market - Opening Day, Intro to TypeScript Workshop,
  Community Garden Volunteer Day, String Quartet in the Park, Pottery for Beginners,
  Open Source Hack Night, Farmers Market, Late Night Film Screening, Charity Fun Run,
  Youth Orchestra Concert, Book Club: Modern Classics, Makers' Fair, Rooftop Yoga,
  Wine & Cheese Tasting, Startup Pitch Evening, Neighbourhood Clean-up, Piano Recital,
  Data Science Meetup, Street Food Festival, Knitting Circle, Photography Walk,
  Choir Rehearsal - Open Session, Kids Coding Club, Collectors' Record Fair, Sunset Salsa Social,
  Repair Café, Poetry & Prose Open Mic, Winter Lights Parade`);

const TIMEZONES = ['Europe/Berlin', 'America/New_York', 'Europe/Lisbon', 'UTC'];

const COSTS: CostRecord[] = [
  { values: ['0'], symbol: '', code: '', position: '' },
  { values: ['10'], symbol: '$', code: 'USD', position: 'prefix' },
  { values: ['5', '20'], symbol: '€', code: 'EUR', position: 'prefix' },
  { values: [], symbol: '', code: '', position: '' },
  { values: ['25'], symbol: '$', code: 'USD', position: 'prefix' },
  { values: ['8'], symbol: '£', code: 'GBP', position: 'prefix' },
];

const image = (id: number, name: string): WireImage => ({
  url: `https://images.example.org/uploads/${name}.jpg`,
  id,
  extension: 'jpg',
  width: 1200,
  height: 800,
  filesize: 183_000 + id,
  sizes: {
    thumbnail: {
      width: 150,
      height: 150,
      'mime-type': 'image/jpeg',
      url: `https://images.example.org/uploads/${name}-150x150.jpg`,
    },
    medium: {
      width: 300,
      height: 200,
      'mime-type': 'image/jpeg',
      url: `https://images.example.org/uploads/${name}-300x200.jpg`,
    },
  },
});

/** How many records of each kind; the default is the seed the tests know. */
export interface SeedSize {
  /** Listed events from tomorrow on (past, hidden, draft and the members' preview come on top). */
  events: number;
  venues: number;
  organizers: number;
}

export const DEFAULT_SEED_SIZE: SeedSize = { events: 72, venues: VENUES.length, organizers: ORGANIZERS.length };

/** The `i`-th of `names`, numbered once the list runs out ("Blue Note Hall 2"). */
const nth = <T extends [string, ...string[]]>(names: T[], i: number): T => {
  const [name, ...rest] = names[i % names.length]!;
  const round = Math.floor(i / names.length);
  return [round ? `${name} ${round + 1}` : name, ...rest] as T;
};

export function createSeed(seed: number, now: Date, size: SeedSize = DEFAULT_SEED_SIZE): StoreData {
  const rng = createRng(seed);
  const data: StoreData = { posts: new Map(), terms: new Map(), nextPostId: 10, nextTermId: 2 };
  const today = startOfDay(utcWall(now));
  const published = (daysAgo: number): WallClock => addDays(today, -daysAgo).replace('00:00:00', '09:30:00');

  const terms: TermRecord[] = [];
  const addTerm = (t: Omit<TermRecord, 'id'>) => {
    const term = { ...t, id: data.nextTermId++ };
    data.terms.set(term.id, term);
    terms.push(term);
    return term;
  };
  for (const [parent, children] of CATEGORIES) {
    const p = addTerm({
      taxonomy: 'tribe_events_cat',
      name: parent,
      slug: slugify(parent),
      description: `${parent} events.`,
      parent: 0,
    });
    for (const child of children)
      addTerm({ taxonomy: 'tribe_events_cat', name: child, slug: slugify(child), description: '', parent: p.id });
  }
  for (const tag of TAGS) addTerm({ taxonomy: 'post_tag', name: tag, slug: slugify(tag), description: '', parent: 0 });
  const categoryIds = terms.filter((t) => USED_CATEGORIES.includes(t.name)).map((t) => t.id);
  const tagIds = terms
    .filter((t) => t.taxonomy === 'post_tag')
    .slice(0, USED_TAGS)
    .map((t) => t.id);

  /** A published venue's or organizer's post fields, under the next id; dates are days ago. */
  const post = (name: string, date: number, modified: number, description: string) => ({
    id: data.nextPostId++,
    author: 1,
    status: 'publish' as const,
    date: published(date),
    modified: published(modified),
    slug: slugify(name),
    title: name,
    description,
    excerpt: '',
  });

  const venues: VenueRecord[] = Array.from({ length: size.venues }, (_, i) => {
    const [name, address, city, sp, country, zip, phone, website] = nth(VENUES, i);
    const us = country === 'United States';
    const venue: VenueRecord = {
      kind: 'venue',
      ...post(name, 400 - i, 300 - i, i % 3 === 0 ? `${name} hosts concerts, talks and community events.` : ''),
      address,
      city,
      country,
      zip,
      phone,
      website,
      state: us ? sp : '',
      province: us ? '' : sp,
      stateprovince: sp,
      showMap: i % 5 !== 4,
      showMapLink: true,
    };
    data.posts.set(venue.id, venue);
    return venue;
  });

  const organizers: OrganizerRecord[] = Array.from({ length: size.organizers }, (_, i) => {
    const [name, email, phone, website] = nth(ORGANIZERS, i);
    const organizer: OrganizerRecord = {
      kind: 'organizer',
      ...post(name, 380 - i, 200 - i, i % 4 === 0 ? `${name} organises events around the city.` : ''),
      email,
      phone,
      website,
    };
    data.posts.set(organizer.id, organizer);
    return organizer;
  });

  // The last three venues and two organizers have no events.
  const usedVenues = size.venues - 3;
  const usedOrganizers = size.organizers - 2;
  const slugs = new Set<string>();
  const makeEvent = (index: number, dayOffset: number, extra: Partial<EventRecord> = {}): EventRecord => {
    const title = TITLES[index % TITLES.length]!;
    let slug = slugify(title);
    for (let n = 2; slugs.has(slug); n++) slug = `${slugify(title)}-${n}`;
    slugs.add(slug);
    const timezone = TIMEZONES[index % TIMEZONES.length]!;
    const allDay = index % 9 === 4;
    const day = addDays(today, dayOffset).slice(0, 10);
    const hour = rng.int(9, 20);
    const start = allDay ? `${day} 00:00:00` : `${day} ${String(hour).padStart(2, '0')}:${rng.pick(['00', '30'])}:00`;
    const end = allDay
      ? `${addDays(`${day} 00:00:00`, index % 2).slice(0, 10)} 23:59:59`
      : utcWall(new Date(wallAsUtc(start).getTime() + rng.int(1, 4) * 3_600_000));
    const id = data.nextPostId++;
    return {
      kind: 'event',
      id,
      author: 1,
      status: 'publish',
      date: published(60 + (index % 30)),
      modified: published(index % 30),
      slug,
      title,
      allDay,
      start,
      end,
      timezone,
      description: index % 4 === 3 ? '' : `Join us for ${title.toLowerCase()}. Everyone is welcome; bring a friend.`,
      excerpt: index % 2 === 0 ? `A short summary of ${title.toLowerCase()}.` : '',
      cost: COSTS[index % COSTS.length]!,
      website: index % 3 === 0 ? `https://tickets.example.com/${slug}` : index % 17 === 5 ? '' : undefined,
      showMap: index % 6 !== 2,
      showMapLink: index % 8 !== 3,
      hidden: false,
      sticky: index % 23 === 0,
      featured: index % 5 === 0,
      categoryIds: rng.sample(categoryIds, rng.int(1, 2)),
      tagIds: rng.sample(tagIds, rng.int(0, 3)),
      venueIds: index % 7 === 6 ? [] : [venues[index % usedVenues]!.id],
      organizerIds:
        index % 5 === 1
          ? rng.sample(organizers.slice(0, usedOrganizers), 2).map((o) => o.id)
          : index % 6 === 5
            ? []
            : [organizers[index % usedOrganizers]!.id],
      customFields:
        index % 10 === 7
          ? { _ecp_custom_2: { label: 'Dress code', value: index % 20 === 7 ? 'Smart casual' : 'Costumes welcome' } }
          : {},
      postParent: 0,
      ...(index % 8 === 1 ? { image: image(9000 + index, slug) } : {}),
      ...extra,
    };
  };

  const add = (e: EventRecord) => data.posts.set(e.id, e);
  // Listed events (72: about one every five days), starting tomorrow, within the default window (~730 days).
  const n = size.events;
  const spacing = Math.min(5, 700 / n);
  for (let i = 0; i < n; i++)
    add(makeEvent(i, 1 + Math.floor(i * spacing) + rng.int(0, 3), i % 150 === 149 ? { password: 'letmein' } : {}));
  // One event at two venues (multi-venue support): venue becomes a list.
  const twoVenues = [...data.posts.values()].find(
    (p): p is EventRecord => p.kind === 'event' && p.venueIds.length === 1,
  )!;
  twoVenues.venueIds = [venues[0]!.id, venues[3]!.id];
  // Past events (need an explicit start_date to be listed).
  for (let i = 0; i < 10; i++) add(makeEvent(n + i, -3 - i * 17));
  for (let i = 0; i < 3; i++) add(makeEvent(n + 10 + i, 10 + i * 20, { hidden: true }));
  for (let i = 0; i < 2; i++) add(makeEvent(n + 13 + i, 14 + i * 30, { status: 'draft' }));
  add(
    makeEvent(n + 15, 21, { password: 'letmein', title: "Members' Preview Evening", slug: 'members-preview-evening' }),
  );
  return data;
}

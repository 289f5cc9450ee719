/**
 * The calendar emulator's state: posts (events, venues, organizers share one id sequence, as WordPress
 * posts do) and terms (categories and tags share another). Records hold raw values; `serialize.ts`
 * turns them into the wire shapes. `reset()` restores the seed.
 */
import type { WireImage, WireTaxonomy } from '../../calendar/wire.js';
import type { WallClock } from './dates.js';

export type PostStatus = 'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash';
export const REGISTERED_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
];

interface PostBase {
  id: number;
  author: number;
  status: PostStatus;
  /** Publication and modification dates, site time (UTC). */
  date: WallClock;
  modified: WallClock;
  slug: string;
  /** Raw title; entities are produced on output like WordPress's texturize. */
  title: string;
  /** Raw text or HTML; wrapped in `<p>` on output when it is plain text. */
  description: string;
  excerpt: string;
  password?: string;
  image?: WireImage;
}

export interface EventRecord extends PostBase {
  kind: 'event';
  allDay: boolean;
  /** Event-local wall clocks in `timezone`. */
  start: WallClock;
  end: WallClock;
  timezone: string;
  cost: CostRecord;
  /** `undefined`: no website meta → the permalink is shown instead. */
  website?: string;
  showMap: boolean;
  showMapLink: boolean;
  hidden: boolean;
  sticky: boolean;
  featured: boolean;
  categoryIds: number[];
  tagIds: number[];
  venueIds: number[];
  organizerIds: number[];
  customFields: Record<string, { label: string; value: string }>;
  postParent: number;
}

export interface CostRecord {
  /** Numeric strings, sorted; `[]` for no cost; `["0"]` for free. */
  values: string[];
  symbol: string;
  code: string;
  position: 'prefix' | 'postfix' | '';
}

export interface VenueRecord extends PostBase {
  kind: 'venue';
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  showMap: boolean;
  showMapLink: boolean;
}

export interface OrganizerRecord extends PostBase {
  kind: 'organizer';
  phone: string;
  website: string;
  email: string;
}

export type PostRecord = EventRecord | VenueRecord | OrganizerRecord;
type PostKind = PostRecord['kind'];
type PostOf<K extends PostKind> = Extract<PostRecord, { kind: K }>;

export interface TermRecord {
  id: number;
  taxonomy: WireTaxonomy;
  name: string;
  slug: string;
  description: string;
  parent: number;
}

export interface StoreData {
  posts: Map<number, PostRecord>;
  terms: Map<number, TermRecord>;
  nextPostId: number;
  nextTermId: number;
}

export class CalendarStore {
  private data: StoreData;

  constructor(private readonly seed: () => StoreData) {
    this.data = seed();
  }

  reset(): void {
    this.data = this.seed();
  }

  /** The posts of one kind, in insertion (id) order. */
  posts<K extends PostKind>(kind: K): Array<PostOf<K>> {
    return [...this.data.posts.values()].filter((p): p is PostOf<K> => p.kind === kind);
  }
  terms(taxonomy: WireTaxonomy): TermRecord[] {
    return [...this.data.terms.values()].filter((t) => t.taxonomy === taxonomy);
  }

  post(id: number): PostRecord | undefined {
    return this.data.posts.get(id);
  }
  /** The post with that id when it is of that kind. */
  postOf<K extends PostKind>(kind: K, id: number): PostOf<K> | undefined {
    const p = this.data.posts.get(id);
    return p?.kind === kind ? (p as PostOf<K>) : undefined;
  }
  bySlug<K extends PostKind>(kind: K, slug: string): PostOf<K> | undefined {
    for (const p of this.data.posts.values()) if (p.kind === kind && p.slug === slug) return p as PostOf<K>;
    return undefined;
  }
  term(id: number, taxonomy?: WireTaxonomy): TermRecord | undefined {
    const t = this.data.terms.get(id);
    return t && (!taxonomy || t.taxonomy === taxonomy) ? t : undefined;
  }
  /** A term by id (numeric) or slug. */
  findTerm(taxonomy: WireTaxonomy, idOrSlug: string | number): TermRecord | undefined {
    const s = String(idOrSlug).trim();
    if (/^\d+$/.test(s)) return this.term(Number(s), taxonomy);
    return this.terms(taxonomy).find((t) => t.slug === s);
  }

  /** Published events using the term: WordPress's term count. */
  termCount(term: TermRecord): number {
    const key = term.taxonomy === 'post_tag' ? 'tagIds' : 'categoryIds';
    return this.posts('event').filter((e) => e.status === 'publish' && e[key].includes(term.id)).length;
  }

  nextPostId(): number {
    return this.data.nextPostId++;
  }
  addPost<T extends PostRecord>(post: T): T {
    this.data.posts.set(post.id, post);
    return post;
  }
  addTerm(term: Omit<TermRecord, 'id'>): TermRecord {
    const record = { ...term, id: this.data.nextTermId++ };
    this.data.terms.set(record.id, record);
    return record;
  }
  deleteTerm(term: TermRecord): void {
    this.data.terms.delete(term.id);
    // WordPress re-parents children and strips the term from posts.
    for (const t of this.data.terms.values()) if (t.parent === term.id) t.parent = term.parent;
    for (const e of this.posts('event')) {
      e.categoryIds = e.categoryIds.filter((id) => id !== term.id);
      e.tagIds = e.tagIds.filter((id) => id !== term.id);
    }
  }

  /** A slug unique among posts of that kind (or terms of that taxonomy): `name`, `name-2`, … */
  uniqueSlug(base: string, taken: (slug: string) => boolean): string {
    const root = slugify(base) || 'untitled';
    if (!taken(root)) return root;
    for (let n = 2; ; n++) if (!taken(`${root}-${n}`)) return `${root}-${n}`;
  }
}

export function slugify(text: string): string {
  return text
    .replace(/&[#a-z0-9]+;/gi, ' ')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

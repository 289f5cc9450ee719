/**
 * What venues and organizers have in common: both are WordPress posts that events link to. Declared
 * once as an interface; `Venue` and `Organizer` add their own fields and their events.
 */
import type DataLoader from 'dataloader';
import { builder } from '../../graph/builder.js';
import { listKeyOf, type ConnectionArgs } from '../../graph/paging.js';
import { postListQuery } from '../inputs.js';
import type { Page, PageKey } from '../loaders.js';
import type { CalendarScope } from '../service.js';
import { HTMLScalar } from './common.js';
import { pagedConnection } from './paged.js';
import { PostStatus, postStatusOf, statusInput, STATUS_DEPRECATION, type PostStatusValue } from './post-status.js';
import { ImageRef, LinkedPostRef } from './refs.js';

LinkedPostRef.implement({
  description: 'A venue or an organizer: a post of the site that events link to.',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false, description: 'The WordPress post id.' }),
    globalId: t.exposeString('globalId', {
      nullable: false,
      description: 'A stable identifier across sites (`host?id=N`); do not parse it.',
    }),
    name: t.exposeString('name', { nullable: false, description: 'The name as plain text.' }),
    slug: t.exposeString('slug', { description: 'The URL slug.' }),
    status: t.exposeString('status', {
      description: 'The post status as the upstream spells it, e.g. `publish` or `trash`.',
      deprecationReason: STATUS_DEPRECATION,
    }),
    postStatus: t.field({
      type: PostStatus,
      description: 'The post status, when the upstream sends it; OTHER for a status a plugin of the site added.',
      resolve: (p) => postStatusOf(p.status),
    }),
    authorId: t.exposeID('authorId', { description: 'The WordPress user id of the author, when known.' }),
    description: t.field({
      type: HTMLScalar,
      description: 'The description as HTML, when there is one.',
      resolve: (p) => p.description,
    }),
    url: t.exposeString('url', { description: 'The public web page.' }),
    phone: t.exposeString('phone', { description: 'The contact phone number.' }),
    website: t.exposeString('website', { description: 'The website of the venue or organizer.' }),
    image: t.field({
      type: ImageRef,
      description: 'The featured image, or null.',
      resolve: (p) => p.image,
    }),
  }),
});

type LinkedKind = 'venue' | 'organizer';

/** `venue(id, slug)` and `organizer(id, slug)`: one record by either. */
export const byIdOrSlugArgs = (kind: LinkedKind) =>
  builder.args((t) => ({
    id: t.id({ description: `The ${kind}'s WordPress id.` }),
    slug: t.string({ description: `The ${kind}'s slug.` }),
  }));

/** The filters of the venue and organizer lists. */
export const linkedPostListArgs = (plural: `${LinkedKind}s`) =>
  builder.args((t) => ({
    search: t.string({ description: `Only ${plural} with this text in their name, description or custom fields.` }),
    eventId: t.id({ description: `Only the ${plural} of this event.` }),
    hasEvents: t.boolean({ description: `Only ${plural} with (true) or without (false) events.` }),
    onlyWithUpcoming: t.boolean({ description: `Only ${plural} with upcoming events.` }),
    postStatus: t.field({ type: PostStatus, description: `Only ${plural} with this post status.` }),
    status: t.string({
      description: `Only ${plural} with this post status, as the upstream spells it.`,
      deprecationReason: 'Use `postStatus`, the PostStatus enum.',
    }),
  }));

type LinkedPostListArgs = ConnectionArgs & {
  search?: string | null;
  eventId?: string | null;
  hasEvents?: boolean | null;
  onlyWithUpcoming?: boolean | null;
  postStatus?: PostStatusValue | null;
  status?: string | null;
};

/** A page of the venue or organizer list, by the filters of `linkedPostListArgs`. */
export function linkedPosts<T>(
  calendar: CalendarScope,
  args: LinkedPostListArgs,
  plural: `${LinkedKind}s`,
  loader: DataLoader<PageKey, Page<T>, string>,
) {
  const query = postListQuery({ ...args, status: statusInput(args.postStatus, args.status, 'postStatus') });
  return pagedConnection(calendar, args, listKeyOf(plural, query), loader, query);
}

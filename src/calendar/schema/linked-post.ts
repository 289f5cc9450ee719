/**
 * What venues and organizers have in common: both are WordPress posts that events link to. Declared
 * once as an interface; `Venue` and `Organizer` add their own fields and their events.
 */
import type DataLoader from 'dataloader';
import type { ObjectRef } from '@pothos/core';
import { requires } from '../../graph/auth.js';
import { builder, type Types } from '../../graph/builder.js';
import { listKeyOf, type ConnectionArgs } from '../../graph/paging.js';
import { postListQuery, recordRef } from '../inputs.js';
import type { CalendarOrganizer, CalendarVenue } from '../model.js';
import type { Page, PageKey } from '../loaders.js';
import type { CalendarScope } from '../service.js';
import { GLOBAL_ID_HELP, HTMLScalar } from './common.js';
import { pagedConnection } from './paged.js';
import { PostStatus, postStatusOf, statusInput, STATUS_DEPRECATION, type PostStatusValue } from './post-status.js';
import { connectionTypes, ImageRef, LinkedPostRef } from './refs.js';
import { ID_HELP } from '../../graph/node-ids.js';
import { DATABASE_ID_HELP } from '../../graph/node.js';

LinkedPostRef.implement({
  description: 'A venue or an organizer: a post of the site that events link to.',
  fields: (t) => ({
    id: t.id({
      nullable: false,
      description: ID_HELP,
      resolve: () => {
        throw new Error('Venues and organizers resolve their own ids.');
      },
    }),
    databaseId: t.exposeID('id', { nullable: false, description: DATABASE_ID_HELP('The WordPress post id') }),
    globalId: t.exposeString('globalId', { nullable: false, description: GLOBAL_ID_HELP }),
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
    description: t.expose('description', {
      type: HTMLScalar,
      description: 'The description as HTML, when there is one.',
    }),
    url: t.exposeString('url', { description: 'The public web page.' }),
    phone: t.exposeString('phone', { description: 'The contact phone number.' }),
    website: t.exposeString('website', { description: 'The website of the venue or organizer.' }),
    image: t.expose('image', { type: ImageRef, description: 'The featured image, or null.' }),
  }),
});

type LinkedKind = 'venue' | 'organizer';
type LinkedPostListArgs = ConnectionArgs & {
  search?: string | null;
  eventId?: string | null;
  hasEvents?: boolean | null;
  onlyWithUpcoming?: boolean | null;
  postStatus?: PostStatusValue | null;
  status?: string | null;
};

/**
 * The queries of venues or organizers: `venue(id, slug)`, one by either, and `venues(…)`, the
 * filtered list (and the organizer's alike).
 */
export function linkedPostQueries(kind: LinkedKind, ref: ObjectRef<Types, CalendarVenue | CalendarOrganizer>) {
  const plural = `${kind}s` as const;
  builder.queryFields((t) => ({
    [kind]: t.field({
      ...requires('calendar:read'),
      type: ref,
      description: `One ${kind} by id or by slug (give exactly one); null when there is no such ${kind}.`,
      args: {
        id: t.arg.id({ description: `The ${kind}'s WordPress id.` }),
        slug: t.arg.string({ description: `The ${kind}'s slug.` }),
      },
      resolve: (_root, args, { calendar }) => {
        const at = recordRef(args, kind);
        return 'id' in at ? calendar.loaders[kind].load(at.id) : calendar.loaders[`${kind}BySlug`].load(at.slug);
      },
    }),
    [plural]: t.connection(
      {
        ...requires('calendar:read'),
        type: ref,
        description: `${plural[0]!.toUpperCase()}${plural.slice(1)}, filtered.`,
        args: {
          search: t.arg.string({
            description: `Only ${plural} with this text in their name, description or custom fields.`,
          }),
          eventId: t.arg.id({ description: `Only the ${plural} of this event.` }),
          hasEvents: t.arg.boolean({ description: `Only ${plural} with (true) or without (false) events.` }),
          onlyWithUpcoming: t.arg.boolean({ description: `Only ${plural} with upcoming events.` }),
          postStatus: t.arg({ type: PostStatus, description: `Only ${plural} with this post status.` }),
          status: t.arg.string({
            description: `Only ${plural} with this post status, as the upstream spells it.`,
            deprecationReason: 'Use `postStatus`, the PostStatus enum.',
          }),
        },
        resolve: (_root, args, { calendar }) => linkedPosts(calendar, args, plural, calendar.loaders[plural]),
      },
      ...connectionTypes(kind === 'venue' ? 'Venue' : 'Organizer', plural),
    ),
  }));
}

/** A page of the venue or organizer list, by its filters. */
function linkedPosts(
  calendar: CalendarScope,
  args: LinkedPostListArgs,
  plural: `${LinkedKind}s`,
  loader: DataLoader<PageKey, Page<CalendarVenue | CalendarOrganizer>, string>,
) {
  const query = postListQuery({ ...args, status: statusInput(args.postStatus, args.status, 'postStatus') });
  return pagedConnection(calendar, args, listKeyOf(plural, query), loader, query);
}

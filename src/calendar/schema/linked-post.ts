/**
 * What venues and organizers have in common: both are WordPress posts that events link to. Declared
 * once as an interface; `Venue` and `Organizer` add their own fields and their events.
 */
import { HTMLScalar } from './common.js';
import { PostStatus, postStatusOf, STATUS_DEPRECATION } from './post-status.js';
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

/**
 * Event categories (hierarchical) and event tags, their events, and their queries.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { VERSION_HELP } from '../../graph/write-args.js';
import { termVersion } from '../versions.js';
import { listKeyOf } from '../../graph/paging.js';
import { recordId, termListQuery } from '../inputs.js';
import { pagedConnection } from './paged.js';
import { recordEventsField } from './record-events.js';
import { CategoryConnection, CategoryRef, TagConnection, TagRef } from './refs.js';

export const TermOrder = builder.enumType('TermOrder', {
  description: "The direction of a category or tag list's order; only for the deprecated one-word `orderBy` values.",
  values: {
    ASC: { value: 'asc', description: 'Ascending (the default).' },
    DESC: { value: 'desc', description: 'Descending.' },
  } as const,
});

const TERM_SORT_FIELDS = {
  NAME: ['name', 'The name'],
  SLUG: ['slug', 'The slug'],
  ID: ['id', 'The id'],
  COUNT: ['count', 'The number of events'],
  DESCRIPTION: ['description', 'The description'],
} as const;

/** `FIELD_DIRECTION` values carry `field,direction`; the deprecated one-word values only the field. */
function termOrderValues() {
  const values: Record<string, { value: string; description: string; deprecationReason?: string }> = {};
  for (const [name, [wire, label]] of Object.entries(TERM_SORT_FIELDS)) {
    values[`${name}_ASC`] = {
      value: `${wire},asc`,
      description: `${label}, ascending${name === 'NAME' ? ' (the default)' : ''}.`,
    };
    values[`${name}_DESC`] = { value: `${wire},desc`, description: `${label}, descending.` };
  }
  values.INCLUDE_ORDER = { value: 'include,asc', description: 'The order of the ids given in `include`.' };
  for (const [name, [wire, label]] of Object.entries(TERM_SORT_FIELDS)) {
    values[name] = {
      value: wire,
      description: `${label}, in the direction of \`order\`.`,
      deprecationReason: `Use ${name}_ASC or ${name}_DESC: the graph spells every order FIELD_DIRECTION.`,
    };
  }
  values.INCLUDE = {
    value: 'include',
    description: 'The order of the ids given in `include`.',
    deprecationReason: 'Use INCLUDE_ORDER.',
  };
  return values;
}

export const TermOrderBy = builder.enumType('TermOrderBy', {
  description: 'The order of a category or tag list, as `FIELD_DIRECTION`.',
  values: termOrderValues(),
});

/** `orderBy` (and the deprecated `order`) as the upstream's `orderby` and `order`. */
export function termOrder(
  orderBy: string | null | undefined,
  order: 'asc' | 'desc' | null | undefined,
): { orderBy?: string; order?: 'asc' | 'desc' } {
  if (!orderBy) return order ? { order } : {};
  const [field, direction] = orderBy.split(',') as [string, 'asc' | 'desc' | undefined];
  return { orderBy: field, order: direction ?? order ?? undefined };
}

const termFields = (wireKey: 'categories' | 'tags') =>
  builder.args((t) => ({
    search: t.string({ description: `Only ${wireKey} with this text in their name or slug.` }),
    include: t.idList({ description: `Only the ${wireKey} with these ids.` }),
    exclude: t.idList({ description: `Leaves out the ${wireKey} with these ids.` }),
    orderBy: t.field({
      type: TermOrderBy,
      description: 'The order of the list, e.g. `NAME_DESC`; by name, ascending, when left out.',
    }),
    order: t.field({
      type: TermOrder,
      description: 'The direction of the order.',
      deprecationReason: 'Use a FIELD_DIRECTION value of `orderBy`, e.g. `NAME_DESC`.',
    }),
    hideEmpty: t.boolean({
      description: `Leaves out ${wireKey} without events; true unless set to false, as upstream.`,
    }),
    eventId: t.id({ description: `Only the ${wireKey} of this event.` }),
    slug: t.string({ description: `Only the ${wireKey} with this slug.` }),
  }));

CategoryRef.implement({
  description: 'An event category; categories nest.',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false, description: 'The WordPress term id of the category.' }),
    name: t.exposeString('name', { nullable: false, description: 'The category name as plain text.' }),
    version: t.string({ nullable: false, description: VERSION_HELP, resolve: (c) => termVersion(c) }),
    slug: t.exposeString('slug', { nullable: false, description: 'The URL slug of the category.' }),
    description: t.exposeString('description', {
      nullable: false,
      description: 'The description; empty when there is none.',
    }),
    count: t.exposeInt('count', { nullable: false, description: 'How many events are in the category.' }),
    url: t.exposeString('url', { description: 'The public archive page of the category, when the upstream sends it.' }),
    parent: t.field({
      type: CategoryRef,
      description: 'The parent category, or null for a top-level category.',
      resolve: (c, _args, { calendar }) => (c.parentId ? calendar.loaders.category.load(c.parentId) : null),
    }),
    children: t.connection(
      {
        type: CategoryRef,
        description: 'The direct subcategories, including those without events.',
        resolve: (c, args, { calendar }) => {
          const query = termListQuery({ parentId: String(c.id), hideEmpty: false });
          return pagedConnection(
            calendar,
            args,
            listKeyOf(`category:${c.id}:children`, query),
            calendar.loaders.categories,
            query,
          );
        },
      },
      CategoryConnection,
    ),
  }),
});

TagRef.implement({
  description: 'An event tag.',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false, description: 'The WordPress term id of the tag.' }),
    name: t.exposeString('name', { nullable: false, description: 'The tag name as plain text.' }),
    version: t.string({ nullable: false, description: VERSION_HELP, resolve: (c) => termVersion(c) }),
    slug: t.exposeString('slug', { nullable: false, description: 'The URL slug of the tag.' }),
    description: t.exposeString('description', {
      nullable: false,
      description: 'The description; empty when there is none.',
    }),
    count: t.exposeInt('count', { nullable: false, description: 'How many posts carry the tag.' }),
    url: t.exposeString('url', { description: 'The public archive page of the tag, when the upstream sends it.' }),
  }),
});

recordEventsField(CategoryRef, 'category', 'in this category');
recordEventsField(TagRef, 'tag', 'with this tag');

builder.queryFields((t) => ({
  category: t.field({
    ...requires('calendar:read'),
    type: CategoryRef,
    description: 'One event category by id; null when there is no such category.',
    args: { id: t.arg.id({ required: true, description: "The category's WordPress term id." }) },
    resolve: (_root, args, { calendar }) => calendar.loaders.category.load(recordId(args.id, 'id')),
  }),
  categories: t.connection(
    {
      ...requires('calendar:read'),
      type: CategoryRef,
      description: 'Event categories, filtered.',
      args: {
        ...termFields('categories'),
        parentId: t.arg.id({ description: 'Only the direct subcategories of this category (0 for top-level ones).' }),
      },
      resolve: (_root, args, { calendar }) => {
        const query = termListQuery({ ...args, ...termOrder(args.orderBy, args.order) });
        return pagedConnection(calendar, args, listKeyOf('categories', query), calendar.loaders.categories, query);
      },
    },
    CategoryConnection,
  ),
  tag: t.field({
    ...requires('calendar:read'),
    type: TagRef,
    description: 'One event tag by id; null when there is no such tag.',
    args: { id: t.arg.id({ required: true, description: "The tag's WordPress term id." }) },
    resolve: (_root, args, { calendar }) => calendar.loaders.tag.load(recordId(args.id, 'id')),
  }),
  tags: t.connection(
    {
      ...requires('calendar:read'),
      type: TagRef,
      description: 'Event tags, filtered.',
      args: termFields('tags'),
      resolve: (_root, args, { calendar }) => {
        const query = termListQuery({ ...args, ...termOrder(args.orderBy, args.order) });
        return pagedConnection(calendar, args, listKeyOf('tags', query), calendar.loaders.tags, query);
      },
    },
    TagConnection,
  ),
}));

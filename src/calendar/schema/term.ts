/**
 * Event categories (hierarchical) and event tags, their events, and their queries.
 */
import { requires } from '../../graph/auth.js';
import { builder } from '../../graph/builder.js';
import { lowerCaseValues } from '../../graph/enum-values.js';
import { VERSION_HELP } from '../../graph/write-args.js';
import { termVersion } from '../versions.js';
import { listKeyOf } from '../../graph/paging.js';
import { recordId, termListQuery } from '../inputs.js';
import { pagedConnection } from './paged.js';
import { recordEventsField } from './record-events.js';
import { CategoryConnection, CategoryRef, TagConnection, TagRef } from './refs.js';

export const TermOrder = builder.enumType('TermOrder', {
  description: "The direction of a category or tag list's order; only for the deprecated one-word `orderBy` values.",
  values: lowerCaseValues({ ASC: 'Ascending (the default).', DESC: 'Descending.' }),
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

/** What categories and tags differ in: their names, how their counts read, and their types' own fields. */
interface TermKind {
  noun: 'category' | 'tag';
  plural: 'categories' | 'tags';
  ref: typeof CategoryRef;
  connection: typeof CategoryConnection;
  description: string;
  count: string;
  /** How its events relate to it, e.g. `in this category`. */
  where: string;
}

/** A term type (category or tag) with its events, `category(id)` and `categories(…)` (or the tag's). */
function termType({ noun, plural, ref, connection, ...o }: TermKind) {
  ref.implement({
    description: o.description,
    fields: (t) => ({
      name: t.exposeString('name', { nullable: false, description: `The ${noun} name as plain text.` }),
      version: t.string({ nullable: false, description: VERSION_HELP, resolve: (c) => termVersion(c) }),
      slug: t.exposeString('slug', { nullable: false, description: `The URL slug of the ${noun}.` }),
      description: t.exposeString('description', {
        nullable: false,
        description: 'The description; empty when there is none.',
      }),
      count: t.exposeInt('count', { nullable: false, description: o.count }),
      url: t.exposeString('url', {
        description: `The public archive page of the ${noun}, when the upstream sends it.`,
      }),
    }),
  });
  recordEventsField(ref, noun, o.where);
  builder.queryFields((t) => ({
    [noun]: t.field({
      ...requires('calendar:read'),
      type: ref,
      description: `One event ${noun} by id; null when there is no such ${noun}.`,
      args: { id: t.arg.id({ required: true, description: `The ${noun}'s WordPress term id.` }) },
      resolve: (_root, args, { calendar }) => calendar.loaders[noun].load(recordId(args.id, 'id', noun)),
    }),
    [plural]: t.connection(
      {
        ...requires('calendar:read'),
        type: ref,
        description: `Event ${plural}, filtered.`,
        args: {
          search: t.arg.string({ description: `Only ${plural} with this text in their name or slug.` }),
          include: t.arg.idList({ description: `Only the ${plural} with these ids.` }),
          exclude: t.arg.idList({ description: `Leaves out the ${plural} with these ids.` }),
          orderBy: t.arg({
            type: TermOrderBy,
            description: 'The order of the list, e.g. `NAME_DESC`; by name, ascending, when left out.',
          }),
          order: t.arg({
            type: TermOrder,
            description: 'The direction of the order.',
            deprecationReason: 'Use a FIELD_DIRECTION value of `orderBy`, e.g. `NAME_DESC`.',
          }),
          hideEmpty: t.arg.boolean({
            description: `Leaves out ${plural} without events; true unless set to false, as upstream.`,
          }),
          eventId: t.arg.id({ description: `Only the ${plural} of this event.` }),
          slug: t.arg.string({ description: `Only the ${plural} with this slug.` }),
          ...(noun === 'category'
            ? {
                parentId: t.arg.id({
                  description: 'Only the direct subcategories of this category (0 for top-level ones).',
                }),
              }
            : {}),
        },
        resolve: (_root, args, { calendar }) => {
          const query = termListQuery({ ...args, ...termOrder(args.orderBy, args.order) }, noun);
          return pagedConnection(calendar, args, listKeyOf(plural, query), calendar.loaders[plural], query);
        },
      },
      connection,
    ),
  }));
}

termType({
  noun: 'category',
  plural: 'categories',
  ref: CategoryRef,
  connection: CategoryConnection,
  description: 'An event category; categories nest.',
  count: 'How many events are in the category.',
  where: 'in this category',
});
termType({
  noun: 'tag',
  plural: 'tags',
  ref: TagRef,
  connection: TagConnection,
  description: 'An event tag.',
  count: 'How many posts carry the tag.',
  where: 'with this tag',
});

builder.objectFields(CategoryRef, (t) => ({
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
        const query = termListQuery({ parentId: String(c.id), hideEmpty: false }, 'category');
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
}));

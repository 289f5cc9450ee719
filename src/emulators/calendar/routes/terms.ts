/**
 * `/categories` and `/tags`: WordPress core's terms controller wrapped by the plugin — list with
 * search/include/exclude/order/orderby/hide_empty (default true)/parent/post/slug, single by id
 * (unknown → 400), create 201 (unique slug from the name), update 200, delete forced (returns the
 * deleted term in the collection shape).
 */
import { Hono, type Context } from 'hono';
import type { Env } from '../../kit/control.js';
import type { WireTaxonomy } from '../../../calendar/wire.js';
import { authenticate, requireEditor } from '../auth.js';
import { invalidParams, RestError } from '../errors.js';
import { pageLinks, sendJson, slicePage, totalsHeaders, type RouteDeps } from '../respond.js';
import { serializeTerm } from '../serialize.js';
import { slugify, type TermRecord } from '../store.js';
import { checkArgs, isBoolish, isPositiveInt, pageArgs, paging, readParams, toList, truthy } from '../validate.js';
import { arg, idsArg } from '../validate.js';
import type { ArgSpecs, Params } from '../validate.js';

const ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'];

export function termRoutes(deps: RouteDeps, taxonomy: WireTaxonomy): Hono<Env> {
  const app = new Hono<Env>({ strict: false });
  const { store, site } = deps;
  const hierarchical = taxonomy === 'tribe_events_cat';
  const plural = hierarchical ? 'categories' : 'tags';
  const isId = (v: unknown) => /^\d+$/.test(String(v).trim()) && Number(v) >= 0;
  const isEvent = (v: unknown) => isPositiveInt(v) && store.postOf('event', Number(v)) !== undefined;

  const listArgs: ArgSpecs = {
    ...pageArgs(),
    search: arg('string', 'Terms whose name contains this text'),
    exclude: idsArg('Term ids to leave out', { validate: (v) => toList(v).every(isId) }),
    include: idsArg('Only these term ids or slugs', {
      validate: (v) => toList(v).every((s) => store.findTerm(taxonomy, s) !== undefined),
    }),
    order: arg('string', 'Sort direction', {
      enum: ['asc', 'desc'],
      default: 'asc',
      validate: (v) => v === 'asc' || v === 'desc',
    }),
    orderby: arg('string', 'Term attribute to sort by', {
      enum: ORDERBY,
      default: 'name',
      validate: (v) => ORDERBY.includes(String(v)),
    }),
    hide_empty: arg('boolean', 'Hide terms without events', { default: true, validate: isBoolish }),
    ...(hierarchical
      ? { parent: { type: 'integer' as const, description: 'Children of this category', validate: isId } }
      : {}),
    post: arg('integer', 'Terms of this event', { validate: isEvent }),
    event: arg('integer', 'Alias of post', { validate: isEvent }),
    slug: arg('string', 'Terms with this slug (or any of these slugs)'),
  };

  const writeArgs = (creating: boolean): ArgSpecs => ({
    name: arg('string', 'The term name', {
      required: creating,
      validate: (v) => typeof v === 'string' && v.trim() !== '',
    }),
    description: arg('string', 'The term description'),
    slug: arg('string', 'The term slug'),
    ...(hierarchical
      ? {
          parent: {
            type: 'integer' as const,
            description: 'The parent category id',
            validate: (v: unknown) => Number(v) === 0 || store.term(Number(v), taxonomy) !== undefined,
          },
        }
      : {}),
  });

  const sortKey = (t: TermRecord, by: string, include: number[]): string | number => {
    switch (by) {
      case 'id':
        return t.id;
      case 'include':
        return include.indexOf(t.id);
      case 'count':
        return store.termCount(t);
      case 'term_group':
        return 0;
      case 'slug':
      case 'include_slugs':
        return t.slug;
      case 'description':
        return t.description;
      default:
        return t.name.toLowerCase();
    }
  };

  const list = async (c: Context<Env>) => {
    authenticate(c.req.header('authorization'));
    const params = await readParams(c);
    checkArgs(params, listArgs);
    const include = toList(params.include).map((s) => store.findTerm(taxonomy, s)!.id);
    const exclude = toList(params.exclude).map(Number);
    const slugs = toList(params.slug);
    const post = params.post ?? params.event;
    const event = post !== undefined ? store.postOf('event', Number(post)) : undefined;
    const search = typeof params.search === 'string' ? params.search.toLowerCase() : '';
    const hideEmpty = params.hide_empty === undefined ? true : truthy(params.hide_empty);
    const by = String(params.orderby ?? 'name');
    const dir = params.order === 'desc' ? -1 : 1;
    const rows = store
      .terms(taxonomy)
      .filter((t) => !include.length || include.includes(t.id))
      .filter((t) => !exclude.includes(t.id))
      .filter((t) => !slugs.length || slugs.includes(t.slug))
      .filter((t) => !search || t.name.toLowerCase().includes(search) || t.slug.includes(search))
      .filter((t) => params.parent === undefined || t.parent === Number(params.parent))
      .filter((t) => !event || (hierarchical ? event.categoryIds : event.tagIds).includes(t.id))
      .filter((t) => !hideEmpty || store.termCount(t) > 0)
      .sort((a, b) => {
        const x = sortKey(a, by, include);
        const y = sortKey(b, by, include);
        return (x < y ? -1 : x > y ? 1 : a.id - b.id) * dir;
      });
    const { page, perPage } = paging(params);
    const { items, total, totalPages } = slicePage(rows, page, perPage);
    if (page > totalPages && total > 0) {
      throw new RestError(
        400,
        'rest_term_invalid_page_number',
        'The page number requested is larger than the number of pages available.',
      );
    }
    const base = `${site.apiRoot}/${plural}/`;
    const query = Object.entries(params).filter(([k]) => k !== 'page');
    return sendJson(
      c,
      {
        rest_url: base,
        total,
        total_pages: totalPages,
        [plural]: items.map((t) => serializeTerm(site, store, t)),
        ...pageLinks(base, [['page', page], ...query], page, totalPages),
      },
      200,
      totalsHeaders(total, totalPages),
    );
  };

  const resolve = (c: Context<Env>): TermRecord => {
    const t = store.term(Number(c.req.param('id')), taxonomy);
    if (!t) throw invalidParams(['id']);
    return t;
  };

  const duplicate = (name: string, parent: number, except?: number) => {
    const t = store
      .terms(taxonomy)
      .find((x) => x.id !== except && x.name.toLowerCase() === name.trim().toLowerCase() && x.parent === parent);
    if (t) throw new RestError(400, 'term_exists', 'A term with the name provided already exists in this taxonomy.');
  };
  const slugFor = (wanted: string, except?: number) =>
    store.uniqueSlug(wanted, (s) => store.terms(taxonomy).some((t) => t.slug === s && t.id !== except));

  const create = async (c: Context<Env>) => {
    const user = authenticate(c.req.header('authorization'));
    const p: Params = await readParams(c);
    checkArgs(p, writeArgs(true));
    requireEditor(user);
    const name = String(p.name).trim();
    const parent = hierarchical ? Number(p.parent ?? 0) : 0;
    duplicate(name, parent);
    const slug = slugFor(typeof p.slug === 'string' && slugify(p.slug) ? p.slug : name);
    const t = store.addTerm({
      taxonomy,
      name,
      slug,
      description: typeof p.description === 'string' ? p.description : '',
      parent,
    });
    return sendJson(c, serializeTerm(site, store, t), 201);
  };

  const update = async (c: Context<Env>) => {
    const user = authenticate(c.req.header('authorization'));
    const p = await readParams(c);
    const t = resolve(c);
    checkArgs(p, writeArgs(false));
    requireEditor(user);
    if (typeof p.name === 'string') {
      duplicate(p.name, t.parent, t.id);
      t.name = p.name.trim();
    }
    if (typeof p.description === 'string') t.description = p.description;
    if (typeof p.slug === 'string' && slugify(p.slug)) t.slug = slugFor(p.slug, t.id);
    if (hierarchical && p.parent !== undefined) t.parent = Number(p.parent);
    return sendJson(c, serializeTerm(site, store, t));
  };

  const remove = async (c: Context<Env>) => {
    const user = authenticate(c.req.header('authorization'));
    const t = resolve(c);
    requireEditor(user);
    const body = serializeTerm(site, store, t);
    store.deleteTerm(t);
    return sendJson(c, body);
  };

  app.get(`/${plural}`, list);
  app.post(`/${plural}`, create);
  app.get(`/${plural}/:id{[0-9]+}`, async (c) => {
    authenticate(c.req.header('authorization'));
    return sendJson(c, serializeTerm(site, store, resolve(c)));
  });
  app.on(['POST', 'PUT', 'PATCH'], `/${plural}/:id{[0-9]+}`, update);
  app.delete(`/${plural}/:id{[0-9]+}`, remove);
  return app;
}

/**
 * `/venues` and `/organizers` (one implementation, two kinds): archive with search, event, has_events,
 * only_with_upcoming and status; single reads by id (unknown → 400 rest_invalid_param) and slug;
 * create 201, update 200, delete → trash 200, then 410.
 */
import { Hono, type Context } from 'hono';
import type { Env } from '../../kit/control.js';
import { authenticate, requireEditor } from '../auth.js';
import { utcWall } from '../dates.js';
import { invalidParams, RestError } from '../errors.js';
import { sendArchive, sendJson, type RouteDeps } from '../respond.js';
import { serializeOrganizer, serializeVenue } from '../serialize.js';
import { REGISTERED_STATUSES, type OrganizerRecord, type VenueRecord } from '../store.js';
import { checkArgs, isBoolish, isNonEmptyString, isPositiveInt, pageArgs, paging, readParams } from '../validate.js';
import { arg } from '../validate.js';
import { toList, truthy } from '../validate.js';
import type { ArgSpecs } from '../validate.js';
import { applyLinkedBody, createLinked, linkedWriteArgs } from './linked-write.js';

type Kind = 'venue' | 'organizer';
type Rec = VenueRecord | OrganizerRecord;

export function linkedRoutes(deps: RouteDeps, kind: Kind): Hono<Env> {
  const app = new Hono<Env>({ strict: false });
  const { store, site } = deps;
  const plural = `${kind}s`;
  const all = (): Rec[] => store.posts(kind);
  const get = (id: number): Rec | undefined => store.postOf(kind, id);
  const serialize = (r: Rec, single = false) =>
    r.kind === 'venue' ? serializeVenue(site, r, single) : serializeOrganizer(site, r, single);
  const linkKey = kind === 'venue' ? 'venueIds' : 'organizerIds';
  const eventsOf = (r: Rec) => store.posts('event').filter((e) => e.status !== 'trash' && e[linkKey].includes(r.id));

  const listArgs = (canEdit: boolean): ArgSpecs => ({
    ...pageArgs(),
    search: arg('string', `${kind}s whose name or description contains this text`, { validate: isNonEmptyString }),
    event: arg('integer', `${kind}s related to this event`, {
      validate: (v) => isPositiveInt(v) && store.postOf('event', Number(v)) !== undefined,
    }),
    has_events: arg('boolean', `${kind}s with (true) or without (false) events`, { validate: isBoolish }),
    only_with_upcoming: arg('boolean', `Only ${kind}s with upcoming events`, { default: false, validate: isBoolish }),
    status: arg('string', 'Post status(es)', {
      validate: (v) =>
        toList(v).length > 0 && toList(v).every((s) => (canEdit ? REGISTERED_STATUSES.includes(s) : s === 'publish')),
    }),
  });

  const list = async (c: Context<Env>) => {
    const user = authenticate(c.req.header('authorization'));
    const params = await readParams(c);
    checkArgs(params, listArgs(!!user?.canEdit));
    const statuses = params.status !== undefined ? toList(params.status) : user?.canEdit ? undefined : ['publish'];
    const search = typeof params.search === 'string' ? params.search.toLowerCase() : undefined;
    const event = params.event !== undefined ? store.postOf('event', Number(params.event)) : undefined;
    const now = utcWall(deps.now());
    const rows = all()
      .filter((r) => (statuses ? statuses.includes(r.status) : r.status !== 'trash'))
      .filter((r) => !search || r.title.toLowerCase().includes(search) || r.description.toLowerCase().includes(search))
      .filter((r) => !event || event[linkKey].includes(r.id))
      .filter((r) => params.has_events === undefined || eventsOf(r).length > 0 === truthy(params.has_events))
      .filter(
        (r) => !truthy(params.only_with_upcoming) || eventsOf(r).some((e) => e.status === 'publish' && e.end >= now),
      )
      .sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
    const { page, perPage } = paging(params);
    const query: [string, unknown][] = [
      ['page', page > 1 ? page : undefined],
      ['per_page', perPage],
      ['search', params.search],
      ['event', params.event],
      ['has_events', params.has_events],
      ['only_with_upcoming', params.only_with_upcoming],
      ['status', statuses?.join(',')],
    ];
    return sendArchive(c, { kind, base: `${site.apiRoot}/${plural}/`, query, page, perPage }, rows, (r) =>
      serialize(r),
    );
  };

  /** Path → record: unknown ids and slugs are invalid params (`is_venue_id` / `is_organizer_id`). */
  const resolve = (c: Context<Env>): Rec => {
    const id = c.req.param('id');
    if (id !== undefined) {
      const r = get(Number(id));
      if (!r) throw invalidParams(['id']);
      return r;
    }
    const r = store.bySlug(kind, decodeURIComponent(c.req.param('slug') ?? ''));
    if (!r) throw invalidParams(['slug']);
    return r;
  };

  const read = async (c: Context<Env>) => {
    const user = authenticate(c.req.header('authorization'));
    const r = resolve(c);
    if (r.status !== 'publish' && !user?.canEdit)
      throw new RestError(403, `${kind}-not-accessible`, `The requested ${kind} is not accessible`);
    return sendJson(c, serialize(r, true));
  };

  const create = async (c: Context<Env>) => {
    const user = authenticate(c.req.header('authorization'));
    const params = await readParams(c);
    checkArgs(params, linkedWriteArgs(kind, true));
    requireEditor(user);
    const r = createLinked(deps, kind, params);
    return sendJson(c, serialize(r), 201);
  };

  const update = async (c: Context<Env>) => {
    const user = authenticate(c.req.header('authorization'));
    const params = await readParams(c);
    const r = resolve(c);
    checkArgs(params, linkedWriteArgs(kind, false));
    requireEditor(user);
    applyLinkedBody(deps, r, params);
    return sendJson(c, serialize(r));
  };

  const remove = async (c: Context<Env>) => {
    const user = authenticate(c.req.header('authorization'));
    const r = resolve(c);
    requireEditor(user);
    if (r.status === 'trash') throw new RestError(410, `${kind}-is-in-trash`, `The ${kind} is already trashed`);
    r.status = 'trash';
    return sendJson(c, serialize(r));
  };

  app.get(`/${plural}`, list);
  app.post(`/${plural}`, create);
  for (const path of [`/${plural}/:id{[0-9]+}`, `/${plural}/by-slug/:slug`]) {
    app.get(path, read);
    app.on(['POST', 'PUT', 'PATCH'], path, update);
    app.delete(path, remove);
  }
  return app;
}

/**
 * `/events` routes: archive, single reads by id and slug (with the 6.17.2 / ≤6.17.1 error variants),
 * create, update (POST/PUT/PATCH) and delete (trash, then 410). Order in every handler: authenticate,
 * validate params, check permission, then the handler's own errors — as WordPress dispatches.
 */
import { Hono, type Context } from 'hono';
import type { Env } from '../../kit/control.js';
import { authenticate, requireEditor, type CalendarUser } from '../auth.js';
import { eventNotFound, invalidParams, RestError } from '../errors.js';
import { sendJson, type RouteDeps } from '../respond.js';
import { serializeEvent } from '../serialize.js';
import type { EventRecord } from '../store.js';
import { checkArgs, readParams, type Params } from '../validate.js';
import { applyEventBody, eventWriteArgs, newEvent } from './event-write.js';
import { getEvents } from './events-list.js';

type Lookup = { by: 'id'; id: number } | { by: 'slug'; slug: string };

export function eventRoutes(deps: RouteDeps): Hono<Env> {
  const app = new Hono<Env>({ strict: false });
  const { store, site } = deps;
  const legacy = deps.pluginVersion === '6.17.1';

  /** Resolves the path; slugs must exist (400), ids are the handler's business. */
  const resolve = (l: Lookup): { id: number; event: EventRecord | undefined } => {
    if (l.by === 'id') return { id: l.id, event: store.postOf('event', l.id) };
    const event = store.bySlug('event', l.slug);
    if (!event) throw invalidParams(['slug']);
    return { id: event.id, event };
  };

  const read = async (c: Context<Env>, l: Lookup) => {
    const user = authenticate(c.req.header('authorization'));
    const params = await readParams(c);
    const { id, event } = resolve(l);
    if (!event) {
      if (legacy || store.post(id)) {
        // Not a post at all (≤6.17.1) or a post of another type.
        if (legacy) throw invalidParams(['id']);
        throw new RestError(400, 'rest-invalid-event-id', 'The specified ID is not a valid event.');
      }
      throw eventNotFound(id);
    }
    if (event.status === 'trash') {
      if (!legacy) throw new RestError(403, 'event-no-longer-available', 'This event is no longer available');
      if (!user?.canEdit) throw new RestError(403, 'event-not-accessible', 'The requested event is not accessible');
    } else if (event.status !== 'publish' && !user?.canEdit) {
      throw new RestError(403, 'event-not-accessible', 'The requested event is not accessible');
    }
    if (event.password !== undefined && params.password !== event.password) {
      throw new RestError(403, 'event-password-protected', 'The requested event is not accessible without a password');
    }
    return sendJson(c, serializeEvent(site, store, event, { single: true }));
  };

  const update = async (c: Context<Env>, l: Lookup) => {
    const user = authenticate(c.req.header('authorization'));
    const params = await readParams(c);
    const { id, event } = resolve(l);
    checkArgs(params, eventWriteArgs(deps, false));
    requireEditor(user);
    const target = found(id, event);
    applyEventBody(deps, target, params, true);
    return sendJson(c, serializeEvent(site, store, target));
  };

  const remove = async (c: Context<Env>, l: Lookup) => {
    const user = authenticate(c.req.header('authorization'));
    await readParams(c);
    const { id, event } = resolve(l);
    requireEditor(user);
    const target = found(id, event);
    if (target.status === 'trash') throw new RestError(410, 'event-is-in-trash', 'The event is already trashed');
    target.status = 'trash';
    return sendJson(c, serializeEvent(site, store, target));
  };

  const found = (id: number, event: EventRecord | undefined): EventRecord => {
    if (event) return event;
    if (legacy) throw invalidParams(['id']);
    throw eventNotFound(id);
  };

  const create = async (c: Context<Env>) => {
    const user: CalendarUser | null = authenticate(c.req.header('authorization'));
    const params: Params = await readParams(c);
    checkArgs(params, eventWriteArgs(deps, true));
    requireEditor(user);
    const event = newEvent(deps, params);
    applyEventBody(deps, event, params, true);
    store.addPost(event);
    return sendJson(c, serializeEvent(site, store, event), 201);
  };

  const byId = (c: Context<Env>): Lookup => ({ by: 'id', id: Number(c.req.param('id')) });
  const bySlug = (c: Context<Env>): Lookup => ({ by: 'slug', slug: decodeURIComponent(c.req.param('slug') ?? '') });

  app.get('/events', (c) => getEvents(c, deps));
  app.post('/events', create);
  app.get('/events/by-slug/:slug', (c) => read(c, bySlug(c)));
  app.on(['POST', 'PUT', 'PATCH'], '/events/by-slug/:slug', (c) => update(c, bySlug(c)));
  app.delete('/events/by-slug/:slug', (c) => remove(c, bySlug(c)));
  app.get('/events/:id{[0-9]+}', (c) => read(c, byId(c)));
  app.on(['POST', 'PUT', 'PATCH'], '/events/:id{[0-9]+}', (c) => update(c, byId(c)));
  app.delete('/events/:id{[0-9]+}', (c) => remove(c, byId(c)));
  return app;
}

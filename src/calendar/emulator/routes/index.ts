/**
 * Discovery: `GET /` (WordPress's namespace index: route keys with PCRE patterns, endpoints with their
 * JSON-schema args, `_links.self` only for routes without variables) and `GET /doc` (the plugin's
 * OpenAPI 3.0.0 document — reasonable, not exhaustive). Both are built from the same arg specs the
 * handlers validate with.
 */
import { Hono } from 'hono';
import type { Env } from '../../../emulator-kit/control.js';
import { sendJson, type RouteDeps } from '../respond.js';
import type { ArgSpec, ArgSpecs } from '../validate.js';
import { eventWriteArgs } from './event-write.js';
import { eventListArgs } from './events-list.js';
import { linkedWriteArgs } from './linked-write.js';

interface RouteInfo {
  path: string;
  endpoints: { methods: string[]; args: ArgSpecs }[];
}

const idArg: ArgSpecs = { id: { type: 'integer', description: 'The id', required: true } };
const slugArg: ArgSpecs = { slug: { type: 'string', description: 'The slug', required: true } };
const pageArgs: ArgSpecs = {
  page: { type: 'integer', description: 'The archive page to return', default: 1 },
  per_page: { type: 'integer', description: 'The number of items to return per page', default: 10 },
};
const W = ['POST', 'PUT', 'PATCH'];

function routeTable(deps: RouteDeps, namespace: string): RouteInfo[] {
  const termArgs: ArgSpecs = {
    ...pageArgs,
    search: { type: 'string', description: 'Search string' },
    hide_empty: { type: 'boolean', description: 'Hide terms without events', default: true },
  };
  const termWrite: ArgSpecs = {
    name: { type: 'string', description: 'Term name', required: true },
    description: { type: 'string', description: 'Description' },
    slug: { type: 'string', description: 'Slug' },
  };
  const routes: RouteInfo[] = [
    {
      path: '',
      endpoints: [
        {
          methods: ['GET'],
          args: {
            namespace: { type: 'string', description: '', default: namespace },
            context: { type: 'string', description: '', default: 'view' },
          },
        },
      ],
    },
    { path: '/doc', endpoints: [{ methods: ['GET'], args: {} }] },
    {
      path: '/events',
      endpoints: [
        { methods: ['GET'], args: eventListArgs(deps, null) },
        { methods: ['POST'], args: eventWriteArgs(deps, true) },
      ],
    },
  ];
  for (const [suffix, arg] of [
    ['(?P<id>\\d+)', idArg],
    ['by-slug/(?P<slug>[^/]+)', slugArg],
  ] as const) {
    routes.push({
      path: `/events/${suffix}`,
      endpoints: [
        { methods: ['GET'], args: { ...arg, password: { type: 'string', description: 'The event password' } } },
        { methods: ['DELETE'], args: arg },
        { methods: W, args: { ...arg, ...eventWriteArgs(deps, false) } },
      ],
    });
  }
  for (const kind of ['venue', 'organizer'] as const) {
    routes.push({
      path: `/${kind}s`,
      endpoints: [
        { methods: ['GET'], args: pageArgs },
        { methods: ['POST'], args: linkedWriteArgs(kind, true) },
      ],
    });
    for (const [suffix, arg] of [
      ['(?P<id>\\d+)', idArg],
      ['by-slug/(?P<slug>[^/]+)', slugArg],
    ] as const) {
      routes.push({
        path: `/${kind}s/${suffix}`,
        endpoints: [
          { methods: ['GET'], args: arg },
          { methods: ['DELETE'], args: arg },
          { methods: W, args: { ...arg, ...linkedWriteArgs(kind, false) } },
        ],
      });
    }
  }
  for (const plural of ['categories', 'tags']) {
    routes.push({
      path: `/${plural}`,
      endpoints: [
        { methods: ['GET'], args: termArgs },
        { methods: ['POST'], args: termWrite },
      ],
    });
    routes.push({
      path: `/${plural}/(?P<id>\\d+)`,
      endpoints: [
        { methods: ['GET'], args: idArg },
        { methods: W, args: { ...idArg, ...termWrite } },
        { methods: ['DELETE'], args: idArg },
      ],
    });
  }
  return routes;
}

/** Only JSON-schema keywords plus `required` are exposed. */
const publicArg = (a: ArgSpec) => ({
  type: a.type,
  description: a.description,
  ...(a.default !== undefined ? { default: a.default } : {}),
  ...(a.enum ? { enum: a.enum } : {}),
  ...(a.items ? { items: a.items } : {}),
  required: a.required ?? false,
});
const publicArgs = (args: ArgSpecs) => Object.fromEntries(Object.entries(args).map(([k, a]) => [k, publicArg(a)]));

export function indexRoutes(deps: RouteDeps, namespace: string): Hono<Env> {
  const app = new Hono<Env>({ strict: false });
  const wpJson = deps.site.apiRoot.slice(0, -namespace.length - 1);

  app.get('/', (c) => {
    const routes = Object.fromEntries(
      routeTable(deps, namespace).map((r) => [
        `/${namespace}${r.path}`,
        {
          namespace,
          methods: r.endpoints.flatMap((e) => e.methods),
          endpoints: r.endpoints.map((e) => ({ methods: e.methods, args: publicArgs(e.args) })),
          ...(r.path.includes('(?P<') ? {} : { _links: { self: [{ href: `${deps.site.apiRoot}${r.path}` }] } }),
        },
      ]),
    );
    return sendJson(c, { namespace, routes, _links: { up: [{ href: `${wpJson}/` }] } });
  });

  app.get('/doc', (c) => {
    const paths: Record<string, unknown> = {};
    for (const r of routeTable(deps, namespace).filter((x) => x.path !== '')) {
      const oaPath = r.path.replace('(?P<id>\\d+)', '{id}').replace('(?P<slug>[^/]+)', '{slug}');
      const ops: Record<string, unknown> = {};
      for (const e of r.endpoints) {
        const method = e.methods[0]!.toLowerCase();
        const inPath = (name: string) => oaPath.includes(`{${name}}`);
        const op: Record<string, unknown> = {
          parameters: Object.entries(e.args)
            .filter(([name]) => method === 'get' || method === 'delete' || inPath(name))
            .map(([name, a]) => ({
              name,
              in: inPath(name) ? 'path' : 'query',
              description: a.description,
              required: inPath(name) || !!a.required,
              schema: { type: a.type },
            })),
          responses: {
            200: { description: 'OK' },
            400: { description: 'Invalid parameters' },
            ...(method === 'get' ? {} : { 401: { description: 'Unauthorized' }, 403: { description: 'Forbidden' } }),
          },
        };
        if (method === 'post') {
          const body = Object.entries(e.args).filter(([name]) => !inPath(name));
          op.requestBody = {
            content: {
              'application/x-www-form-urlencoded': {
                schema: { type: 'object', properties: Object.fromEntries(body.map(([n, a]) => [n, publicArg(a)])) },
              },
            },
          };
        }
        ops[method] = op;
      }
      paths[oaPath] = ops;
    }
    const str = { type: 'string' };
    return sendJson(c, {
      openapi: '3.0.0',
      info: {
        version: '1.0.0',
        title: 'The Events Calendar REST API',
        description:
          'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
      },
      components: {
        schemas: {
          ImageSize: {
            type: 'object',
            properties: { width: { type: 'integer' }, height: { type: 'integer' }, 'mime-type': str, url: str },
          },
          CostDetails: {
            type: 'object',
            properties: {
              currency_symbol: str,
              currency_position: str,
              values: { type: 'array', items: { type: 'integer' } },
            },
          },
          Term: {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              name: str,
              slug: str,
              taxonomy: str,
              description: str,
              parent: { type: 'integer' },
              count: { type: 'integer' },
            },
          },
          Image: {
            type: 'object',
            properties: {
              url: str,
              id: { type: 'integer' },
              extension: str,
              width: { type: 'integer' },
              height: { type: 'integer' },
            },
          },
          DateDetails: {
            type: 'object',
            properties: Object.fromEntries(
              ['year', 'month', 'day', 'hour', 'minutes', 'seconds'].map((k) => [k, { type: 'integer' }]),
            ),
          },
          Event: {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              author: { type: 'integer' },
              title: str,
              start_date: str,
              end_date: str,
              venue: { $ref: '#/components/schemas/Venue' },
            },
          },
          Venue: {
            type: 'object',
            properties: { id: { type: 'integer' }, venue: str, address: str, city: str, country: str },
          },
          Organizer: {
            type: 'object',
            properties: { id: { type: 'integer' }, organizer: str, email: str, phone: str },
          },
        },
      },
      servers: [{ url: deps.site.apiRoot }],
      paths,
    });
  });
  return app;
}

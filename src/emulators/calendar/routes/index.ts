/**
 * Discovery: `GET /` (WordPress's namespace index: route keys with PCRE patterns, endpoints with their
 * JSON-schema args, `_links.self` only for routes without variables) and `GET /doc` (the plugin's
 * OpenAPI 3.0.0 document — reasonable, not exhaustive). Both are built from the same arg specs the
 * handlers validate with.
 */
import { Hono } from 'hono';
import type { Env } from '../../kit/control.js';
import { sendJson, type RouteDeps } from '../respond.js';
import type { ArgSpec, ArgSpecs } from '../validate.js';
import { arg } from '../validate.js';
import { eventWriteArgs } from './event-write.js';
import { eventListArgs } from './events-list.js';
import { linkedWriteArgs } from './linked-write.js';

interface RouteInfo {
  path: string;
  endpoints: { methods: string[]; args: ArgSpecs }[];
}

const idArg: ArgSpecs = { id: arg('integer', 'The id', { required: true }) };
const slugArg: ArgSpecs = { slug: arg('string', 'The slug', { required: true }) };
const pageArgs: ArgSpecs = {
  page: arg('integer', 'The archive page to return', { default: 1 }),
  per_page: arg('integer', 'The number of items to return per page', { default: 10 }),
};
const W = ['POST', 'PUT', 'PATCH'];

/** An archive route: GET lists, POST creates. */
const archive = (path: string, list: ArgSpecs, create: ArgSpecs): RouteInfo => ({
  path,
  endpoints: [
    { methods: ['GET'], args: list },
    { methods: ['POST'], args: create },
  ],
});

/** The by-id and by-slug routes of one post kind. */
const singles = (base: string, read: ArgSpecs, write: ArgSpecs): RouteInfo[] =>
  (
    [
      ['(?P<id>\\d+)', idArg],
      ['by-slug/(?P<slug>[^/]+)', slugArg],
    ] as const
  ).map(([suffix, arg]) => ({
    path: `${base}/${suffix}`,
    endpoints: [
      { methods: ['GET'], args: { ...arg, ...read } },
      { methods: ['DELETE'], args: arg },
      { methods: W, args: { ...arg, ...write } },
    ],
  }));

function routeTable(deps: RouteDeps, namespace: string): RouteInfo[] {
  const termArgs: ArgSpecs = {
    ...pageArgs,
    search: arg('string', 'Search string'),
    hide_empty: arg('boolean', 'Hide terms without events', { default: true }),
  };
  const termWrite: ArgSpecs = {
    name: arg('string', 'Term name', { required: true }),
    description: arg('string', 'Description'),
    slug: arg('string', 'Slug'),
  };
  const password: ArgSpecs = { password: arg('string', 'The event password') };
  return [
    {
      path: '',
      endpoints: [
        {
          methods: ['GET'],
          args: {
            namespace: arg('string', '', { default: namespace }),
            context: arg('string', '', { default: 'view' }),
          },
        },
      ],
    },
    { path: '/doc', endpoints: [{ methods: ['GET'], args: {} }] },
    archive('/events', eventListArgs(deps, null), eventWriteArgs(deps, true)),
    ...singles('/events', password, eventWriteArgs(deps, false)),
    ...(['venue', 'organizer'] as const).flatMap((kind) => [
      archive(`/${kind}s`, pageArgs, linkedWriteArgs(kind, true)),
      ...singles(`/${kind}s`, {}, linkedWriteArgs(kind, false)),
    ]),
    ...['categories', 'tags'].flatMap((plural) => [
      archive(`/${plural}`, termArgs, termWrite),
      {
        path: `/${plural}/(?P<id>\\d+)`,
        endpoints: [
          { methods: ['GET'], args: idArg },
          { methods: W, args: { ...idArg, ...termWrite } },
          { methods: ['DELETE'], args: idArg },
        ],
      },
    ]),
  ];
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

/** An OpenAPI object schema from `name[:type]` words (string by default) and extra properties. */
const object = (spec: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: {
    ...Object.fromEntries(
      spec.split(' ').map((word) => {
        const [name, type = 'string'] = word.split(':');
        return [name as string, { type }];
      }),
    ),
    ...extra,
  },
});

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
          ImageSize: object('width:integer height:integer mime-type url'),
          CostDetails: object('currency_symbol currency_position', {
            values: { type: 'array', items: { type: 'integer' } },
          }),
          Term: object('id:integer name slug taxonomy description parent:integer count:integer'),
          Image: object('url id:integer extension width:integer height:integer'),
          DateDetails: object('year:integer month:integer day:integer hour:integer minutes:integer seconds:integer'),
          Event: object('id:integer author:integer title start_date end_date', {
            venue: { $ref: '#/components/schemas/Venue' },
          }),
          Venue: object('id:integer venue address city country'),
          Organizer: object('id:integer organizer email phone'),
        },
      },
      servers: [{ url: deps.site.apiRoot }],
      paths,
    });
  });
  return app;
}

/**
 * `viewer`: who the gateway takes the caller for and what they may do, so a frontend can hide the
 * buttons of what would be refused. Never cached across callers (it names the caller).
 */
import type { Principal } from '../identity/principal.js';
import { builder } from './builder.js';

const Viewer = builder.objectRef<Principal>('Viewer').implement({
  description: 'The caller of this request, as authentication saw it.',
  fields: (t) => ({
    id: t.exposeString('id', {
      description: '`issuer|subject` for a token, `key:<name>` for an API key, `anonymous` without credentials.',
    }),
    kind: t.exposeString('kind', { description: '`user`, `service`, `apikey` or `anonymous`.' }),
    permissions: t.stringList({
      description: 'The permissions held, e.g. `governance:read`; a field needing another one is FORBIDDEN.',
      resolve: (p) => [...p.permissions].sort(),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: Viewer,
    description: 'Who is calling and what they may do.',
    resolve: (_root, _args, ctx) => {
      // It names the caller: an answer holding it is never cached for anyone else.
      ctx.usage.readFreshUntil(null);
      return ctx.principal;
    },
  }),
);

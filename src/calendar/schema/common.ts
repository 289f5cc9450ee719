/**
 * Shared calendar value types: the HTML scalar, images, cost details and custom fields; and the
 * description of `globalId`, which events, venues and organizers share.
 */
import { GraphQLError, Kind } from 'graphql';
import { builder } from '../../graph/builder.js';
import { recordIds } from '../../graph/node.js';
import { CostDetailsRef, CustomFieldRef, ImageRef, ImageSizeRef } from './refs.js';

const asString = (value: unknown): string => {
  if (typeof value !== 'string') throw new GraphQLError('HTML must be a string.');
  return value;
};

export const GLOBAL_ID_HELP = 'A stable identifier across sites (`host?id=N`); do not parse it.';

// The builder's scalar table is shared and not ours to edit; HTML is a plain string at the type level.
export const HTMLScalar = builder.scalarType('HTML' as 'JSON', {
  description: 'An HTML fragment as the calendar stores it (e.g. `<p>…</p>`); render it as HTML, not as text.',
  serialize: asString,
  parseValue: asString,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('HTML must be a string.');
    return ast.value;
  },
});

ImageSizeRef.implement({
  description: 'One generated size of an image.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'The size name, e.g. `thumbnail` or `medium`.' }),
    url: t.exposeString('url', { nullable: false, description: 'The URL of the image file in this size.' }),
    width: t.exposeInt('width', { description: 'The width in pixels, when known.' }),
    height: t.exposeInt('height', { description: 'The height in pixels, when known.' }),
    mimeType: t.exposeString('mimeType', { description: 'The MIME type of the file, when known.' }),
  }),
});

ImageRef.implement({
  description: 'A featured image of a calendar record.',
  fields: (t) => ({
    ...recordIds(t, 'CalendarImage', (i) => i.id, 'The WordPress attachment id of the image'),
    url: t.exposeString('url', { nullable: false, description: 'The URL of the full-size image.' }),
    width: t.exposeInt('width', { description: 'The full-size width in pixels, when known.' }),
    height: t.exposeInt('height', { description: 'The full-size height in pixels, when known.' }),
    extension: t.exposeString('extension', { description: 'The file extension, e.g. `jpg`, when known.' }),
    sizes: t.expose('sizes', {
      nullable: false,
      type: [ImageSizeRef],
      description: 'The generated sizes of the image.',
    }),
  }),
});

CostDetailsRef.implement({
  description: 'The cost of an event as numbers and currency, for formatting it yourself.',
  fields: (t) => ({
    currencySymbol: t.exposeString('currencySymbol', {
      description: 'The currency symbol, e.g. `$`, when the event has one.',
    }),
    currencyCode: t.exposeString('currencyCode', {
      description: 'The ISO 4217 currency code, e.g. `USD`, when the event has one.',
    }),
    currencyPosition: t.exposeString('currencyPosition', {
      description: 'Whether the symbol goes before (`prefix`) or after (`postfix`) the amount.',
    }),
    values: t.exposeFloatList('values', {
      nullable: false,
      description:
        'The cost values in ascending order (one price or the ends of a range); empty when there is no cost.',
    }),
  }),
});

CustomFieldRef.implement({
  description: 'An additional field an event carries (Events Calendar Pro).',
  fields: (t) => ({
    key: t.exposeString('key', { nullable: false, description: "The field's meta key, e.g. `_ecp_custom_2`." }),
    label: t.exposeString('label', { nullable: false, description: "The field's label as the site shows it." }),
    value: t.exposeString('value', { nullable: false, description: "The field's value as text." }),
  }),
});

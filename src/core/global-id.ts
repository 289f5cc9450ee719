/**
 * Global object ids: every object's `id` in the graph is base64 of `<Type>:<upstream id>` (the
 * Relay convention and Pothos' default encoding), opaque to clients, so no two objects of different
 * types share one. Arguments take an id in either form, the global one or the upstream's own
 * (`databaseId`), so callers that stored upstream ids and other subgraphs keep working.
 */
import { InputError } from './errors.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const TYPE = /^[A-Z][A-Za-z]*$/;

export const encodeGlobalId = (type: string, id: string | number): string =>
  Buffer.from(`${type}:${id}`, 'utf8').toString('base64');

/** The type and upstream id a global id holds; undefined for anything that is not one. */
export function decodeGlobalId(text: string): { type: string; id: string } | undefined {
  if (text.length > 400 || !BASE64.test(text)) return undefined;
  const decoded = Buffer.from(text, 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  const type = decoded.slice(0, at);
  const id = decoded.slice(at + 1);
  if (at < 1 || !id || !TYPE.test(type) || encodeGlobalId(type, id) !== text) return undefined;
  return { type, id };
}

/**
 * The upstream id an argument names: `value` itself when `isUpstream` accepts it, else what the
 * global id of one of `types` holds. Anything else is refused, naming `argument`, before any call.
 */
export function upstreamIdOf(
  value: string | number,
  argument: string,
  types: readonly string[],
  isUpstream: (text: string) => boolean,
  what: string,
): string {
  const text = String(value).trim();
  if (isUpstream(text)) return text;
  const global = decodeGlobalId(text);
  if (!global)
    throw new InputError(`"${argument}" must be ${what} or its global id (got "${text.slice(0, 60)}").`, argument);
  if (!types.includes(global.type))
    throw new InputError(
      `"${argument}" is the id of a ${global.type}; it takes ${types.length ? `the id of a ${types.join(' or ')}` : what}.`,
      argument,
    );
  return global.id;
}

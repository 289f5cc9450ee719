/** Global ids in tests: what the gateway encodes (src/core/global-id.ts), built and read back. */
import { decodeGlobalId, encodeGlobalId } from '../../src/core/global-id.js';

export const globalId = (type: string, id: string | number): string => encodeGlobalId(type, id);

/** The upstream id a global id holds, checking its type. */
export function databaseIdOf(id: string, type?: string): string {
  const global = decodeGlobalId(id);
  if (!global) throw new Error(`not a global id: ${id}`);
  if (type && global.type !== type) throw new Error(`${id} is a ${global.type}, not a ${type}`);
  return global.id;
}

/** The type a global id names. */
export const typeOf = (id: string): string | undefined => decodeGlobalId(id)?.type;

/** The (deprecated) `id` of a calendar delete payload: its own, from the deleted record's. */
export const payloadId = (payload: string, recordId: string): string => globalId(payload, databaseIdOf(recordId));

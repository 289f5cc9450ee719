/**
 * The calendar's records as Relay nodes: `node(id:)` reads each through the loader its lookup uses
 * (`event(id:)`, `venue(id:)`, …), so a node costs what the lookup costs.
 */
import type { ObjectRef } from '@pothos/core';
import type { Types } from '../../graph/builder.js';
import { recordNode } from '../../graph/node.js';
import type { RecordNoun } from '../inputs.js';
import { CategoryRef, EventRef, OrganizerRef, TagRef, VenueRef } from './refs.js';

/** A WordPress id as a loader takes it; '' for anything else (node-ids.ts refuses it). */
const postKey = (key: string) =>
  /^\d{1,16}$/.test(key) && Number.isSafeInteger(Number(key)) && Number(key) > 0 ? key : '';

const nodes: [ObjectRef<Types, { id: number }>, RecordNoun, string][] = [
  [EventRef, 'event', 'The WordPress post id of the event'],
  [VenueRef, 'venue', 'The WordPress post id of the venue'],
  [OrganizerRef, 'organizer', 'The WordPress post id of the organizer'],
  [CategoryRef, 'category', 'The WordPress term id of the category'],
  [TagRef, 'tag', 'The WordPress term id of the tag'],
];
for (const [ref, noun, what] of nodes)
  recordNode(ref, {
    permission: 'calendar:read',
    key: (r) => r.id,
    databaseId: (r) => r.id,
    parse: postKey,
    load: (keys, ctx) => ctx.calendar.loaders[noun].loadMany(keys.map(Number)),
    what,
  });

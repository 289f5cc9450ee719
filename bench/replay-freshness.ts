/**
 * The replay's freshness check. During the run an outside editor retitles a few hot events in the
 * emulator (not through the gateway, so the gateway learns of it only by reading again): the n-th
 * edit of an event appends `[edit n at <epoch ms>]` to its title. Every answer is then searched for
 * those events (as themselves, in lists, among a venue's or organizer's next events): an occurrence
 * showing edit n (0: the seed's title) is older than the bound when edit n + 1 had already been in
 * place for more than the bound plus the tolerance when the answer arrived. The tolerance covers the
 * read that filled the cache (it may leave just before the edit and come back after it: one
 * upstream latency) and the operation's own time. An edit's time is taken once the emulator has
 * confirmed it, after it was applied, so an age is never overstated.
 */
import { decodeGlobalId } from '../src/core/global-id.js';

export interface Edit {
  id: number;
  /** 1 for an event's first edit. */
  n: number;
  /** Epoch ms by which the edit was in place. */
  at: number;
}

export interface Answer {
  /** Epoch ms when the answer arrived. */
  arrivedAt: number;
  data: unknown;
}

export const editedTitle = (title: string, n: number, at: number) => `${title} [edit ${n} at ${at}]`;

const EDIT = /\[edit (\d+) at \d+\]$/;

export function freshness(answers: Answer[], edits: Edit[], boundMs: number, toleranceMs: number) {
  const editsOf = new Map<number, Edit[]>();
  for (const e of edits) editsOf.set(e.id, [...(editsOf.get(e.id) ?? []), e]);
  let occurrences = 0;
  let olderThanBound = 0;
  let outdatedMaxMs = 0;
  const check = (record: Record<string, unknown>, arrivedAt: number) => {
    // Answers name an event by its global id; the editor by the emulator's id.
    const global = decodeGlobalId(String(record.id));
    const own = global?.type === 'Event' ? editsOf.get(Number(global.id)) : undefined;
    if (!own || typeof record.title !== 'string') return;
    occurrences++;
    const shown = Number(EDIT.exec(record.title)?.[1] ?? 0);
    // The edit that replaced the version shown, if it had landed when the answer arrived.
    const next = own.find((e) => e.n === shown + 1 && e.at <= arrivedAt);
    if (!next) return;
    const age = arrivedAt - next.at;
    outdatedMaxMs = Math.max(outdatedMaxMs, age);
    if (age > boundMs + toleranceMs) olderThanBound++;
  };
  const walk = (value: unknown, arrivedAt: number): void => {
    if (Array.isArray(value)) for (const v of value) walk(v, arrivedAt);
    else if (value && typeof value === 'object') {
      check(value as Record<string, unknown>, arrivedAt);
      for (const v of Object.values(value)) walk(v, arrivedAt);
    }
  };
  for (const a of answers) walk(a.data, a.arrivedAt);
  // `outdatedMaxMs`: the longest any answer showed a version after it had been replaced.
  return { occurrences, olderThanBound, outdatedMaxMs: Math.round(outdatedMaxMs) };
}

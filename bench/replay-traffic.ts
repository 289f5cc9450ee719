/**
 * The replay's traffic, drawn before it is sent: open-loop arrivals (exponential gaps at the given
 * rate, so the schedule never waits for an answer), the mix of page kinds, and which record or page
 * each operation reads, Zipf(1.0) over ranks. Everything comes from one seeded generator: the same
 * seed gives the same operations at the same offsets, for both runs of the workload.
 */
import { createRng, type Rng } from '../src/emulators/kit/random.js';

export type ReplayKind = 'event' | 'eventsPage' | 'venue' | 'organizer' | 'eventGraph';

/** The mix, in shares of the operations. */
export const MIX: [ReplayKind, number][] = [
  ['event', 0.35],
  ['eventsPage', 0.25],
  ['venue', 0.2],
  ['organizer', 0.1],
  ['eventGraph', 0.1],
];

export interface ReplayOp {
  /** Offset from the start of the run, ms. */
  at: number;
  kind: ReplayKind;
  /** The event, venue or organizer id; for the list kinds the page, from 0. */
  key: number;
}

export interface Population {
  /** Listed events, venues and organizers, by id. */
  events: number[];
  venues: number[];
  organizers: number[];
  /** How many pages the events list and the EventGraph list have. */
  listPages: number;
  graphPages: number;
}

/** Draws a rank from 1 to n with P(k) ∝ 1/k^s. */
export function zipf(rng: Rng, n: number, s = 1): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 1; k <= n; k++) cumulative.push((sum += 1 / k ** s));
  return () => {
    const u = rng.next() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

export function schedule(seed: number, population: Population, perSecond: number, seconds: number): ReplayOp[] {
  const rng = createRng(seed);
  // Rank k is the k-th record of a seeded permutation of the ids, not the k-th id: the ids follow
  // the start order, so ranking them as they are would make the soonest events (the first list page,
  // and their venues) the hot ones, and a cache of that one page would answer most lookups. Pages are
  // ranked in order: page 1 is the one most read, as on a site.
  const ranked = (ids: number[]) => {
    const order = rng.sample(ids, ids.length);
    const draw = zipf(rng, order.length);
    return () => order[draw() - 1]!;
  };
  const pages = (n: number) => {
    const draw = zipf(rng, n);
    return () => draw() - 1;
  };
  const pick: Record<ReplayKind, () => number> = {
    event: ranked(population.events),
    eventsPage: pages(population.listPages),
    venue: ranked(population.venues),
    organizer: ranked(population.organizers),
    eventGraph: pages(population.graphPages),
  };
  const ops: ReplayOp[] = [];
  const end = seconds * 1000;
  const gap = () => -Math.log(1 - rng.next()) * (1000 / perSecond);
  for (let at = gap(); at < end; at += gap()) {
    let u = rng.next();
    const kind = MIX.find(([, share]) => (u -= share) < 0)?.[0] ?? MIX[MIX.length - 1]![0];
    ops.push({ at, kind, key: pick[kind]() });
  }
  return ops;
}

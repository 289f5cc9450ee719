/**
 * The bench replay's own arithmetic (bench/replay-*.ts), apart from the processes it runs: the
 * schedule is seeded and open-loop with the mix and Zipf ranks, the floor counts what an
 * ideal cache of records and lists would fetch, and the freshness check counts exactly the answers that show a
 * version replaced longer ago than the bound. The calendar seed of the replay's size is checked here too.
 */
import { describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../src/core/global-id.js';
import { createSeed } from '../src/emulators/calendar/seed.js';
import { createRng } from '../src/emulators/kit/random.js';
import { floorCalls, type FloorShape } from '../bench/replay-floor.js';
import { editedTitle, freshness } from '../bench/replay-freshness.js';
import { MIX, schedule, zipf, type ReplayOp } from '../bench/replay-traffic.js';

const population = {
  events: Array.from({ length: 600 }, (_, i) => 100 + i),
  venues: Array.from({ length: 60 }, (_, i) => 10 + i),
  organizers: Array.from({ length: 30 }, (_, i) => 70 + i),
  listPages: 30,
  graphPages: 120,
};

describe('bench replay', () => {
  it('draws the same open-loop schedule from the same seed, with the mix and Zipf(1.0) ranks', () => {
    const ops = schedule(32, population, 40, 60);
    expect(schedule(32, population, 40, 60)).toEqual(ops);
    expect(schedule(33, population, 40, 60)).not.toEqual(ops);
    // About 40 a second for 60 s, in time order, all within the minute.
    expect(ops.length).toBeGreaterThan(2_250);
    expect(ops.length).toBeLessThan(2_550);
    expect(ops.every((op, i) => i === 0 || op.at >= ops[i - 1]!.at)).toBe(true);
    expect(ops.at(-1)!.at).toBeLessThan(60_000);
    for (const [kind, share] of MIX) {
      const n = ops.filter((o) => o.kind === kind).length;
      expect(Math.abs(n / ops.length - share), kind).toBeLessThan(0.03);
    }
    // The hottest event is read far more than the median one, and is not simply the first id.
    const reads = new Map<number, number>();
    for (const op of ops.filter((o) => o.kind === 'event')) reads.set(op.key, (reads.get(op.key) ?? 0) + 1);
    const [hottest] = [...reads.entries()].sort((a, b) => b[1] - a[1]);
    expect(hottest![1]).toBeGreaterThan(50);
    expect(hottest![0]).not.toBe(100);
    expect(ops.filter((o) => o.kind === 'eventsPage').every((o) => o.key >= 0 && o.key < 30)).toBe(true);
  });

  it('draws Zipf(1.0) ranks: rank 1 twice as often as rank 2', () => {
    const draw = zipf(createRng(1), 100);
    const counts = new Map<number, number>();
    for (let i = 0; i < 100_000; i++) {
      const rank = draw();
      counts.set(rank, (counts.get(rank) ?? 0) + 1);
    }
    const ratio = counts.get(1)! / counts.get(2)!;
    expect(ratio).toBeGreaterThan(1.85);
    expect(ratio).toBeLessThan(2.15);
    expect(Math.max(...counts.keys())).toBeLessThanOrEqual(100);
  });

  it('floors at an ideal cache: records held by fresh answers, pages cut from larger ones, lists packed', () => {
    const shape: FloorShape = {
      listing: [
        { id: 1, venueIds: [10], organizerIds: [20, 21] },
        { id: 2, venueIds: [10, 11], organizerIds: [] },
        { id: 3, venueIds: [], organizerIds: [21] },
      ],
      listPageSize: 20,
      graphPageSize: 3,
    };
    const ops: ReplayOp[] = [
      // The event's answer holds venue 10, organizers 20 and 21.
      { at: 0, kind: 'event', key: 1 },
      // Its next events are fetched; the venue itself was held by the event.
      { at: 100, kind: 'venue', key: 10 },
      // The EventGraph page; venue 10's list is fresh; organizers 20 and 21 share one request.
      { at: 200, kind: 'eventGraph', key: 0 },
      { at: 300, kind: 'eventsPage', key: 0 },
      // EventGraph page 1 (rows 3–5) is cut from the fresh list page 0 (rows 0–19).
      { at: 400, kind: 'eventGraph', key: 1 },
      // Held by the list page at 300 until 30,300; fetched again after that.
      { at: 30_001, kind: 'event', key: 1 },
      { at: 30_400, kind: 'event', key: 1 },
    ];
    expect(floorCalls(ops, shape, 30_000)).toEqual({
      calls: 6,
      byResource: { event: 2, venueEvents: 1, eventGraphPage: 1, organizerEvents: 1, eventsPage: 1 },
    });
  });

  it('counts an answer older than the bound only when the version it shows was replaced longer ago', () => {
    const edits = [
      { id: 7, n: 1, at: 1_000 },
      { id: 7, n: 2, at: 50_000 },
    ];
    // Answers name events by their global ids, as the gateway's do.
    const event = (n: number) => ({
      id: encodeGlobalId('Event', 7),
      title: n ? editedTitle('Jazz Night', n, 0) : 'Jazz Night',
    });
    const answers = [
      { arrivedAt: 20_000, data: { event: event(0) } }, // 19 s after edit 1: within the bound
      { arrivedAt: 32_500, data: { venue: { events: { nodes: [event(0)] } } } }, // 31.5 s: older
      {
        arrivedAt: 60_000,
        data: { events: { nodes: [event(1), { id: encodeGlobalId('Event', 8), title: 'Other' }] } },
      }, // 10 s
      { arrivedAt: 90_000, data: { event: event(2) } }, // the newest
    ];
    expect(freshness(answers, edits, 30_000, 1_000)).toEqual({
      occurrences: 4,
      olderThanBound: 1,
      outdatedMaxMs: 31_500,
    });
    expect(freshness(answers, edits, 30_000, 2_000).olderThanBound).toBe(0);
  });

  it("seeds the replay's calendar: events over the default window, each kind in the asked numbers", () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const data = createSeed(1, now, { events: 600, venues: 60, organizers: 30 });
    const posts = [...data.posts.values()];
    const listed = posts.filter(
      (p) => p.kind === 'event' && p.status === 'publish' && !p.hidden && p.start > '2026-03',
    );
    expect(listed.length).toBe(601); // 600 and the seed's members' preview evening
    expect(posts.filter((p) => p.kind === 'venue')).toHaveLength(60);
    expect(posts.filter((p) => p.kind === 'organizer')).toHaveLength(30);
    const events = listed.flatMap((p) => (p.kind === 'event' ? [p] : []));
    // Within the default window (two years), a few without a venue, one at two, a few with a password.
    expect(events.every((e) => e.start < '2028-03-01')).toBe(true);
    expect(events.filter((e) => e.venueIds.length === 0).length).toBeGreaterThan(0);
    expect(events.filter((e) => e.venueIds.length > 1)).toHaveLength(1);
    expect(events.filter((e) => e.password).length).toBe(5);
    expect(new Set(events.flatMap((e) => e.venueIds)).size).toBe(57);
    expect(new Set(posts.map((p) => p.slug)).size).toBe(posts.length);
  });
});

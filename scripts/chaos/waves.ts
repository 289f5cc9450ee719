/**
 * The breaker's waves while the calendar is black-holed: three waves of 30 operations, each with a
 * search of its own (nothing cached, nothing shared), through one replica or spread over both. The
 * first is bounded by the request deadline; the second and third are answered at once, with
 * UPSTREAM_UNAVAILABLE on the calendar field and the governance data kept. Once the calendar is back,
 * every replica's breaker closes again (`closed`, read from /ready).
 *
 * "At once" here means a p50 under `FAST_MS`: a tenth of the deadline the waves would wait without a
 * breaker. The run shares two cores with two replicas, two emulators, Redis and six callers; there a
 * wave of 30 cached reads alone (the floor, reported beside each episode) took 60–880 ms and the
 * breaker's waves 1–4 such floors, so the 50 ms bound on a machine doing nothing else is the bench's
 * breaker workload, not this run's.
 */
import type { Callers } from './callers.js';
import { p50 } from './checks.js';
import type { Replica } from './world.js';

/** The bound on the median of waves 2 and 3 (see above). */
export const FAST_MS = 1_000;
/** Operations per wave. */
export const WAVE = 30;

export interface Episode {
  through: string;
  waves: {
    p50Ms: number;
    maxMs: number;
    calendarUnavailable: number;
    governanceKept: number;
    /** Answers with both: UPSTREAM_UNAVAILABLE on the calendar field and the governance data. */
    unavailableWithGovernance: number;
  }[];
  /**
   * The same wave of operations of their own (an alias each: no whole answer cached) reading the
   * governance field alone from the record cache, right after: what 30 operations at once cost on
   * this machine at that moment, whatever the breaker does.
   */
  floor?: { p50Ms: number; maxMs: number };
  /** Ms from the calendar's return until every replica's breaker read `closed`. */
  closedAfterMs?: number;
  violations: string[];
}

/** A wave's operation: governance data and a calendar search of its own (`tag`). */
export const query = (tag: string) =>
  `{ entityTypes(first: 1) { totalCount } events(first: 1, filter: { search: "${tag}" }) { totalCount } }`;

export async function waves(callers: Callers, through: Replica[], name: string, requestDeadlineMs: number) {
  const episode: Episode = {
    through: through.length === 1 ? `one replica (${through[0]!.index})` : `${through.length} replicas`,
    waves: [],
    violations: [],
  };
  for (let w = 1; w <= 3; w++) {
    const answers = await Promise.all(
      Array.from({ length: WAVE }, (_, i) =>
        callers.send('wave', through[i % through.length]!, `Wave${w}`, { query: query(`${name}-w${w}-${i}`) }),
      ),
    );
    const ms = answers.map((a) => a.outcome.ms);
    const unavailable = answers.map(
      (a) => a.answer?.data?.events === null && a.outcome.codes.includes('UPSTREAM_UNAVAILABLE'),
    );
    const kept = answers.map(
      (a) => ((a.answer?.data?.entityTypes as { totalCount?: number } | undefined)?.totalCount ?? 0) > 0,
    );
    const wave = {
      p50Ms: p50(ms),
      maxMs: Math.round(Math.max(...ms)),
      calendarUnavailable: unavailable.filter(Boolean).length,
      governanceKept: kept.filter(Boolean).length,
      unavailableWithGovernance: unavailable.filter((u, i) => u && kept[i]).length,
    };
    episode.waves.push(wave);
    const where = `${name} wave ${w} (${episode.through})`;
    if (w === 1 && wave.maxMs > requestDeadlineMs + 1_000)
      episode.violations.push(`${where}: ${wave.maxMs} ms, past the request deadline + 1 s`);
    if (wave.calendarUnavailable < WAVE)
      episode.violations.push(
        `${where}: ${WAVE - wave.calendarUnavailable} answers without UPSTREAM_UNAVAILABLE on events`,
      );
    if (wave.governanceKept < WAVE)
      episode.violations.push(`${where}: governance data lost in ${WAVE - wave.governanceKept}`);
  }
  const floor = await Promise.all(
    Array.from({ length: WAVE }, (_, i) =>
      callers.send('wave', through[i % through.length]!, 'Floor', {
        query: `{ f${name.replace(/\W/g, '')}${i}: entityTypes(first: 1) { totalCount } }`,
      }),
    ),
  );
  const floorMs = floor.map((a) => a.outcome.ms);
  episode.floor = { p50Ms: p50(floorMs), maxMs: Math.round(Math.max(...floorMs)) };
  for (const [w, wave] of episode.waves.entries())
    if (w > 0 && wave.p50Ms > FAST_MS)
      episode.violations.push(
        `${name} wave ${w + 1} (${episode.through}): p50 ${wave.p50Ms} ms > ${FAST_MS} ms (the floor's wave: p50 ${episode.floor.p50Ms} ms)`,
      );
  return episode;
}

/** Polls every serving replica's /ready until its calendar breaker reads `closed`; false after `boundMs`. */
export async function breakersClose(replicas: Replica[], boundMs: number): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < boundMs) {
    const states = await Promise.all(
      replicas
        .filter((r) => r.state === 'up')
        .map(async (r) => {
          try {
            const res = await fetch(r.url.replace(/\/graphql$/, '/ready'));
            return ((await res.json()) as { upstreams?: { calendar?: { breaker?: string } } }).upstreams?.calendar
              ?.breaker;
          } catch {
            return 'unknown';
          }
        }),
    );
    if (states.every((s) => s === 'closed')) return Math.round(performance.now() - started);
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
}

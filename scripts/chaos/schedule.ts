/**
 * The faults of a chaos run, as a cycle that repeats (once in the 60-second `ci` profile, every
 * 100 s in the 5-minute default). Faults overlap on purpose: Redis dies while the calendar is
 * black-holed and the breaker's waves run, and the governance upstream meanwhile answers 503s, then
 * resets connections (and loses the answers of writes it applied); a 429 storm from the governance
 * upstream; a replica drained with SIGTERM and started again; the calendar losing the answers of
 * writes; the calendar black-holed once more, met through the replica not drained, while the governance upstream
 * sends slow bodies; then the other replica killed with SIGKILL and started again. Each black-hole
 * ends with the breakers' closing checked. The governance faults keep clear of the storm and of the
 * drain's slow read (each `setFaults` replaces the emulator's rules), the calendar's of the breakers'
 * closing checks.
 */
import type { FaultRule } from '../../src/emulators/kit/control.js';
import type { Callers } from './callers.js';
import { breakersClose, waves, type Episode } from './waves.js';
import type { Replica, World } from './world.js';

export interface Step {
  /** Seconds from the start of the cycle. */
  at: number;
  what: string;
  run: (ctx: Context) => Promise<void>;
}

export interface Context {
  world: World;
  callers: Callers;
  cycle: number;
  requestDeadlineMs: number;
  /** The breaker's episodes, in the order they started. */
  episodes: Promise<Episode>[];
  /** Steps that could not be carried out (the run then fails: its faults did not happen as planned). */
  failed: string[];
  /** What happened when (seconds from the start of the run). */
  note: (what: string) => void;
  /** When the latest fault was lifted (performance.now()), for the recovery check. */
  lifted: { at: number };
}

const BLACK_HOLE = [{ kind: 'stall' as const, delayMs: 60_000 }];
const STORM = [{ kind: 'rate-limit' as const, retryAfter: 1, rate: 0.2 }];
const BURST_5XX = [{ kind: 'status' as const, status: 503, rate: 0.3 }];
/** Reads cut before any answer; writes applied, then their answer lost (the gateway cannot know the outcome). */
const RESETS = [
  { kind: 'reset' as const, method: 'GET', rate: 0.2 },
  { kind: 'apply-then-reset' as const, method: 'POST', rate: 0.3 },
];
/** Half the body, then a pause longer than the gateway's body timeout on some, shorter on others. */
const SLOW_BODIES = [
  { kind: 'slow-body' as const, delayMs: 16_000, rate: 0.1 },
  { kind: 'slow-body' as const, delayMs: 1_000, rate: 0.2 },
];
const LOST_WRITE_ANSWERS = [{ kind: 'apply-then-reset' as const, method: 'POST', rate: 0.5 }];

/** Sets an emulator's fault rules; with none, the fault is over. */
const faults = (upstream: 'governance' | 'calendar', rules: FaultRule[]) => async (ctx: Context) => {
  await ctx.world[upstream].setFaults(rules);
  if (rules.length === 0) ctx.lifted.at = performance.now();
};
/** The breaker stays open 5 s; a probe meeting the stalled calendar takes the request deadline. */
const CLOSE_BOUND_MS = 25_000;

/**
 * The calendar black-holed and the breaker's waves through `through`: every serving replica, or the
 * one not drained this cycle (it serves throughout and its caches are warm; the drained one may
 * come back only once the governance slow bodies have begun, and its cold reads would meet them).
 */
async function blackHole(ctx: Context, through: 'one' | 'both'): Promise<void> {
  await ctx.world.calendar.setFaults(BLACK_HOLE);
  const name = `c${ctx.cycle}-${through}`;
  const { replicas } = ctx.world;
  const via =
    through === 'both' ? replicas.filter((r) => r.state === 'up') : [replicas[(ctx.cycle + 1) % replicas.length]!];
  const episode = waves(ctx.callers, via, name, ctx.requestDeadlineMs);
  ctx.episodes.push(episode);
  await episode;
}

async function lift(ctx: Context): Promise<void> {
  const episode = await ctx.episodes.at(-1);
  await ctx.world.calendar.setFaults([]);
  ctx.lifted.at = performance.now();
  const closed = await breakersClose(ctx.world.replicas, CLOSE_BOUND_MS);
  if (!episode) return;
  episode.closedAfterMs = closed;
  if (closed === undefined)
    episode.violations.push(`breakers still open ${CLOSE_BOUND_MS} ms after the calendar came back`);
}

/** The governance upstream holds this read back so long (under the request deadline) before a 504 and the retry. */
const SLOW_READ_MS = 6_000;

/**
 * A read the governance upstream holds back (a record nobody else reads, so the gateway has it in no
 * cache and no other caller meets the fault), sent to `replica` and recorded like every other
 * operation; resolves once the upstream has it, so the replica has it in flight when the SIGTERM
 * follows. Governance, not the calendar: the calendar's breaker may still be open from its outage.
 */
async function slowReadInFlight(ctx: Context, replica: Replica): Promise<{ answered: ReturnType<Callers['send']> }> {
  const id = `6f1c2b1e-0000-4000-8000-${String(ctx.cycle).padStart(12, '0')}`;
  const path = `/entities/${id}`;
  await ctx.world.governance.setFaults([{ kind: 'stall', delayMs: SLOW_READ_MS, pathPrefix: path, times: 1 }]);
  const probe = ctx.callers.send('drain-probe', replica, 'DrainProbe', { query: `{ entity(id: "${id}") { id } }` });
  // Seen by the upstream with half its hold left, or the step fails: the SIGTERM must find it running.
  const bound = performance.now() + SLOW_READ_MS / 2;
  while (!(await ctx.world.governance.requests()).some((r) => r.path === path)) {
    if (performance.now() > bound) throw new Error(`the governance upstream never saw the slow read ${path}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  // Wrapped: returned bare, the promise would be awaited here, until the read's answer.
  return { answered: probe };
}

export const CYCLE: Step[] = [
  { at: 2, what: 'calendar black-holed; waves through every replica', run: (ctx) => blackHole(ctx, 'both') },
  { at: 6, what: 'Redis killed (SIGKILL)', run: (ctx) => ctx.world.killRedis() },
  { at: 8, what: 'governance 503 burst (three in ten answers)', run: faults('governance', BURST_5XX) },
  { at: 12, what: 'governance 503 burst over', run: faults('governance', []) },
  { at: 13, what: 'governance resets (reads cut; writes applied, answers lost)', run: faults('governance', RESETS) },
  { at: 17, what: 'governance resets over', run: faults('governance', []) },
  // After waves 2 and 3 (about 12–15 s): a replica rejoining an empty Redis holds admissions for up to a
  // span to keep the budget (seen as a 1.3 s wave 2), which is the budget's cost, not the breaker's.
  { at: 18, what: 'Redis restarted empty', run: (ctx) => ctx.world.restartRedis() },
  { at: 22, what: 'calendar back', run: lift },
  {
    at: 26,
    what: 'governance 429 storm (a fifth of requests, Retry-After 1)',
    run: (ctx) => ctx.world.governance.setFaults(STORM),
  },
  { at: 31, what: 'governance 429 storm over', run: (ctx) => ctx.world.governance.setFaults([]) },
  {
    at: 32,
    what: 'SIGTERM to a replica, started again once drained',
    run: async (ctx) => {
      const replica = ctx.world.replicas[ctx.cycle % ctx.world.replicas.length]!;
      const { answered } = await slowReadInFlight(ctx, replica);
      const { drainedMs } = await ctx.world.drainAndRestart(replica.index);
      const { outcome } = await answered;
      ctx.note(
        `replica drained in ${drainedMs} ms and is back; its slow read answered ${outcome.status ?? outcome.transport}`,
      );
    },
  },
  { at: 34, what: 'calendar writes applied, answers lost (half)', run: faults('calendar', LOST_WRITE_ANSWERS) },
  { at: 38, what: 'calendar write faults over', run: faults('calendar', []) },
  { at: 40, what: 'calendar black-holed; waves through the replica not drained', run: (ctx) => blackHole(ctx, 'one') },
  { at: 42, what: 'governance slow bodies (some past the body timeout)', run: faults('governance', SLOW_BODIES) },
  { at: 48, what: 'governance slow bodies over', run: faults('governance', []) },
  { at: 56, what: 'calendar back', run: lift },
  {
    at: 58,
    what: 'SIGKILL to the other replica, started again',
    run: async (ctx) => {
      await ctx.world.killAndRestart((ctx.cycle + 1) % ctx.world.replicas.length);
      ctx.lifted.at = performance.now();
      ctx.note('killed replica is back');
    },
  },
];

export const CYCLE_SECONDS = 60;

/** Runs `cycles` cycles `every` seconds apart; resolves once every step has finished. */
export async function runSchedule(ctx: Omit<Context, 'cycle'>, cycles: number, every: number): Promise<void> {
  const started = performance.now();
  const running: Promise<void>[] = [];
  const steps = Array.from({ length: cycles }, (_, cycle) =>
    CYCLE.map((step) => ({ ...step, at: step.at + cycle * every, cycle })),
  ).flat();
  for (const step of steps) {
    const wait = started + step.at * 1000 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    ctx.note(step.what);
    running.push(
      step.run({ ...ctx, cycle: step.cycle }).catch((e: unknown) => {
        ctx.failed.push(`${step.what}: ${String(e)}`);
        ctx.note(`${step.what} failed: ${String(e)}`);
      }),
    );
  }
  await Promise.all(running);
}

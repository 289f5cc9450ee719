/**
 * The suite's one way to wait. A test waits for a condition (`until`), never for a guessed time: on a
 * busy machine any fixed sleep is either too short (a flaky test) or too long (a slow one). Both
 * helpers build on vitest's `vi.waitFor`, which keeps using real timers when a test fakes them.
 *
 * Two waits are about time itself, and say so by name: `untilClock` waits for the wall clock to
 * reach a moment (a window boundary of an upstream that counts in clock windows); `quietFor` lets a
 * scenario run for a while when the assertion is that something did *not* happen, the one case a
 * condition cannot express. Prefer an injected clock where the code under test takes one.
 */
import { vi } from 'vitest';

export interface UntilOptions {
  /** Longest wait in ms (default 10 s: generous for a loaded 2-core machine, and it fails fast enough). */
  timeout?: number;
  /** Poll interval in ms (default 10). */
  interval?: number;
}

/**
 * Resolves once `check` returns (or resolves to) a truthy value; rejects with `what` after the
 * timeout. `check` may also throw (an `expect`) until it holds.
 */
export async function until(
  check: () => unknown,
  what = 'the condition',
  { timeout = 10_000, interval = 10 }: UntilOptions = {},
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    },
    { timeout, interval },
  );
}

/** Resolves once `Date.now()` has reached `at` (a condition on the clock, checked on a timer). */
export async function untilClock(at: number): Promise<void> {
  while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, Math.min(at - Date.now(), 1_000)));
}

/** Resolves just after the wall clock enters the next window of `windowMs` (windows aligned to the epoch). */
export function untilNextWindow(windowMs: number, afterMs = 5): Promise<void> {
  return untilClock(Math.floor(Date.now() / windowMs) * windowMs + windowMs + afterMs);
}

/**
 * Lets the scenario run for `ms` with nothing to wait for, when what follows asserts that something
 * did not happen in that time (no condition can signal an absence). `why` documents the choice at
 * the call site. Keep `ms` short: it is a floor on the test's duration.
 */
export function quietFor(ms: number, why: string): Promise<void> {
  void why;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

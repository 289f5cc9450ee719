/** Helpers shared by the calendar graph test files. */
import type { Stack } from './stack.js';

/** Requests the calendar emulator saw, as `METHOD /path` (path below the API root). */
export function calls(stack: Stack, pattern?: RegExp): string[] {
  return stack.calendar.control
    .requests()
    .requests.map((r) => `${r.method} ${r.path}`)
    .filter((line) => !pattern || pattern.test(line));
}

/** Drops every cached calendar answer, so a test sees the upstream calls its query makes. */
export function forgetCalendarCache(stack: Stack): void {
  stack.gateway.upstreams.cache.invalidate([
    'calendar:events',
    'calendar:venues',
    'calendar:organizers',
    'calendar:terms',
  ]);
}

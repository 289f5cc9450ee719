/**
 * Calendar date inputs: the upstream's own `YYYY-MM-DD HH:MM:SS` (a wall clock), a bare date, or ISO
 * 8601 with or without an offset. Checked before any upstream call; a bad value is BAD_USER_INPUT
 * naming the argument.
 */
import { invalidInput } from '../core/errors.js';
import { formatOffset, pad, wallMs, wallOf, zoneOffsetMinutes } from './zones.js';

export interface CalendarDateInput {
  /** `Y-m-d H:i:s` as written (offset, if any, not applied). */
  wall: string;
  /** Minutes east of UTC when the value carried an offset (`Z` = 0). */
  offsetMinutes: number | null;
}

const FORM = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export function parseCalendarDate(value: string, argument: string): CalendarDateInput {
  const m = FORM.exec(value.trim());
  const bad = () =>
    invalidInput(`"${argument}" must be a date-time as "YYYY-MM-DD HH:MM:SS" or ISO 8601 (got "${value}").`, argument);
  if (!m) throw bad();
  const [, y = '', mo = '', d = '', h = '00', mi = '00', s = '00', zone] = m;
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const check = new Date(ms);
  // Rejects impossible dates such as 2027-02-30 or 25:00.
  if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) throw bad();
  let offsetMinutes: number | null = null;
  if (zone) {
    if (/^z$/i.test(zone)) offsetMinutes = 0;
    else {
      const sign = zone.startsWith('-') ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
    }
  }
  return { wall: `${y}-${mo}-${d} ${h}:${mi}:${s}`, offsetMinutes };
}

/**
 * A filter value for the upstream: a wall clock as it is; a value with an offset as ISO 8601, which
 * the plugin parses (PHP `strtotime`) as an exact instant.
 */
export function filterDate(value: string, argument: string): string {
  const parsed = parseCalendarDate(value, argument);
  if (parsed.offsetMinutes === null) return parsed.wall;
  return `${parsed.wall.replace(' ', 'T')}${formatOffset(parsed.offsetMinutes, false)}`;
}

/**
 * A write value: the plugin stores wall clocks in the event's time zone and ignores an offset in
 * the string, so an instant with an offset is turned into that zone's wall clock here. Without a
 * known zone, the offset itself becomes the zone (`UTC+1`, a WordPress manual offset).
 */
export function writeDate(
  value: string,
  argument: string,
  timezone: string | undefined,
): { wall: string; timezone?: string } {
  const parsed = parseCalendarDate(value, argument);
  if (parsed.offsetMinutes === null) return { wall: parsed.wall };
  const instant = wallMs(parsed.wall)! - parsed.offsetMinutes * 60_000;
  const zoneOffset = timezone ? zoneOffsetMinutes(timezone, instant) : null;
  if (zoneOffset !== null) return { wall: wallOf(instant + zoneOffset * 60_000) };
  const o = parsed.offsetMinutes;
  const zone =
    o === 0
      ? 'UTC'
      : `UTC${o < 0 ? '-' : '+'}${Math.floor(Math.abs(o) / 60)}${Math.abs(o) % 60 ? `:${pad(Math.abs(o) % 60)}` : ''}`;
  return { wall: parsed.wall, timezone: zone };
}

/** A calendar day without a time (`2026-12-01`): whole days where a field says so, else refused. */
export const isBareDay = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value.trim());

/**
 * Time-zone arithmetic for the calendar emulator, with Intl only. The plugin stores event times as
 * event-local wall clocks (`Y-m-d H:i:s`) plus a time zone, and derives the UTC fields from them.
 * The emulated site's own time zone is UTC, so "site-local" and UTC coincide.
 */
import { LRUCache } from 'lru-cache';
import type { WireDateDetails } from '../../calendar/wire.js';
import { formatOffset, pad, wallOf, zoneOffsetMinutes } from '../../calendar/zones.js';

/** `Y-m-d H:i:s` */
export type WallClock = string;

/** A Date's UTC wall clock as `Y-m-d H:i:s`. */
export const utcWall = (date: Date): WallClock => wallOf(date.getTime());

/** Reads a wall clock as if it were UTC (the arithmetic base for everything else). */
export function wallAsUtc(wall: WallClock): Date {
  return new Date(wall.replace(' ', 'T') + 'Z');
}

const fixedOffset = /^UTC([+-])(\d{1,2})(?:[:.](\d{2}))?$/;

/** IANA names, `UTC` and WordPress's `UTC+2` / `UTC-5:30` manual offsets. */
export function isValidTimezone(tz: string): boolean {
  if (tz === 'UTC' || fixedOffset.test(tz)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.includes('/');
  } catch {
    return false;
  }
}

// Building an Intl.DateTimeFormat costs far more than formatting with one (it was most of the
// emulator's CPU when rendering a page of events), so the zone-name formatters are kept, in a
// bounded LRU since zone names come from clients' writes (`zones.ts` does the same for offsets).
const zoneNameFormats = new LRUCache<string, Intl.DateTimeFormat>({ max: 512 });

function zoneNameFormat(locale: string, tz: string): Intl.DateTimeFormat {
  const key = `${locale} ${tz}`;
  let f = zoneNameFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: 'short' });
    zoneNameFormats.set(key, f);
  }
  return f;
}

/** Offset of `tz` from UTC at the instant `at`, in minutes (east positive). */
export function offsetMinutes(tz: string, at: Date): number {
  return zoneOffsetMinutes(tz, at.getTime()) ?? 0;
}

/** The UTC wall clock of a wall clock in `tz` (two passes settle DST edges). */
export function localToUtc(wall: WallClock, tz: string): WallClock {
  const naive = wallAsUtc(wall).getTime();
  let guess = naive - offsetMinutes(tz, new Date(naive)) * 60_000;
  guess = naive - offsetMinutes(tz, new Date(guess)) * 60_000;
  return utcWall(new Date(guess));
}

/** PHP-like abbreviation: `CEST`, `EDT`, `WET`, `UTC`; `+09` where there is no common one. */
export function timezoneAbbr(tz: string, utc: WallClock): string {
  if (tz === '') return '';
  if (tz === 'UTC') return 'UTC';
  const at = wallAsUtc(utc);
  if (!fixedOffset.test(tz)) {
    for (const locale of ['en-US', 'en-GB']) {
      const name = zoneNameFormat(locale, tz)
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value;
      if (name && !/^GMT|^UTC/.test(name)) return name;
    }
  }
  const off = offsetMinutes(tz, at);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${sign}${pad(Math.floor(abs / 60))}${abs % 60 ? pad(abs % 60) : ''}`;
}

export function dateDetails(wall: WallClock): WireDateDetails {
  return {
    year: wall.slice(0, 4),
    month: wall.slice(5, 7),
    day: wall.slice(8, 10),
    hour: wall.slice(11, 13),
    minutes: wall.slice(14, 16),
    seconds: wall.slice(17, 19),
  };
}

export function addDays(wall: WallClock, days: number): WallClock {
  return utcWall(new Date(wallAsUtc(wall).getTime() + days * 86_400_000));
}

export function addMonths(wall: WallClock, months: number): WallClock {
  const d = wallAsUtc(wall);
  d.setUTCMonth(d.getUTCMonth() + months);
  return utcWall(d);
}

export const startOfDay = (wall: WallClock): WallClock => `${wall.slice(0, 10)} 00:00:00`;
export const endOfDay = (wall: WallClock): WallClock => `${wall.slice(0, 10)} 23:59:59`;

export interface ParsedDate {
  /** Wall clock as written (an explicit offset is kept aside, not applied). */
  wall: WallClock;
  /** Minutes east of UTC when the string carried `Z` or `±HH:MM`. */
  offset?: number;
  /** Whether the string named a time of day. */
  hasTime: boolean;
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * The subset of PHP `strtotime` that clients use: `Y-m-d[ H:i[:s]]`, ISO 8601 with `T` and an
 * optional offset, unix timestamps, and `now`/`today`/`tomorrow`/`yesterday`. `now` is site time.
 */
export function parseDate(input: string, now: Date): ParsedDate | undefined {
  const s = input.trim();
  const word = s.toLowerCase();
  const today = startOfDay(utcWall(now));
  if (word === 'now') return { wall: utcWall(now), hasTime: true };
  if (word === 'today') return { wall: today, hasTime: false };
  if (word === 'tomorrow') return { wall: addDays(today, 1), hasTime: false };
  if (word === 'yesterday') return { wall: addDays(today, -1), hasTime: false };
  if (/^\d{9,11}$/.test(s)) return { wall: utcWall(new Date(Number(s) * 1000)), hasTime: true, offset: 0 };
  const m = datePattern.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', sec = '00', zone] = m;
  const wall = `${y}-${mo}-${d} ${h}:${mi}:${sec}`;
  // Reject impossible values such as 2026-02-31 or 25:00.
  if (Number.isNaN(wallAsUtc(wall).getTime()) || utcWall(wallAsUtc(wall)) !== wall) return undefined;
  const parsed: ParsedDate = { wall, hasTime: m[4] !== undefined };
  if (zone) {
    const z = zone.toUpperCase();
    if (z === 'Z') parsed.offset = 0;
    else {
      const digits = z.replace(':', '');
      parsed.offset = (digits[0] === '-' ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
    }
  }
  return parsed;
}

/** A parsed date as a site-time (UTC) wall clock: an explicit offset is honoured. */
export function toSiteWall(parsed: ParsedDate): WallClock {
  if (parsed.offset === undefined) return parsed.wall;
  return utcWall(new Date(wallAsUtc(parsed.wall).getTime() - parsed.offset * 60_000));
}

/** ISO 8601 with the zone's offset, for json_ld (`2026-05-01T19:00:00+02:00`). */
export function isoWithOffset(localWall: WallClock, utc: WallClock): string {
  const off = Math.round((wallAsUtc(localWall).getTime() - wallAsUtc(utc).getTime()) / 60_000);
  return `${localWall.replace(' ', 'T')}${formatOffset(off, false)}`;
}

/**
 * Wall clocks and time-zone offsets, shared by the wire → domain dates (`normalize.ts`) and the date
 * inputs (`dates.ts`). A wall clock is the upstream's `Y-m-d H:i:s` with no zone; as a number it is
 * the milliseconds it would be if it were UTC.
 */
import { LRUCache } from 'lru-cache';

const WIRE_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `Y-m-d H:i:s` → milliseconds as if UTC; null when the text is not in that form. */
export function wallMs(wire: string): number | null {
  const m = WIRE_DATE.exec(wire);
  if (!m) return null;
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = m.slice(1).map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/** Milliseconds as if UTC → `Y-m-d H:i:s`. */
export function wallOf(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Minutes east of UTC as an ISO 8601 offset: `+05:30`, `-04:00`, and `Z` for zero unless `zulu` is off. */
export function formatOffset(minutes: number, zulu = true): string {
  if (minutes === 0 && zulu) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// Building an Intl.DateTimeFormat costs far more than formatting with one, and every event's dates
// need one; zone names come from callers too, so the formatters are kept in a bounded LRU.
const wallFormats = new LRUCache<string, Intl.DateTimeFormat>({ max: 512 });

/** Throws a RangeError for an unknown zone (nothing is cached then). */
function wallFormat(zone: string): Intl.DateTimeFormat {
  let f = wallFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallFormats.set(zone, f);
  }
  return f;
}

/** Offset (minutes east of UTC) of a time zone at an instant: IANA names and `UTC+2`-style both. */
export function zoneOffsetMinutes(zone: string, atMs: number): number | null {
  const fixed = /^UTC([+-])(\d{1,2})(?:[:.](\d{2}))?$/i.exec(zone);
  if (fixed) return (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3] ?? 0));
  if (/^UTC$/i.test(zone)) return 0;
  try {
    const parts = wallFormat(zone).formatToParts(new Date(atMs));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return Math.round((asUtc - atMs) / 60_000);
  } catch {
    return null;
  }
}

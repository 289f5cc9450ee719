/**
 * Traffic events worth an operator's attention (429s with the platform's headers, Redis coming and
 * going). Only non-secret fields: never a header value other than the rate-limit ones, never a token.
 */
export interface TrafficEvent {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  upstream?: string;
  [field: string]: unknown;
}

export type TrafficLogger = (event: TrafficEvent) => void;

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

/** JSON lines on stderr at or above `minLevel`. */
export function consoleTrafficLogger(minLevel: keyof typeof LEVELS): TrafficLogger {
  return (event) => {
    if (LEVELS[event.level] < LEVELS[minLevel]) return;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`);
  };
}

/**
 * At most one line per key per `intervalMs` (an outage fails every call the same way): the first
 * goes out at once, the next after the interval carries how many were left out meanwhile.
 */
export function throttledLogger(
  log: TrafficLogger,
  intervalMs: number,
  now = Date.now,
): (key: string, event: TrafficEvent) => void {
  const seen = new Map<string, { at: number; suppressed: number }>();
  return (key, event) => {
    const last = seen.get(key);
    const t = now();
    if (last && t - last.at < intervalMs) {
      last.suppressed++;
      return;
    }
    seen.set(key, { at: t, suppressed: 0 });
    log(last?.suppressed ? { ...event, suppressed: last.suppressed } : event);
  };
}

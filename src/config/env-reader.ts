/**
 * The environment reader behind `config.ts` and `traffic.ts`: each accessor returns a valid
 * value or the fallback, and records a one-line problem for anything it had to refuse.
 */
export type Env = Record<string, string | undefined>;

/** Reads typed values from the environment, collecting one problem line per bad value. */
export class EnvReader {
  constructor(
    protected readonly env: Env,
    protected readonly problems: string[],
  ) {}

  string(name: string): string | undefined {
    const v = this.env[name]?.trim();
    return v ? v : undefined;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}").`);
      return fallback;
    }
    return n;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.string(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}").`);
    return fallback;
  }

  oneOf<const T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}").`);
    return fallback;
  }

  url(name: string, protocols: string[] = ['http:', 'https:']): string | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      this.problems.push(
        `${name} must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL (got "${redactUrl(raw)}").`,
      );
      return undefined;
    }
  }
}

/** Never echo credentials embedded in a URL back into a message. */
function redactUrl(raw: string): string {
  return raw.replace(/\/\/[^@/]*@/, '//***@');
}

/**
 * The ramp after a 429 pause. When the pause is over the queue is not released at once: one probe
 * goes first (the first request in line, one per account across replicas through a short Redis
 * lease), and only when it came back without a 429 do the others follow, at a pace that doubles
 * every `stepMs` (2 per step, then 4, 8…) but never faster than the budget's even pace, until the
 * doubling has caught up with that pace, one span of the shortest rule has passed and the queue
 * has drained. A probe
 * answered 429 starts a new pause, and a new ramp after it. Other replicas see the probe's outcome
 * in the lease key (`ok:<pause end>:<time>`) and ramp from the same moment.
 */
import type { PauseGate } from './pause.js';
import type { RedisLink } from './redis.js';

export interface RampOptions {
  upstream: string;
  pause: PauseGate;
  redis?: RedisLink;
  stepMs: number;
  /** The budget's even pace, ms between requests (0: no rules). */
  paceMs: number;
  /** The shortest rule's span: the ramp lasts at least this long after the probe. */
  spanMs: number;
  /** How long a probe may be out before another replica may probe instead. */
  leaseMs: number;
}

export type RampTurn = { ok: true; probe: boolean } | { ok: false; waitMs: number };

/**
 * KEYS[1] the lease. ARGV[1] the pause end, ARGV[2] this replica's claim, ARGV[3] the lease ms.
 * Returns the key's value when a probe is out or has succeeded for this pause (or a later one),
 * else takes the lease and returns 'acquired'.
 */
const PROBE_SCRIPT = `
local v = redis.call('GET', KEYS[1])
if v then
  local okFor = string.match(v, '^ok:(%d+):')
  if not okFor or tonumber(okFor) >= tonumber(ARGV[1]) then return v end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 'acquired'`;

/** How often a request waiting on another's probe looks again. */
const PROBE_POLL_MS = 25;

export class Ramp {
  private readonly claim = `busy:${Math.random().toString(36).slice(2)}`;
  /** The pause end this state belongs to (0: no pause yet). */
  private forEnd = 0;
  private done = true;
  private probing = false;
  private probeOkAt?: number;
  private nextSlotAt = 0;

  constructor(private readonly options: RampOptions) {}

  private get leaseKey(): string {
    return this.options.redis!.key('pause-probe', this.options.upstream);
  }

  /** A new pause (or a longer one) starts a new ramp after it. */
  private follow(): void {
    const end = this.options.pause.endsAt;
    if (end === this.forEnd) return;
    this.forEnd = end;
    this.done = end === 0;
    this.probing = false;
    this.probeOkAt = undefined;
    this.nextSlotAt = 0;
  }

  /** True when nothing holds requests back (no ramp under way). */
  open(): boolean {
    this.follow();
    return this.done;
  }

  /** Whether the next request may go now (as the probe or in the ramp's pace), else how long to wait. */
  async turn(now = Date.now()): Promise<RampTurn> {
    this.follow();
    if (this.done) return { ok: true, probe: false };
    if (this.probeOkAt === undefined) {
      if (this.probing) return { ok: false, waitMs: PROBE_POLL_MS };
      const redis = this.options.redis;
      if (redis?.ready) {
        try {
          const answer = String(
            await redis.client.eval(
              PROBE_SCRIPT,
              1,
              this.leaseKey,
              String(this.forEnd),
              this.claim,
              String(this.options.leaseMs),
            ),
          );
          this.follow();
          if (answer.startsWith('ok:')) this.probeOkAt = Number(answer.split(':')[2]) || now;
          else if (answer !== 'acquired' || this.probing) return { ok: false, waitMs: PROBE_POLL_MS };
        } catch {
          // Redis is away: this replica probes on its own.
        }
      }
      if (this.probeOkAt === undefined) {
        this.probing = true;
        return { ok: true, probe: true };
      }
    }
    const since = now - this.probeOkAt;
    const doubling = this.options.stepMs / 2 ** (Math.floor(since / this.options.stepMs) + 1);
    const pace = Math.max(this.options.paceMs, 1);
    // Caught up, a span has passed, and the queue has drained (nobody took the last slot in time):
    // a queue still waiting keeps the even pace, so it is never released in one burst.
    if (doubling <= pace && since >= this.options.spanMs && now >= this.nextSlotAt + pace) {
      this.done = true;
      return { ok: true, probe: false };
    }
    if (now < this.nextSlotAt) return { ok: false, waitMs: this.nextSlotAt - now };
    this.nextSlotAt = Math.max(this.nextSlotAt, now) + Math.max(doubling, this.options.paceMs);
    return { ok: true, probe: false };
  }

  /**
   * The probe came back (`rate-limited`: with a 429, which has already started a new pause), or was
   * never sent (`cancelled`: it lost its turn, the next request in line probes instead).
   */
  settle(outcome: 'ok' | 'rate-limited' | 'cancelled'): void {
    if (!this.probing) return;
    this.probing = false;
    const redis = this.options.redis;
    if (outcome === 'ok') {
      this.probeOkAt = Date.now();
      this.nextSlotAt = this.probeOkAt;
      const ttl = Math.max(1_000, this.options.spanMs + 30 * this.options.stepMs);
      if (redis?.ready)
        void redis.bestEffort(
          'ramp probe result',
          redis.client.set(this.leaseKey, `ok:${this.forEnd}:${this.probeOkAt}`, 'PX', ttl),
        );
    } else if (redis?.ready) {
      void redis.release('ramp probe release', this.leaseKey, this.claim);
    }
  }
}

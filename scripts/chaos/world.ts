/**
 * What the chaos run starts: both emulators in processes of their own (the bench's, run from source),
 * a redis-server of its own on a free port, and gateway replicas as production runs them (`src/server.ts`
 * behind its drain, `NODE_ENV=production`), each on a fixed port so that a restarted one is found
 * where it was. Faults act on these: the emulators' fault rules, Redis killed and restarted empty on
 * its port, a replica sent SIGTERM and started again once it has drained, a replica killed with
 * SIGKILL and started again. Each replica process's resident memory is sampled while it runs, and its
 * live heap read through its inspector (live-heap.ts).
 */
import { readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { emulatorEnv } from '../../src/app/embedded-emulators.js';
import { startEmulator, type EmulatorProcess } from '../../bench/upstreams.js';
import { freePort, startThrowawayRedis, type ThrowawayRedis } from '../throwaway-redis.js';
import { INSPECTOR_LINE, LiveHeap } from './live-heap.js';

export type ReplicaState = 'up' | 'draining' | 'killed' | 'down';

export interface Replica {
  index: number;
  url: string;
  state: ReplicaState;
  /** Exits nobody asked for (a crash), and lines the replica logged at `error`. */
  crashes: string[];
  errorLines: string[];
  drains: string[];
}

export interface Rule {
  limit: number;
  windowMs: number;
}

export interface WorldOptions {
  replicas: number;
  /** The account as the governance emulator enforces it (two rules of scaled-down windows). */
  account: [Rule, Rule];
  /** The account as the gateways are told it is (the same, unless a fault is injected on purpose). */
  gatewayAccount: [Rule, Rule];
  env: Record<string, string>;
  log: (line: string) => void;
}

/** How often each replica's memory is sampled; every second sample also reads its live heap (a full collection). */
const SAMPLE_MS = 2_000;

export interface MemorySample {
  /** Since the process started. */
  ms: number;
  rssBytes: number;
  /** The heap in use after a full collection. */
  liveBytes?: number;
}

/** A signal sent to a replica: when (epoch ms), and when the replica was serving again. */
export interface Signalled {
  replica: number;
  at: number;
  backAt?: number;
}

const rules = (account: [Rule, Rule]) =>
  `minute:0,hour:0,${account.map((r) => `${r.limit}/${r.windowMs}ms`).join(',')}`;

export class World {
  readonly replicas: Replica[] = [];
  /** When each SIGTERM was sent, and when its replica served again. */
  readonly sigterms: Signalled[] = [];
  /** When each SIGKILL was sent, and when its replica served again. */
  readonly kills: Signalled[] = [];
  /** Each replica process's memory, sampled every `SAMPLE_MS`. */
  readonly memory: { replica: number; pid: number; startedAt: number; samples: MemorySample[]; heap?: LiveHeap }[] = [];
  private sampled = 0;
  private sampler?: NodeJS.Timeout;
  private readonly children = new Map<number, ChildProcess>();
  private redisPort = 0;
  private stopping = false;

  private constructor(
    private readonly options: WorldOptions,
    readonly governance: EmulatorProcess,
    readonly calendar: EmulatorProcess,
    public redis: ThrowawayRedis,
  ) {}

  static async start(options: WorldOptions): Promise<World> {
    const latency = { fixedMs: 10, jitterMs: 10 };
    const [limit, wide] = options.account;
    const [governance, calendar, redis] = await Promise.all([
      startEmulator(
        'governance',
        {
          latency,
          rateLimits: { minute: limit.limit, hour: wide.limit },
          windows: { minuteMs: limit.windowMs, hourMs: wide.windowMs },
        },
        true,
      ),
      startEmulator('calendar', { latency }, true),
      startThrowawayRedis(),
    ]);
    if (typeof redis === 'string') throw new Error(`chaos needs a redis-server of its own: ${redis}`);
    const world = new World(options, governance, calendar, redis);
    world.redisPort = Number(new URL(redis.url).port);
    for (let i = 0; i < options.replicas; i++) {
      const port = await freePort();
      world.replicas.push({
        index: i,
        url: `http://127.0.0.1:${port}/graphql`,
        state: 'down',
        crashes: [],
        errorLines: [],
        drains: [],
      });
    }
    await Promise.all(world.replicas.map((r) => world.startReplica(r)));
    world.sampler = setInterval(() => world.sampleMemory(), SAMPLE_MS);
    return world;
  }

  private env(replica: Replica): Record<string, string> {
    return {
      ...process.env,
      NODE_ENV: 'production',
      AUTH_ANONYMOUS: '*',
      AUDIT_SINK: 'off',
      LOG_LEVEL: 'warn',
      ...emulatorEnv(this.governance, this.calendar),
      HOST: '127.0.0.1',
      PORT: new URL(replica.url).port,
      REDIS_URL: this.redis.url,
      REDIS_KEY_PREFIX: `chaos-${process.pid}:`,
      GATEWAY_REPLICAS: String(this.options.replicas),
      GOVERNANCE_RATE_LIMITS: rules(this.options.gatewayAccount),
      ...this.options.env,
    };
  }

  /** Starts (or starts again) a replica; resolves once it listens. */
  startReplica(replica: Replica): Promise<void> {
    const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '--import', 'tsx', 'src/server.ts'], {
      env: this.env(replica),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.set(replica.index, child);
    const memory: World['memory'][number] = {
      replica: replica.index,
      pid: child.pid!,
      startedAt: performance.now(),
      samples: [],
    };
    this.memory.push(memory);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
      const inspector = memory.heap ? undefined : INSPECTOR_LINE.exec(stderr)?.[1];
      if (inspector) void LiveHeap.open(inspector).then((heap) => (memory.heap = heap), this.options.log);
    });
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const lines = out.split('\n');
        out = lines.pop()!;
        for (const line of lines) this.heard(replica, line, resolve);
      });
      child.once('exit', (code, signal) => {
        const asked = replica.state === 'draining' || replica.state === 'killed' || this.stopping;
        replica.state = 'down';
        if (!asked) replica.crashes.push(`exited ${signal ?? code}: ${stderr.trim().slice(-500)}`);
        reject(new Error(`replica ${replica.index} exited before it was ready: ${stderr.slice(-500)}`));
      });
    });
  }

  private heard(replica: Replica, line: string, ready: () => void): void {
    if (line.startsWith('gateway ready')) {
      replica.state = 'up';
      ready();
    } else if (line.includes('"level":"error"')) replica.errorLines.push(line.slice(0, 300));
    else if (line.includes('drained; exiting')) replica.drains.push(line.slice(0, 300));
  }

  /** SIGTERM: the replica drains and exits; then it is started again on its port. */
  async drainAndRestart(index: number): Promise<{ drainedMs: number }> {
    return { drainedMs: await this.signalAndRestart(index, 'SIGTERM', this.sigterms) };
  }

  /** SIGKILL: the replica dies at once, its sockets cut; then it is started again on its port. */
  async killAndRestart(index: number): Promise<void> {
    await this.signalAndRestart(index, 'SIGKILL', this.kills);
  }

  /** Sends `signal`, noted in `sent`, and starts the replica again once it has exited; ms until the exit. */
  private async signalAndRestart(index: number, signal: 'SIGTERM' | 'SIGKILL', sent: Signalled[]): Promise<number> {
    const replica = this.replicas[index]!;
    const child = this.children.get(index)!;
    replica.state = signal === 'SIGTERM' ? 'draining' : 'killed';
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const entry: Signalled = { replica: index, at: Date.now() };
    sent.push(entry);
    const started = performance.now();
    // A process with an inspector client attached waits for it to leave before it exits.
    for (const proc of this.memory) if (proc.pid === child.pid) proc.heap?.close();
    child.kill(signal);
    await exited;
    const exitMs = Math.round(performance.now() - started);
    this.options.log(`replica ${index} exited ${exitMs} ms after ${signal}; starting it again`);
    await this.startReplica(replica);
    entry.backAt = Date.now();
    return exitMs;
  }

  /**
   * Each running replica's resident set, as Linux reports it (`VmRSS` in `/proc/PID/status`, kB),
   * and every second time its live heap.
   */
  private sampleMemory(): void {
    const live = this.sampled++ % 2 === 0;
    for (const proc of this.memory) {
      const child = this.children.get(proc.replica);
      if (child?.pid !== proc.pid || child.exitCode !== null || child.signalCode !== null) continue;
      try {
        const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1]);
        if (!kb) continue;
        const sample: MemorySample = { ms: Math.round(performance.now() - proc.startedAt), rssBytes: kb * 1024 };
        proc.samples.push(sample);
        // A process killed meanwhile answers nothing: its sample keeps no live heap.
        if (live)
          proc.heap?.bytes().then(
            (bytes) => (sample.liveBytes = bytes),
            () => undefined,
          );
      } catch {
        // Gone between the check and the read: nothing to sample.
      }
    }
  }

  /** Redis dies without a word to its clients. */
  async killRedis(): Promise<void> {
    await this.redis.kill();
  }

  /** A new, empty Redis on the port the replicas know. */
  async restartRedis(): Promise<void> {
    const started = await startThrowawayRedis(this.redisPort);
    if (typeof started === 'string') throw new Error(`Redis did not come back: ${started}`);
    this.redis = started;
  }

  async close(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sampler);
    const exits = [...this.children.values()]
      .filter((c) => c.exitCode === null && c.signalCode === null)
      .map((c) => new Promise((resolve) => (c.once('exit', resolve), c.kill('SIGKILL'))));
    await Promise.all(exits);
    for (const proc of this.memory) proc.heap?.close();
    await Promise.all([this.governance.child.stop(), this.calendar.child.stop(), this.redis.stop()]);
  }
}

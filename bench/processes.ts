/**
 * Parent side of `ipc.ts`: forks a bench child (compiled as it ships, `build.ts`), waits for its URL,
 * and sends it requests. Children are separate processes so that their CPU time and peak RSS are
 * theirs alone, and so that the load generator never shares an event loop with what it measures.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CHILD_ENTRIES, compiledChildren } from './build.js';
import type { ProcessStats } from './ipc.js';

export interface Child {
  url: string;
  pid: number;
  request<T = unknown>(type: string, payload?: unknown): Promise<T>;
  stats(): Promise<ProcessStats>;
  stop(): Promise<void>;
}

interface Reply {
  id?: number;
  ok?: boolean;
  result?: unknown;
  error?: string;
  ready?: boolean;
  url?: string;
}

/**
 * The node flags of the production start (`npm run start:prod`, the container's CMD): a gateway is
 * measured with the runtime settings it ships with.
 */
export function productionNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return (pkg.scripts['start:prod'] ?? '').split(/\s+/).filter((arg) => arg.startsWith('--'));
}

/** The children that run gateway code and so start with the production flags. */
const MEASURED_AS_SHIPPED = ['gateway-process.ts', 'young-garbage.ts'];

/**
 * The bench's environment as a child inherits it, without its Redis: a workload that measures
 * replicas sharing one passes its own (`REDIS_URL`, a key prefix of its own), and every other child
 * runs on its own, whatever the bench was started with (else a run would find an earlier one's
 * answers there).
 */
function inherited(): NodeJS.ProcessEnv {
  const { REDIS_URL: _redis, REDIS_CACHE_URL: _cache, ...rest } = process.env;
  return rest;
}

/**
 * `entry` is a file name in bench/ (e.g. `gateway-process.ts`); the process runs its compiled JavaScript,
 * or with `source` (a child that is not measured, e.g. an emulator of the chaos run) its TypeScript
 * under tsx, without the minute-long build.
 */
export async function startChild(
  entry: string,
  env: Record<string, string>,
  startTimeoutMs = 60_000,
  source = false,
): Promise<Child> {
  if (!CHILD_ENTRIES.includes(`bench/${entry}`)) throw new Error(`bench/${entry} is not in build.ts's CHILD_ENTRIES`);
  const file = source
    ? new URL(entry, import.meta.url).pathname
    : `${await compiledChildren()}bench/${entry.replace(/\.ts$/, '.js')}`;
  const proc = fork(file, [], {
    // BENCH_NODE_OPTIONS adds flags to the measured processes only (e.g. `--cpu-prof --cpu-prof-dir=prof`);
    // BENCH_CHILD_STDOUT=1 lets their stdout through (for V8's `--trace-gc`, which prints there).
    execArgv: source
      ? ['--import', 'tsx']
      : [
          ...(MEASURED_AS_SHIPPED.includes(entry) ? productionNodeFlags() : []),
          ...(process.env.BENCH_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? []),
        ],
    env: { ...inherited(), ...env },
    stdio: ['ignore', process.env.BENCH_CHILD_STDOUT ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const failAll = (e: Error) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  proc.on('exit', (code, signal) => failAll(new Error(`${entry} exited (${signal ?? code})`)));

  return new Promise<Child>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${entry} did not start within ${startTimeoutMs} ms`));
    }, startTimeoutMs);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code} before it was ready`));
    });
    proc.on('message', (m: Reply) => {
      if (m.ready && m.url) {
        clearTimeout(timer);
        resolve(makeChild(proc, m.url, pending, () => next++));
        return;
      }
      const waiter = m.id !== undefined ? pending.get(m.id) : undefined;
      if (!waiter) return;
      pending.delete(m.id!);
      if (m.ok) waiter.resolve(m.result);
      else waiter.reject(new Error(m.error ?? 'child request failed'));
    });
  });
}

function makeChild(
  proc: ChildProcess,
  url: string,
  pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>,
  nextId: () => number,
): Child {
  const request = <T>(type: string, payload?: unknown) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId();
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      proc.send({ id, type, payload });
    });
  return {
    url,
    pid: proc.pid!,
    request,
    stats: () => request<ProcessStats>('stats'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const kill = setTimeout(() => proc.kill('SIGKILL'), 5_000);
        proc.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        proc.kill('SIGTERM');
      }),
  };
}

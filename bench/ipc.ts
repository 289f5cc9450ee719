/**
 * The small request/reply protocol between the bench orchestrator and the processes it measures
 * (gateway, bare Yoga). The child announces `ready` with its URL, then answers named requests; every
 * child answers `stats` (its own CPU time and peak RSS) and `reset-peak`, so the figures reported are
 * the measured process's own, not the orchestrator's or the emulators'.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export interface ProcessStats {
  /** process.cpuUsage() of the child, user + system, in milliseconds (every thread). */
  cpuMs: number;
  /**
   * The main (JavaScript) thread's share of it; the rest is V8's helper threads (the optimising
   * compiler, the collector's parallel and concurrent work) and libuv's pool. Null off Linux.
   */
  mainThreadCpuMs: number | null;
  /** Peak resident set size (VmHWM) since start or the last `reset-peak`, in KiB; null off Linux. */
  peakRssKb: number | null;
  rssKb: number | null;
  /** The script the process runs and the node flags it was started with (as measured, as shipped). */
  entry: string;
  execArgv: string[];
}

export type Handlers = Record<string, (payload: unknown) => unknown>;

interface Request {
  id: number;
  type: string;
  payload?: unknown;
}

/** Child side: answer the parent's requests; `ready` is sent by the caller once it listens. */
export function serveParent(handlers: Handlers): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('bench child processes must be started with an IPC channel (child_process.fork)');
  const all: Handlers = { stats: () => ownStats(), 'reset-peak': () => resetPeak(), ...handlers };
  process.on('message', (message: Request) => {
    const handler = all[message.type];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown request ${message.type}`);
        return handler(message.payload);
      })
      .then(
        (result) => send({ id: message.id, ok: true, result }),
        (e: unknown) => send({ id: message.id, ok: false, error: e instanceof Error ? e.message : String(e) }),
      );
  });
  // The parent going away (crash, Ctrl-C) must not leave a server behind.
  process.on('disconnect', () => process.exit(0));
}

export function announceReady(url: string): void {
  process.send?.({ ready: true, url });
}

export function ownStats(): ProcessStats {
  const cpu = process.cpuUsage();
  const status = procStatus();
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    mainThreadCpuMs: mainThreadCpuMs(),
    peakRssKb: status?.VmHWM ?? null,
    rssKb: status?.VmRSS ?? null,
    entry: process.argv[1] ?? '',
    execArgv: process.execArgv,
  };
}

/** utime + stime of the main thread from /proc (in USER_HZ ticks, 100 a second on Linux); null elsewhere. */
export function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function procStatus(): Record<string, number> | undefined {
  try {
    const out: Record<string, number> = {};
    for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
      const m = /^(Vm\w+):\s+(\d+) kB/.exec(line);
      if (m) out[m[1]!] = Number(m[2]);
    }
    return out;
  } catch {
    return undefined;
  }
}

/** Linux resets VmHWM to the current RSS when "5" is written to clear_refs (since 4.0). */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Gateway replicas as separate processes (test/support/replica.ts), started together: each gets its
 * token and says `ready`; once all have, they are told `go` at the same moment, so their bursts
 * overlap however long each took to load. Killed after the file if still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';

export interface ReplicaResult {
  /** Epoch ms of every request the replica put on the wire (its token first). */
  sentAt: number[];
  statuses: unknown[];
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** One replica per entry of `ids`, each with `env` and the ids it reads; resolves with their results. */
export async function startReplicas(env: Record<string, string>, ids: string[][]): Promise<ReplicaResult[]> {
  const started = ids.map((slice) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/replica.ts'], {
      env: { ...process.env, ...env, REPLICA_IDS: slice.join(',') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    let onReady: () => void;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('ready\n')) onReady();
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const result = new Promise<ReplicaResult>((resolve, reject) =>
      child.on('exit', (code) =>
        code === 0
          ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ReplicaResult)
          : reject(new Error(`replica exited ${code}: ${err.slice(-2000)}`)),
      ),
    );
    return { child, ready, result };
  });
  // A replica that dies before it is ready fails the start instead of hanging it.
  await Promise.race([
    Promise.all(started.map((r) => r.ready)),
    Promise.all(started.map((r) => r.result)).then(() => undefined),
  ]);
  for (const { child } of started) child.stdin.end('go\n');
  return Promise.all(started.map((r) => r.result));
}

/**
 * A gateway as a process of its own (`src/server.ts`, as `npm start` runs it) with exactly the
 * environment given (nothing of the test's own): started, it resolves with its origin once it says
 * `gateway ready`; refused, with its exit code and what it printed. Every process still running
 * after the file is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';

export interface GatewayProcess {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
afterAll(() => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')));

function spawnGateway(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    listeners.forEach((l) => l());
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, listeners, exited };
}

/** Starts a gateway; rejects with its output if it exits before it is ready. */
export async function startGateway(env: Record<string, string>): Promise<GatewayProcess> {
  const { child, output, listeners, exited } = spawnGateway(env);
  const port = await new Promise<string>((resolve, reject) => {
    listeners.add(() => {
      const m = /gateway ready: http:\/\/\S+?:(\d+)\//.exec(output());
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`gateway exited with ${code}: ${output()}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Runs a gateway that should refuse to start: its exit code and what it printed. */
export async function refusedStart(
  env: Record<string, string>,
): Promise<{ code: number | 'started' | null; output: string }> {
  const { child, output, exited } = spawnGateway(env);
  const ready = /gateway ready/;
  const code = await Promise.race([
    exited,
    new Promise<'ready'>((resolve) => child.stdout.on('data', () => ready.test(output()) && resolve('ready'))),
  ]);
  if (code === 'ready') child.kill('SIGKILL');
  return { code: code === 'ready' ? 'started' : code, output: output() };
}

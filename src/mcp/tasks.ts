/**
 * Tasks (the `io.modelcontextprotocol/tasks` extension) for tool calls the account budget cannot
 * cover before their deadline. Such a call sent nothing upstream; instead of the `RATE_LIMITED` error
 * a client that declared the extension gets a task (`working`, polled every `pollIntervalMs`: when the
 * budget frees). The task runs when it is polled after that: `tasks/get` on any replica claims it
 * (a lease, so one replica runs it), makes the call through the same door with the polling caller's
 * identity, and stores what it answered with its cost; still short, it waits again. Cancelling a
 * task that has not run spends nothing. State lives in Redis when configured (every replica reads
 * it), else (or while it is away) in this process, for `TASK_TTL_MS` after creation; a task is its
 * creator's only.
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { RedisLink } from '../core/redis.js';

export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

export interface TaskRecord {
  taskId: string;
  /** The principal that created it: the only one that may read or cancel it. */
  owner: string;
  tool: string;
  args: Record<string, unknown>;
  status: TaskStatus;
  statusMessage: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** Not run before this time (epoch ms): when the budget frees. */
  notBefore: number;
  pollIntervalMs: number;
  /** The tool's result once completed. */
  result?: Record<string, unknown>;
}

/** How long a task is kept after it was created. */
export const TASK_TTL_MS = 15 * 60_000;
/** How long one replica may hold a task while it runs the call. */
const LEASE_MS = 60_000;

export class TaskStore {
  private readonly memory = new LRUCache<string, TaskRecord>({ max: 10_000, ttl: TASK_TTL_MS });
  private readonly leases = new LRUCache<string, true>({ max: 10_000, ttl: LEASE_MS });

  constructor(private readonly redis?: RedisLink) {}

  async create(fields: Omit<TaskRecord, 'taskId' | 'createdAt' | 'lastUpdatedAt'>): Promise<TaskRecord> {
    const now = Date.now();
    const record: TaskRecord = { taskId: randomUUID(), createdAt: now, lastUpdatedAt: now, ...fields };
    await this.put(record);
    return record;
  }

  /** Stored before it is answered, so that any replica's `tasks/get` finds it at once. */
  async put(record: TaskRecord): Promise<void> {
    const left = Math.max(1, record.createdAt + TASK_TTL_MS - Date.now());
    const redis = this.shared();
    if (redis) await redis.client.set(redis.key('mcp-task', record.taskId), JSON.stringify(record), 'PX', left);
    else this.memory.set(record.taskId, record, { ttl: left });
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const redis = this.shared();
    const raw = redis ? await redis.client.get(redis.key('mcp-task', taskId)) : null;
    // One created while Redis was away lives here.
    return raw === null ? this.memory.get(taskId) : (JSON.parse(raw) as TaskRecord);
  }

  /** Claims the right to run the task now (false: another poll, here or on another replica, has it). */
  async claim(taskId: string): Promise<boolean> {
    const redis = this.shared();
    if (redis) return (await redis.client.set(redis.key('mcp-task-lease', taskId), '1', 'PX', LEASE_MS, 'NX')) === 'OK';
    if (this.leases.has(taskId)) return false;
    this.leases.set(taskId, true);
    return true;
  }

  async release(taskId: string): Promise<void> {
    const redis = this.shared();
    if (redis) await redis.client.del(redis.key('mcp-task-lease', taskId));
    else this.leases.delete(taskId);
  }

  /** Redis while it answers; this process's memory while it is away. */
  private shared(): RedisLink | undefined {
    return this.redis?.ready ? this.redis : undefined;
  }
}

/** What `tasks/get` and the task's creation answer (SEP-2663's DetailedTask). */
export function taskView(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    statusMessage: record.statusMessage,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: record.pollIntervalMs,
    ...(record.status === 'completed' ? { result: record.result } : {}),
  };
}

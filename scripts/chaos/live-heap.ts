/**
 * A replica's live heap, read through its inspector (the replica starts with `--inspect` on a port
 * of its own): a full collection (`HeapProfiler.collectGarbage`), then the heap in use
 * (`Runtime.getHeapUsage`). What the chaos run's memory check judges: the resident set and the heap
 * in use without a collection only say how lazily V8 collects (one run: resident 240 → 410 MB and
 * heap in use 100 → 250 MB while two heap snapshots of the same process, 40 s apart, held 72.3 and
 * 73.0 MB).
 */

/** The inspector's address, from the line Node prints on stderr when it opens it. */
export const INSPECTOR_LINE = /Debugger listening on (ws:\/\/\S+)/;

export class LiveHeap {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const call = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!call) return;
      this.pending.delete(message.id!);
      if (message.error) call.reject(new Error(message.error.message));
      else call.resolve(message.result);
    });
    socket.addEventListener('close', () => {
      for (const call of this.pending.values()) call.reject(new Error('inspector closed'));
      this.pending.clear();
    });
  }

  static open(url: string): Promise<LiveHeap> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.addEventListener('open', () => resolve(new LiveHeap(socket)), { once: true });
      socket.addEventListener('error', () => reject(new Error(`inspector ${url} refused`)), { once: true });
    });
  }

  /** Bytes of heap still in use after a full collection. */
  async bytes(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const { usedSize } = (await this.call('Runtime.getHeapUsage')) as { usedSize: number };
    return usedSize;
  }

  close(): void {
    this.socket.close();
  }

  private call(method: string): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method }));
    });
  }
}

/**
 * The throughput load side: `concurrency` keep-alive HTTP/1.1 connections, each sending the same
 * POST back to back for a fixed time, reading each answer as bytes off the socket.
 *
 * Why not a general client: at 8 connections against a bare node:http server sending a 190 KB
 * UTF-8 JSON answer, from one process on this 2-core machine, autocannon reached 800–1,700 req/s (it
 * decodes every body into a string), node:http 5,100, an undici pool 3,100–5,700, and this loop
 * 8,700–11,100 with the server then the busier side. The response cache and the bare floor answer in
 * about 0.1–0.2 ms of CPU, so a client costing more than they do would measure itself.
 *
 * Answers are checked cheaply but strictly: before the timed window one answer is read whole and
 * parsed, and must be a 200 with `data` and no `errors`; in the window every answer must be a 200
 * with a Content-Length, begin with the same bytes (an answer with errors begins with them) and have
 * about the same length (its `extensions` may differ in a digit or two); anything else counts as an
 * error. A connection that fails (reset, closed, misframed, silent for 60 s) stops the measurement.
 */
import net from 'node:net';
import { percentile, round } from './client.js';

export interface ThroughputResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
}

/** How many leading bytes of every answer must equal the checked answer's. */
const PREFIX_BYTES = 256;
/** How far an answer's length may be from the checked answer's (digits in `extensions`). */
const LENGTH_SLACK = 64;
const HEAD_END = Buffer.from('\r\n\r\n');

interface Answer {
  status: number;
  /** The Content-Length (an answer without one stops the measurement). */
  length: number;
  /** The whole body when asked for, else its first chunk. */
  body: Buffer;
  ms: number;
}

/** One keep-alive connection sending `request` and reading answers framed by Content-Length. */
class Connection {
  private readonly socket: net.Socket;
  private head: Buffer | null = null;
  private status = 0;
  private length = -1;
  private left = -1;
  private chunks: Buffer[] = [];
  private keepBody = false;
  private prefix: Buffer | null = null;
  private sentAt = 0;
  private onAnswer: ((answer: Answer) => void) | null = null;
  private onError: ((error: Error) => void) | null = null;
  private readonly ready: Promise<void>;

  constructor(
    url: URL,
    private readonly request: Buffer,
  ) {
    this.socket = net.connect(Number(url.port), url.hostname);
    this.socket.setNoDelay(true);
    // A hung server must fail the run, not hang the bench.
    this.socket.setTimeout(60_000, () => this.socket.destroy(new Error('no answer within 60 s')));
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
    this.ready.catch(() => undefined); // awaited by `send`; a connection never used must not throw unhandled
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (e) => this.onError?.(e));
    this.socket.on('close', () => this.onError?.(new Error('the server closed the connection')));
  }

  /** Sends the request once; `whole` keeps the body (else only its first bytes are kept). */
  async send(whole: boolean): Promise<Answer> {
    await this.ready;
    if (this.socket.destroyed) throw new Error('the connection is closed');
    this.head = null;
    this.left = -1;
    this.chunks = [];
    this.prefix = null;
    this.keepBody = whole;
    return new Promise((resolve, reject) => {
      this.onAnswer = resolve;
      this.onError = reject;
      this.sentAt = performance.now();
      this.socket.write(this.request);
    });
  }

  private read(chunk: Buffer): void {
    let body = chunk;
    if (this.left < 0) {
      this.head = this.head ? Buffer.concat([this.head, chunk]) : chunk;
      const end = this.head.indexOf(HEAD_END);
      if (end === -1) return;
      const lines = this.head.subarray(0, end).toString('latin1');
      this.status = Number(lines.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(lines);
      body = this.head.subarray(end + 4);
      // The rest of such an answer would be misread as the next one's head: stop the measurement.
      if (!length) return void this.socket.destroy(new Error('an answer without a Content-Length (chunked)'));
      this.length = this.left = Number(length[1]);
    }
    if (this.keepBody) this.chunks.push(body);
    // Usually whole in the first read; the headers can come in a read of their own.
    else if (!this.prefix || this.prefix.length < PREFIX_BYTES)
      this.prefix = this.prefix ? Buffer.concat([this.prefix, body]) : body;
    this.left -= body.length;
    if (this.left === 0) this.finish(this.length, this.keepBody ? Buffer.concat(this.chunks) : this.prefix!);
    else if (this.left < 0) this.socket.destroy(new Error('more bytes than the Content-Length announced'));
  }

  private finish(length: number, body: Buffer): void {
    const done = this.onAnswer;
    this.onAnswer = null;
    this.onError = null;
    done?.({ status: this.status, length, body, ms: performance.now() - this.sentAt });
  }

  close(): void {
    this.socket.destroy();
  }
}

export async function throughput(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  options: { concurrency: number; seconds: number; headers?: Record<string, string> },
): Promise<ThroughputResult> {
  const target = new URL(url);
  const payload = Buffer.from(JSON.stringify({ query, variables }));
  const request = Buffer.concat([
    Buffer.from(
      [
        `POST ${target.pathname} HTTP/1.1`,
        `host: ${target.host}`,
        'content-type: application/json',
        'accept: application/graphql-response+json, application/json',
        // The production profile's CSRF prevention wants a header a browser cannot send cross-site.
        'x-graphql-yoga-csrf: bench',
        ...Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
        `content-length: ${payload.length}`,
        '',
        '',
      ].join('\r\n'),
    ),
    payload,
  ]);
  const connections = Array.from({ length: options.concurrency }, () => new Connection(target, request));
  try {
    const expected = await connections[0]!.send(true);
    const checked = JSON.parse(expected.body.toString()) as { data?: unknown; errors?: unknown };
    if (expected.status !== 200 || !checked.data || checked.errors)
      throw new Error(`the answer to check against is not a whole success (HTTP ${expected.status})`);
    const prefix = expected.body.subarray(0, PREFIX_BYTES);

    const latencies: number[] = [];
    let errors = 0;
    const started = performance.now();
    const deadline = started + options.seconds * 1000;
    await Promise.all(
      connections.map(async (connection) => {
        while (performance.now() < deadline) {
          const answer = await connection.send(false);
          latencies.push(answer.ms);
          // `body` holds at least the first PREFIX_BYTES (collected across reads, see `read`).
          const ok =
            answer.status === 200 &&
            Math.abs(answer.length - expected.length) <= LENGTH_SLACK &&
            answer.body.subarray(0, prefix.length).equals(prefix);
          if (!ok) errors++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      requests: latencies.length,
      errors,
      seconds: round(seconds, 2),
      perSecond: round(latencies.length / seconds, 1),
      p50Ms: round(percentile(latencies, 50), 1),
      p95Ms: round(percentile(latencies, 95), 1),
    };
  } finally {
    for (const c of connections) c.close();
  }
}

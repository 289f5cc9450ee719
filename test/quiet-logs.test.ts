/**
 * Logs of a real run (`npm start`, LOG_LEVEL=debug) full of expected errors — bad input, rate limits,
 * upstream 4xx, an upstream outage, a lost answer, limits passed, a body too large — print no stack
 * line: each request is one structured line with its codes, operation, request id and, for
 * upstream errors, the upstream and its status. An unexpected error keeps its stack.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { yogaLogger } from '../src/observability/logging.js';

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill('SIGTERM')));

describe('quiet logs', () => {
  it('a run with expected errors prints no stack line, and one warn line per request with what went wrong', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'debug',
        GOVERNANCE_RATE_LIMITS: 'minute:4',
        UPSTREAM_QUEUE_DEADLINE_MS: '10',
        UPSTREAM_RETRIES: '0',
        // The test injects upstream faults through the embedded emulator's control routes.
        EMBEDDED_EMULATORS: 'faults',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const m = /gateway ready: (http:\/\/\S+\/graphql)/.exec(out);
        if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    });
    const calendarOrigin = /embedded calendar emulator: +(http:\/\/[\d.:]+)/.exec(out)![1]!;
    const gql = (query: string, id: string, variables?: Record<string, unknown>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': id },
        body: JSON.stringify({ query, variables }),
      }).then((r) => r.text());

    await gql('query BadInput { event(slug: "..") { id } venue(id: "ten") { id } }', 'bad-input');
    await gql(
      'query Limited { a: entities(first: 5, search: "a") { totalCount } b: entities(first: 5, search: "b") { totalCount } c: entities(first: 5, search: "c") { totalCount } d: entities(first: 5, search: "d") { totalCount } e: entities(first: 5, search: "e") { totalCount } }',
      'limited',
    );
    const coerced = await gql('query Coerced($n: Int) { entities(first: $n) { totalCount } }', 'coercion', {
      n: 'ten',
    });
    expect(JSON.parse(coerced).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    await gql('mutation Missing { deleteEvent(id: "987654") { id } }', 'upstream-404');
    await gql(
      'mutation Refused { createEvent(input: { title: "x", startDate: "2027-01-01 10:00:00", endDate: "2027-01-01 11:00:00", venueId: "987654" }) { id } }',
      'upstream-400',
    );
    await gql(
      `query Directives { __typename ${Array.from({ length: 50 }, (_, i) => `@d${i}`).join(' ')} }`,
      'directives',
    );
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }', pad: 'x'.repeat(5_000_000) }),
    }).then((r) => r.text());
    await fetch(`${calendarOrigin}/_emulator/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { kind: 'status', status: 503, method: 'GET', times: 1 },
        { kind: 'apply-then-reset', method: 'POST', times: 1 },
      ]),
    });
    await gql('query Down { event(id: "1") { id } }', 'upstream-503');
    await gql('mutation Lost { createTag(input: { name: "lost answer" }) { id } }', 'lost');

    // Let the last lines arrive.
    await vi.waitFor(() => expect(out).toContain('"clientRequestId":"lost"'), { timeout: 10_000 });
    child.kill('SIGTERM');

    const stackLines = out.split('\n').filter((l) => /^\s+at\s/.test(l) || /\\n\s+at\s/.test(l));
    expect(stackLines).toEqual([]);
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>)
      .filter((l) => l.msg === 'graphql request');
    // The gateway makes its own request ids; the ids these requests sent are logged as clientRequestId.
    const byId = Object.fromEntries(lines.map((l) => [l.clientRequestId, l]));
    expect(byId['bad-input']).toMatchObject({
      level: 'warn',
      operationName: 'BadInput',
      errors: ['BAD_USER_INPUT', 'BAD_USER_INPUT'],
    });
    // A variable of the wrong type is bad input: one warn line, nothing at error level.
    expect(byId.coercion).toMatchObject({ level: 'warn', operationName: 'Coerced', errors: ['BAD_USER_INPUT'] });
    const all = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(all.filter((l) => l.level === 'error')).toEqual([]);
    // At start, one line per upstream; a failed call names its cause, never the URL.
    // An upstream that answers is just that: the status of the probe's request for its root says nothing.
    expect(out).toMatch(/^upstream governance: answers$/m);
    expect(out).toMatch(/^upstream calendar: answers$/m);
    const failed = all.filter((l) => l.msg === 'upstream call failed');
    expect(failed).toContainEqual(
      expect.objectContaining({ level: 'warn', upstream: 'calendar', cause: 'http-5xx', status: 503 }),
    );
    expect(JSON.stringify(failed)).not.toMatch(/http:\/\//);
    expect(byId.limited).toMatchObject({ level: 'warn', operationName: 'Limited' });
    expect(byId.limited.errors).toContain('RATE_LIMITED');
    expect(byId['upstream-404']).toMatchObject({
      level: 'warn',
      errors: ['NOT_FOUND'],
      upstreamErrors: [{ code: 'NOT_FOUND', upstream: 'calendar', status: 404 }],
    });
    expect(byId['upstream-400']).toMatchObject({
      level: 'warn',
      upstreamErrors: [{ code: 'BAD_USER_INPUT', upstream: 'calendar', status: 400 }],
    });
    expect(byId.directives).toMatchObject({ level: 'warn', errors: ['GRAPHQL_VALIDATION_FAILED'] });
    expect(byId['upstream-503']).toMatchObject({
      level: 'warn',
      upstreamErrors: [{ code: 'UPSTREAM_UNAVAILABLE', upstream: 'calendar', status: 503 }],
    });
    expect(byId.lost).toMatchObject({
      level: 'warn',
      upstreamErrors: [{ code: 'UPSTREAM_OUTCOME_UNKNOWN', upstream: 'calendar' }],
    });
  });

  it('an unexpected error keeps its stack, in one JSON line', () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const logger = yogaLogger('warn') as { error(...args: unknown[]): void };
      logger.error(new TypeError('boom'));
    } finally {
      spy.mockRestore();
    }
    expect(written).toHaveLength(1);
    const line = JSON.parse(written[0]!) as { level: string; error: string; stack: string };
    expect(line).toMatchObject({ level: 'error', msg: 'unexpected error', error: 'TypeError: boom' });
    expect(line.stack).toMatch(/\n\s+at /);
  });
});

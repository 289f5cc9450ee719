/**
 * An upstream's own error text never reaches a client, over real HTTP: a refusal the gateway has no
 * words of its own for is answered with a typed message of the gateway's, and the upstream's text is
 * in the request log line only.
 */
import { describe, expect, it } from 'vitest';
import { startStack } from './support/stack.js';

describe("the upstream's error text", () => {
  it('is logged, never answered', async () => {
    const lines: string[] = [];
    const stack = await startStack({
      env: { LOG_LEVEL: 'info' },
      gateway: { logSink: (line) => void lines.push(line) },
    });
    const url = await stack.listen();
    // A 400 in the platform's envelope whose detail ("Bad Request", the emulator's) the gateway has no words for.
    stack.governance.control.setFaults([{ kind: 'status', status: 400, times: 1, pathPrefix: '/entities' }]);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query Refused { entities(first: 1) { nodes { id } } }' }),
    });
    const body = (await res.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors[0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', upstream: 'governance' });
    expect(body.errors[0]!.message).toBe('The governance service rejected the request.');
    expect(JSON.stringify(body)).not.toContain('Bad Request');
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.operationName === 'Refused');
    expect(logged.upstreamErrors).toEqual([
      { code: 'BAD_USER_INPUT', upstream: 'governance', status: 400, detail: 'Bad Request' },
    ]);
  });
});

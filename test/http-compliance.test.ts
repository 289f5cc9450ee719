/**
 * The GraphQL-over-HTTP spec, checked by the graphql-http package's own server audits: once
 * in-process through `yoga.fetch`, once over a real port with Node's fetch. Every audit must pass:
 * MUST and SHOULD alike ('warn' counts as a failure).
 */
import { serverAudits } from 'graphql-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let portUrl: string;

beforeAll(async () => {
  stack = await startStack();
  portUrl = await stack.listen();
});

const inProcess = serverAudits({
  url: 'http://gateway.test/graphql',
  fetchFn: (input: string, init?: RequestInit) => stack.gateway.yoga.fetch(input, init ?? {}),
});
const overPort = serverAudits({ url: () => portUrl, fetchFn: fetch });

describe('GraphQL over HTTP audits, in process (yoga.fetch)', () => {
  it('runs the full audit list', () => expect(inProcess.length).toBeGreaterThan(30));
  for (const audit of inProcess) {
    it(`${audit.id} ${audit.name}`, async () => {
      const result = await audit.fn();
      expect(result.status, 'reason' in result ? result.reason : '').toBe('ok');
    });
  }
});

describe('GraphQL over HTTP audits, over a real port', () => {
  for (const audit of overPort) {
    it(`${audit.id} ${audit.name}`, async () => {
      const result = await audit.fn();
      expect(result.status, 'reason' in result ? result.reason : '').toBe('ok');
    });
  }
});

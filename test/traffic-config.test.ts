/** Traffic settings from the environment: profiles, overrides, rules of any window, margins, and clear problems. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { problemsOf } from './support/config.js';

describe('traffic configuration', () => {
  it("takes the contract's production rules by default outside production and the sandbox ones on request, at 90%", () => {
    const production = loadConfig({}).traffic;
    expect(production.governance.rules).toEqual([
      { name: 'minute', limit: 20_000, windowMs: 60_000, perEndpoint: false },
      { name: 'hour', limit: 200_000, windowMs: 3_600_000, perEndpoint: false },
    ]);
    expect(production.governance.margin).toBe(0.9);
    expect(production.calendar.rules).toEqual([]);
    const sandbox = loadConfig({
      GOVERNANCE_RATE_PROFILE: 'sandbox',
      GOVERNANCE_RATE_LIMITS: 'endpoint-minute:1000',
    }).traffic;
    expect(sandbox.governance.rules.map((r) => [r.name, r.limit])).toEqual([
      ['minute', 5_000],
      ['hour', 50_000],
      ['endpoint-minute', 1_000],
    ]);
  });

  it('overrides limits rule by rule (0 drops a rule) and adds rules of any window', () => {
    const t = loadConfig({
      GOVERNANCE_RATE_LIMITS: 'minute:30, hour:0, endpoint-minute:10, 500/20s, endpoint:3/1500ms',
      GOVERNANCE_RATE_MARGIN: '80%',
      CALENDAR_RATE_LIMITS: 'second:0,minute:600',
      GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION: '40',
      UPSTREAM_QUEUE_DEADLINE_MS: '1234',
      GATEWAY_OPERATION_DEADLINE_MS: '4321',
    }).traffic;
    expect(t.governance.rules).toEqual([
      { name: 'minute', limit: 30, windowMs: 60_000, perEndpoint: false },
      { name: 'endpoint-minute', limit: 10, windowMs: 60_000, perEndpoint: true },
      { name: '500/20s', limit: 500, windowMs: 20_000, perEndpoint: false },
      { name: 'endpoint:3/1500ms', limit: 3, windowMs: 1_500, perEndpoint: true },
    ]);
    expect(t.governance.margin).toBe(0.8);
    expect(t.calendar.rules).toEqual([{ name: 'minute', limit: 600, windowMs: 60_000, perEndpoint: false }]);
    expect(t.calendar.margin).toBe(1);
    expect(t.maxCallsPerOperation).toBe(40);
    expect(t.queueDeadlineMs).toBe(1234);
    expect(t.operationDeadlineMs).toBe(4321);
  });

  it('reports every bad traffic setting in one go', () => {
    const problems = problemsOf({
      GOVERNANCE_RATE_LIMITS: 'minute=ten',
      GOVERNANCE_RATE_MARGIN: '1.5',
      UPSTREAM_QUEUE_DEADLINE_MS: '-1',
      CALENDAR_RATE_LIMITS: '5/50ms',
    });
    expect(problems.some((p) => p.startsWith('GOVERNANCE_RATE_LIMITS must look like'))).toBe(true);
    expect(problems.some((p) => p.startsWith('GOVERNANCE_RATE_MARGIN must be a fraction'))).toBe(true);
    expect(problems.some((p) => p.startsWith('UPSTREAM_QUEUE_DEADLINE_MS must be a whole number'))).toBe(true);
    expect(problems).toContain('CALENDAR_RATE_LIMITS: a rule\'s window must be at least 100 ms (got "5/50ms").');
  });
});

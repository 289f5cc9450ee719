/** Traffic settings from the environment: profiles, overrides, windows, margins, and clear problems. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { problemsOf } from './support/config.js';

describe('traffic configuration', () => {
  it("takes the contract's production rules by default and the sandbox ones on request, at 90%", () => {
    const production = loadConfig({}).traffic;
    expect(production.governance.rules).toEqual([
      { name: 'minute', limit: 20_000, windowMs: 60_000, perEndpoint: false },
      { name: 'hour', limit: 200_000, windowMs: 3_600_000, perEndpoint: false },
    ]);
    expect(production.governance.margin).toBe(0.9);
    expect(production.calendar.rules).toEqual([]);
    const sandbox = loadConfig({ GOVERNANCE_RATE_PROFILE: 'sandbox', GOVERNANCE_RATE_PER_ENDPOINT: 'true' }).traffic;
    expect(sandbox.governance.rules.map((r) => [r.name, r.limit])).toEqual([
      ['minute', 5_000],
      ['hour', 50_000],
      ['endpoint-minute', 1_000],
    ]);
  });

  it('overrides limits and windows rule by rule; 0 drops a rule', () => {
    const t = loadConfig({
      GOVERNANCE_RATE_LIMITS: 'minute:30, hour:500, endpoint-minute:10',
      GOVERNANCE_RATE_WINDOWS: 'minute:1000,hour:20000',
      GOVERNANCE_RATE_MARGIN: '80%',
      CALENDAR_RATE_LIMITS: 'second:0,minute:600',
      GATEWAY_MAX_UPSTREAM_CALLS_PER_OPERATION: '40',
      GOVERNANCE_LOCAL_SHARE: '0.25',
    }).traffic;
    expect(t.governance.rules).toEqual([
      { name: 'minute', limit: 30, windowMs: 1_000, perEndpoint: false },
      { name: 'hour', limit: 500, windowMs: 20_000, perEndpoint: false },
      // The endpoint rule follows the minute window unless it has its own.
      { name: 'endpoint-minute', limit: 10, windowMs: 1_000, perEndpoint: true },
    ]);
    expect(t.governance.margin).toBe(0.8);
    expect(t.calendar.rules).toEqual([{ name: 'minute', limit: 600, windowMs: 60_000, perEndpoint: false }]);
    expect(t.maxCallsPerOperation).toBe(40);
    expect(t.localShare).toBe(0.25);
  });

  it('reports every bad traffic setting in one go', () => {
    const problems = problemsOf({
      GOVERNANCE_RATE_LIMITS: 'minute=ten',
      GOVERNANCE_RATE_MARGIN: '1.5',
      GOVERNANCE_LOCAL_SHARE: '0',
      UPSTREAM_QUEUE_DEADLINE_MS: '-1',
      GOVERNANCE_RATE_WINDOWS: 'minute:5',
    });
    expect(problems.some((p) => p.startsWith('GOVERNANCE_RATE_LIMITS must look like'))).toBe(true);
    expect(problems.some((p) => p.startsWith('GOVERNANCE_RATE_MARGIN must be a fraction'))).toBe(true);
    expect(problems.some((p) => p.startsWith('GOVERNANCE_LOCAL_SHARE must be a fraction'))).toBe(true);
    expect(problems.some((p) => p.startsWith('UPSTREAM_QUEUE_DEADLINE_MS must be a whole number'))).toBe(true);
    expect(problems.some((p) => p.includes('window must be at least 100 ms'))).toBe(true);
  });
});

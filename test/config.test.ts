import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { problemsOf } from './support/config.js';

const real = {
  GOVERNANCE_URL: 'https://tenant.example.com',
  GOVERNANCE_CLIENT_ID: 'id',
  GOVERNANCE_CLIENT_SECRET: 's3cret-value',
  CALENDAR_URL: 'https://site.example/wp-json/calendar/events/v1',
  CALENDAR_USER: 'editor',
  CALENDAR_APP_PASSWORD: 'abcd efgh',
  GOVERNANCE_RATE_PROFILE: 'production',
};
/** One way in for production's callers: an API key (by its hash). */
const callers = { AUTH_API_KEYS: `ops|${'ab'.repeat(32)}|governance:read` };

describe('configuration', () => {
  it('defaults to the embedded emulators on port 4000', () => {
    const c = loadConfig({});
    expect(c.port).toBe(4000);
    expect(c.governance.url).toBeUndefined();
    expect(c.calendar.url).toBeUndefined();
    expect(c.maxPageSize).toBe(500);
    expect(c.graphiql).toBe(true);
  });

  it('reads key:number settings key by key, keeping the defaults of keys left out, and names a bad key', () => {
    const c = loadConfig({ LIVE_LIMITS: 'streamsPerCaller:3', CACHE_BUDGET_STALE: 'maxStaleMs:0' });
    expect(c.live).toMatchObject({ pollBudgetShare: 0.1, maxStreamsPerCaller: 3, pollsPerMinutePerCaller: 30 });
    expect(c.cache.budgetStale).toEqual({ below: 0.2, maxStaleMs: 0 });
    const [problem] = problemsOf({ LIVE_LIMITS: 'streams:3' });
    expect(problem).toContain('LIVE_LIMITS');
    expect(problem).toContain('streamsPerCaller 1..10000');
    expect(problemsOf({ LIVE_LIMITS: 'streamsPerCaller:0' })[0]).toContain('got "streamsPerCaller:0"');
  });

  it('EMBEDDED_EMULATORS=faults serves the emulators with their control routes', () => {
    expect(loadConfig({ EMBEDDED_EMULATORS: 'faults' })).toMatchObject({
      embeddedEmulators: true,
      emulatorFaultRoutes: true,
    });
    expect(loadConfig({})).toMatchObject({ embeddedEmulators: true, emulatorFaultRoutes: false });
  });

  it('derives the token URL from the tenant origin', () => {
    const c = loadConfig(real);
    expect(c.governance.tokenUrl).toBe('https://tenant.example.com/api/access/v1/oauth/token');
    expect(c.calendar.url).toBe('https://site.example/wp-json/calendar/events/v1');
  });

  it('turns GraphiQL off in production unless asked for', () => {
    expect(loadConfig({ ...real, ...callers, NODE_ENV: 'production' }).graphiql).toBe(false);
    expect(loadConfig({ ...real, ...callers, NODE_ENV: 'production', GRAPHIQL: 'true' }).graphiql).toBe(true);
  });

  it('refuses a production start that no caller could authenticate to, naming the settings', () => {
    const production = { ...real, NODE_ENV: 'production' };
    expect(problemsOf(production)).toEqual([
      'NODE_ENV=production lets no caller in: set AUTH_ISSUERS (bearer JWTs of your identity provider), AUTH_API_KEYS (static keys, by their SHA-256), or both; AUTH_ANONYMOUS grants callers without credentials permissions instead.',
    ]);
    // `none` is no permission either.
    expect(problemsOf({ ...production, AUTH_ANONYMOUS: 'none' })).toHaveLength(1);
    for (const way of <Record<string, string>[]>[
      { AUTH_ISSUERS: 'https://idp.example/|gateway|https://idp.example/jwks.json' },
      callers,
      { AUTH_ANONYMOUS: 'governance:read' },
      // The caller's own upstream credential, which the upstream judges.
      { GOVERNANCE_AUTH_MODE: 'forward' },
      { CALENDAR_AUTH_MODE: 'forward' },
    ])
      expect(problemsOf({ ...production, ...way })).toEqual([]);
    // The embedded emulators come with the development issuer (`npm start`, the compose demo).
    expect(problemsOf({ NODE_ENV: 'production', EMBEDDED_EMULATORS: 'true' })).toEqual([]);
  });

  it('reports every problem at once, one line each', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      GOVERNANCE_URL: 'ftp://tenant',
      GOVERNANCE_RATE_PROFILE: 'huge',
      CALENDAR_USER: 'admin',
      CACHE_TTL_BY_KIND: 'entityTypes:600000,widgets:5',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('PORT must be a whole number'),
        expect.stringContaining('GOVERNANCE_URL must be a http or https URL'),
        expect.stringContaining('GOVERNANCE_RATE_PROFILE must be one of production, sandbox'),
        expect.stringContaining('CALENDAR_USER and CALENDAR_APP_PASSWORD go together'),
        expect.stringContaining('CACHE_TTL_BY_KIND must look like "entityTypes:600000,terms:0"'),
      ]),
    );
  });

  it('requires client credentials for a real tenant, and both upstreams together', () => {
    expect(problemsOf({ GOVERNANCE_URL: real.GOVERNANCE_URL, CALENDAR_URL: real.CALENDAR_URL })).toEqual([
      expect.stringContaining('GOVERNANCE_CLIENT_ID and GOVERNANCE_CLIENT_SECRET are required'),
    ]);
    expect(problemsOf({ CALENDAR_URL: real.CALENDAR_URL })).toEqual([
      expect.stringContaining('Set both GOVERNANCE_URL and CALENDAR_URL'),
    ]);
    expect(
      problemsOf({ ...real, GOVERNANCE_CLIENT_ID: '', GOVERNANCE_CLIENT_SECRET: '', GOVERNANCE_AUTH_MODE: 'forward' }),
    ).toEqual([]);
  });

  it('never echoes credentials embedded in a URL', () => {
    const problems = problemsOf({ ...real, REDIS_URL: 'http://user:hunter2@redis.internal:6390' });
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems.join('\n')).toContain('REDIS_URL must be a redis or rediss URL');
  });
});

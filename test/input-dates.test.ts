/**
 * Dates a person can type, over HTTP against the calendar emulator: a bare day in a filter that
 * promises whole days is that day; where a field needs a time, a bare day is refused naming the
 * argument and pointing to `startDay`/`endDay`; a malformed date (a literal or a variable) names its
 * argument and carries a location, and nothing reaches the upstream.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { calls, forgetCalendarCache } from './support/calendar.js';
import { startStack, type Stack } from './support/stack.js';

type Any = any;
let s: Stack;

/** The query string of the one `GET /events` an operation made. */
function sentQuery(): Record<string, string> {
  const lines = s.calendar.control.requests().requests.filter((r) => r.path === '/events');
  expect(lines).toHaveLength(1);
  return Object.fromEntries(new URLSearchParams(lines[0]!.query));
}

beforeAll(async () => {
  s = await startStack({ env: { UPSTREAM_RETRIES: '0' } });
});
beforeEach(() => {
  s.clearRequests();
  forgetCalendarCache(s);
});

describe('a bare day', () => {
  it('in filter.startDate and filter.endDate is that whole day, as startDay and endDay', async () => {
    const list = '{ totalCount nodes { id } }';
    const typed = await s.query<Any>(
      `{ events(first: 50, filter: { startDate: "2026-12-01", endDate: "2027-06-30", strictDates: true }) ${list} }`,
    );
    expect(typed.errors).toBeUndefined();
    expect(sentQuery()).toMatchObject({ start_date: '2026-12-01 00:00:00', end_date: '2027-06-30 23:59:59' });
    forgetCalendarCache(s);
    const days = await s.query<Any>(
      `{ events(first: 50, filter: { startDay: "2026-12-01", endDay: "2027-06-30", strictDates: true }) ${list} }`,
    );
    expect(typed.data).toEqual(days.data);
    expect(typed.data.events.totalCount).toBeGreaterThan(0);
  });

  it('where a time is needed, is refused naming the argument and the day field, before any call', async () => {
    const filter = await s.query<Any>('{ events(filter: { startsAfter: "2026-12-01" }) { totalCount } }');
    expect(filter.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'filter.startsAfter' });
    expect(filter.errors![0]!.message).toMatch(/give a time too.*"startDay"\/"endDay"/);
    expect(filter.errors![0]!.locations).toBeDefined();

    const write = await s.query<Any>(
      'mutation { createEvent(input: { title: "Day", startDate: "2027-02-01", endDate: "2027-02-01 10:00:00" }) { id } }',
    );
    expect(write.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'input.startDate' });
    expect(write.errors![0]!.message).toContain('"input.startDay": "2027-02-01"');
    expect(calls(s)).toEqual([]);
  });
});

describe('a malformed date', () => {
  it('as a literal: the error names its argument and points at the value', async () => {
    const lines = [
      '{',
      '  events(filter: { startDate: "2026-13-01 10:00" }) { totalCount }',
      '  venues(first: 1) { nodes { events(filter: { endDay: "1st of May" }) { totalCount } } }',
      '}',
    ];
    const query = lines.join('\n');
    const at = (line: number, value: string) => [{ line, column: lines[line - 1]!.indexOf(value) + 1 }];
    const res = await s.query<Any>(query);
    expect(res.status).toBe(400);
    const byArgument = Object.fromEntries(res.errors!.map((e: Any) => [e.extensions.argument, e]));
    expect(Object.keys(byArgument).sort()).toEqual(['filter.endDay', 'filter.startDate']);
    expect(byArgument['filter.startDate'].locations).toEqual(at(2, '"2026-13-01 10:00"'));
    expect(byArgument['filter.startDate'].message).toMatch(/^"filter\.startDate": DateTime takes/);
    expect(byArgument['filter.endDay'].locations).toEqual(at(3, '"1st of May"'));
    expect(byArgument['filter.endDay'].message).toMatch(/^"filter\.endDay": Date takes/);
    expect(calls(s)).toEqual([]);
  });

  it('in an input list, and as a variable: the argument it feeds is named too', async () => {
    const nested = await s.query<Any>(
      'mutation { createEvent(input: { title: "x", startDate: "2027-02-30 10:00:00", endDay: "2027-03-01" }) { id } }',
    );
    expect(nested.errors![0]!.extensions).toMatchObject({ argument: 'input.startDate' });
    expect(nested.errors![0]!.locations).toHaveLength(1);

    const variable = await s.query<Any>(
      'query($from: DateTime) { events(filter: { startDate: $from }) { totalCount } }',
      {
        from: 'next tuesday',
      },
    );
    expect(variable.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'filter.startDate' });
    expect(variable.errors![0]!.message).toMatch(/^"filter\.startDate": Variable "\$from" got invalid value/);
    expect(variable.errors![0]!.locations).toEqual([{ line: 1, column: 7 }]);
    expect(calls(s)).toEqual([]);
  });
});

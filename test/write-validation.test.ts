/**
 * Semantic checks before writes, each a BAD_USER_INPUT naming the field, with no write sent: the
 * end not before the start (also against the stored dates on update), all-day events by whole
 * days, time zones that exist (IANA names, UTC, and the `UTC+2` form the gateway itself writes).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support/stack.js';

let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
beforeEach(() => s.clearRequests());
const writes = () => s.calendar.control.requests().requests.filter((r) => r.method !== 'GET').length;
const create = (fields: string) =>
  s.query<Record<string, any>>(
    `mutation { createEvent(input: { title: "Checked", ${fields} }) { id startDate endDate timezone allDay } }`,
  );

describe('semantic validation of event writes', () => {
  it.each([
    ['end before start', 'startDate: "2027-03-02 10:00:00", endDate: "2027-03-01 10:00:00"', 'input.endDate'],
    [
      'end before start by a second',
      'startDate: "2027-03-01 10:00:01", endDate: "2027-03-01 10:00:00"',
      'input.endDate',
    ],
    [
      'all-day, last day before the first',
      'allDay: true, startDay: "2027-03-02", endDay: "2027-03-01"',
      'input.endDate',
    ],
    [
      'unknown zone',
      'startDate: "2027-03-01 10:00:00", endDate: "2027-03-01 11:00:00", timezone: "Mars/Olympus"',
      'input.timezone',
    ],
    [
      'offset out of range',
      'startDate: "2027-03-01 10:00:00", endDate: "2027-03-01 11:00:00", timezone: "UTC+15"',
      'input.timezone',
    ],
    [
      'abbreviation is not a zone',
      'startDate: "2027-03-01 10:00:00", endDate: "2027-03-01 11:00:00", timezone: "CEST"',
      'input.timezone',
    ],
    [
      'unknown status',
      'startDate: "2027-03-01 10:00:00", endDate: "2027-03-01 11:00:00", status: "published"',
      'input.status',
    ],
  ])('refuses %s', async (_what, fields, argument) => {
    const res = await create(fields);
    expect(res.errors?.map((e) => e.extensions)).toEqual([{ code: 'BAD_USER_INPUT', argument }]);
    expect(s.calendar.control.requests().total).toBe(0);
  });

  it.each([
    ['an end equal to the start', 'startDate: "2027-03-01 10:00:00", endDate: "2027-03-01 10:00:00"'],
    [
      'an all-day event whose times are reversed within its day',
      'allDay: true, startDate: "2027-03-01 18:00:00", endDate: "2027-03-01 09:00:00"',
    ],
    ['UTC+2', 'startDate: "2027-03-01 10:00:00", endDate: "2027-03-01 11:00:00", timezone: "UTC+2"'],
    ['UTC-5:30', 'startDate: "2027-03-01 10:00:00", endDate: "2027-03-01 11:00:00", timezone: "UTC-5:30"'],
    [
      'an IANA zone',
      'startDate: "2027-03-01 10:00:00", endDate: "2027-03-01 11:00:00", timezone: "America/Argentina/Buenos_Aires"',
    ],
  ])('accepts %s', async (_what, fields) => {
    const res = await create(fields);
    expect(res.errors).toBeUndefined();
  });

  it('the zone the gateway writes for an offset date (UTC+2) is accepted on the next update', async () => {
    const made = await create('startDate: "2027-04-01T10:00:00+02:00", endDate: "2027-04-01T12:00:00+02:00"');
    expect(made.data!.createEvent.timezone).toBe('UTC+2');
    const res = await s.query<Record<string, any>>(
      `mutation($id: ID!) { updateEvent(id: $id, input: { timezone: "UTC+2", endDate: "2027-04-01 13:00:00" }) { timezone endDate } }`,
      { id: made.data!.createEvent.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.updateEvent).toEqual({ timezone: 'UTC+2', endDate: '2027-04-01T13:00:00+02:00' });
  });

  it('on update, checks a new end against the stored start, and writes nothing when it is before', async () => {
    const made = await create(
      'startDate: "2027-05-01 10:00:00", endDate: "2027-05-01 12:00:00", timezone: "Europe/Berlin"',
    );
    s.clearRequests();
    const res = await s.query<Record<string, any>>(
      `mutation($id: ID!) { updateEvent(id: $id, input: { endDate: "2027-05-01 09:00:00" }) { id } }`,
      { id: made.data!.createEvent.id },
    );
    expect(res.errors?.map((e) => e.extensions)).toEqual([{ code: 'BAD_USER_INPUT', argument: 'input.endDate' }]);
    expect(writes()).toBe(0);
  });
});

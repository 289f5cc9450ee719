/**
 * The emulators splice list entries they keep encoded into a page's JSON (emulator-kit/encoded.ts).
 * The page must be the very bytes the whole value would encode to, with both encoders the emulators
 * use, and entries are reused only within the epoch they were encoded in.
 */
import { describe, expect, it } from 'vitest';
import { wpJsonEncode } from '../src/calendar/emulator/respond.js';
import { encodedPerEpoch, Epoch, perEpoch, withEncodedList } from '../src/emulator-kit/encoded.js';

const items = [
  { id: 1, url: 'https://example.org/event/a/', title: 'Café – “quoted” 😀', nested: { list: [1, '/x'] } },
  { id: 2, empty: '', nothing: null, html: '<p>a\\b</p>' },
];
const rest = { rest_url: 'https://example.org/wp-json/x/?a=1&b=/c', total: 2, total_pages: 1, flags: [true] };

describe('encoded list pages', () => {
  for (const [name, encode] of [
    ['JSON.stringify', (v: unknown) => JSON.stringify(v)],
    ['wp_json_encode', wpJsonEncode],
  ] as const) {
    it(`are the same bytes as encoding the whole page (${name})`, () => {
      for (const list of [items, [], [items[0]!]])
        expect(withEncodedList('events', list.map(encode), rest, encode)).toBe(encode({ events: list, ...rest }));
      expect(withEncodedList('content', items.map(encode), {}, encode)).toBe(encode({ content: items }));
    });
  }

  it('reuse an entry within its epoch only', () => {
    const epoch = new Epoch();
    let calls = 0;
    const record = { name: 'a' };
    const encode = encodedPerEpoch(epoch, (r: { name: string }) => (calls++, JSON.stringify(r)));
    expect([encode(record), encode(record)]).toEqual(['{"name":"a"}', '{"name":"a"}']);
    expect(calls).toBe(1);
    record.name = 'b';
    epoch.bump();
    expect(encode(record)).toBe('{"name":"b"}');
    expect(calls).toBe(2);
  });

  it('derive a view (a sorted list) once per epoch', () => {
    const epoch = new Epoch();
    const names = ['b', 'a'];
    let calls = 0;
    const sorted = perEpoch(epoch, () => (calls++, [...names].sort()));
    expect([sorted(), sorted()]).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(calls).toBe(1);
    names.push('0');
    epoch.bump();
    expect(sorted()).toEqual(['0', 'a', 'b']);
    expect(calls).toBe(2);
  });
});

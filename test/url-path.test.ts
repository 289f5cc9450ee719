/**
 * The last line before a request leaves: a path the pipeline builds must be one URL parsing keeps
 * as it is, so that no value can move a request to another resource (`checkPath`), and `urlPath`
 * encodes each value as exactly one segment.
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../src/core/errors.js';
import { checkPath, urlPath, UnsafePathError } from '../src/core/url-path.js';
import { endpointOf } from '../src/core/upstream-pipeline.js';

describe('upstream paths', () => {
  it('keeps paths URL parsing leaves alone, and says so by agreeing with URL', () => {
    for (const path of ['/', '/entities', '/entities/3f2c-9', "/events/by-slug/a%20b!$&'()*+,;=:@~_.-", '/x/%2F']) {
      expect(() => checkPath('calendar', path)).not.toThrow();
      expect(new URL(`https://up.test/base${path}`).pathname).toBe(`/base${path}`);
    }
  });

  it.each([
    ['a dot segment', '/venues/..'],
    ['an encoded dot segment', '/venues/%2e%2E'],
    ['a single dot', '/venues/./1'],
    ['an empty segment', '/venues//1'],
    ['a trailing slash', '/venues/'],
    ['a query mark', '/venues/1?x=1'],
    ['a fragment', '/venues/1#x'],
    ['a backslash', '/venues/..\\1'],
    ['a space', '/venues/a b'],
    ['a control character', '/venues/a\u0000'],
    ['a non-ASCII letter', '/venues/é'],
    ['no leading slash', 'venues'],
  ])('refuses %s, sending nothing', (_, path) => {
    expect(() => checkPath('calendar', path)).toThrow(UpstreamError);
    try {
      checkPath('calendar', path);
    } catch (e) {
      expect((e as UpstreamError).kind).toBe('bad-request');
    }
  });

  it('encodes each value as one segment and refuses values that cannot be one', () => {
    const path = urlPath`/events/by-slug/${'a/b?c#d é'}`;
    expect(path).toBe('/events/by-slug/a%2Fb%3Fc%23d%20%C3%A9');
    expect(() => checkPath('calendar', path)).not.toThrow();
    for (const bad of ['', '.', '..']) expect(() => urlPath`/venues/${bad}`).toThrow(UnsafePathError);
  });

  it('names an endpoint by its path with whole id segments (uuids, numbers) as placeholders', () => {
    const uuid = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
    expect(endpointOf({ pathname: `/api/v1/entities/${uuid}/links/42` })).toBe('/api/v1/entities/:id/links/:id');
    expect(endpointOf({ pathname: '/wp-json/tribe/events/v1/events/12' })).toBe('/wp-json/tribe/events/v1/events/:id');
    expect(endpointOf({ pathname: '/api/v2/events/by-slug/a1/x42y' })).toBe('/api/v2/events/by-slug/a1/x42y');
  });
});

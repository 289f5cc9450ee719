/**
 * Validation with the @defer/@stream plugin runs its field-merging rule, not graphql-js's as well
 * (src/http/plugins/use-defer-stream.ts): the rules the validation function receives, recorded
 * behind the gateway's plugin, hold one rule of that name, and conflicting fields still fail once.
 */
import { specifiedRules, type ValidationRule } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/app/schema.js';
import { useDeferStream } from '../src/http/plugins/use-defer-stream.js';

describe('validation beside the @defer/@stream plugin', () => {
  it("runs one field-merging rule, the plugin's", async () => {
    let received: readonly ValidationRule[] = [];
    // Placed before the plugin, so the plugin's validation function wraps this recorder.
    const recorder: Plugin = {
      onValidate({ validateFn, setValidationFn }) {
        setValidationFn((s, document, rules, ...rest) => {
          received = rules ?? [];
          return validateFn(s, document, rules, ...rest);
        });
      },
    };
    const yoga = createYoga({ schema, plugins: [recorder, ...useDeferStream()], logging: false });
    const res = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ entityTypes(first: 1) { totalCount } entityTypes(first: 2) { totalCount } }' }),
    });
    const { errors } = (await res.json()) as { errors: { message: string }[] };
    const merging = received.filter((r) => r.name === 'OverlappingFieldsCanBeMergedRule');
    expect(merging).toHaveLength(1);
    expect(merging[0]).not.toBe(specifiedRules.find((r) => r.name === 'OverlappingFieldsCanBeMergedRule'));
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('entityTypes')]);
  });
});

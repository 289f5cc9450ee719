/**
 * The checked-in schema.graphql is the graph's documentation and the input of codegen: it must be
 * exactly what the code prints, and printing must be deterministic.
 */
import { readFileSync } from 'node:fs';
import { buildSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/app/schema.js';

describe('schema.graphql', () => {
  it('matches the schema the code builds (run `npm run schema` after changing types)', () => {
    const printed = `${printSchema(lexicographicSortSchema(schema))}\n`;
    expect(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8')).toBe(printed);
  });

  it('prints deterministically: the printed SDL rebuilds into a schema that prints the same, types in name order', () => {
    const printed = printSchema(lexicographicSortSchema(schema));
    // A lossy or order-dependent print (a field or directive dropped, declaration order leaking through)
    // would not survive the round trip through SDL.
    expect(printSchema(lexicographicSortSchema(buildSchema(printed)))).toBe(printed);
    const names = [...printed.matchAll(/^(?:type|input|enum|scalar|interface|union) (\w+)/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(20);
    expect(names).toEqual([...names].sort()); // code-point order, as lexicographicSortSchema sorts
  });

  it('documents every type and field with a sentence', () => {
    const undocumented: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      // Introspection and Apollo Federation's own types (`_Service`, `_Any`, `_entities`) are documented by their specs.
      if (type.name.startsWith('_') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
      if (!type.description) undocumented.push(type.name);
      if ('getFields' in type) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description && !field.name.startsWith('_')) undocumented.push(`${type.name}.${field.name}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
  });
});

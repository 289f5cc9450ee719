/**
 * Casts and non-null assertions in gateway code stay at or below their caps (`npm run type-debt`
 * lists them per file), and the counter counts what it says it counts.
 */
import { describe, expect, it } from 'vitest';
import { debtOf, gatewayDebt, totalOf, TYPE_DEBT_CAPS } from '../scripts/type-debt.js';

describe('type debt', () => {
  it('counts as-casts but not as const, angle-bracket casts, and non-null assertions', () => {
    const text = [
      'const a = x as string;',
      'const b = [1] as const;',
      'const c = <number>y;',
      'const d = m.get(k)!.v!;',
      'const e = z satisfies object;',
      'const f = w as unknown as T;',
    ].join('\n');
    expect(debtOf('sample.ts', text)).toEqual({ file: 'sample.ts', casts: 4, nonNull: 2 });
  });

  it('leaves out the emulators and generated code', () => {
    const files = gatewayDebt().map((d) => d.file);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => /^src\/(generated|emulators?)\b|\/emulator\//.test(f))).toEqual([]);
  });

  it('holds gateway code at or below the caps', () => {
    const total = totalOf(gatewayDebt());
    expect(total.casts).toBeLessThanOrEqual(TYPE_DEBT_CAPS.casts);
    expect(total.nonNull).toBeLessThanOrEqual(TYPE_DEBT_CAPS.nonNull);
  });
});

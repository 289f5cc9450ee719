/**
 * The null rule of update inputs: a field left out keeps its value, and `null` is refused with
 * BAD_USER_INPUT, unless the field is one whose `null` is documented as clearing it (`clearable`).
 * Without this rule an update would quietly ignore `title: null`, which reads like "clear the title".
 */
import { badInput } from './errors.js';

export function refuseNulls(input: object, clearable: readonly string[] = []): void {
  for (const [name, value] of Object.entries(input)) {
    if (value === null && !clearable.includes(name)) {
      const hint = clearable.length
        ? ` Only ${clearable.map((c) => `"${c}"`).join(', ')} may be null, to clear them.`
        : '';
      throw badInput(`"input.${name}" cannot be null: leave it out to keep its value.${hint}`, `input.${name}`);
    }
  }
}

/**
 * Search criteria (`fullText` + `filters`) for entities and entity types. EQUAL_TO (the operator the
 * platform's examples use) and NOT_EQUAL_TO match any of the values; the comparison operators compare
 * with the first value (numerically when both sides are numbers), BETWEEN with `value`..`toValue`.
 * A filter on a field the records do not have matches nothing, as a lookup of an absent attribute would.
 */
import type { AttributePredicate, AttributeQueryCriteria, FilterOperator } from '../../governance/wire.js';
import { invalid } from './errors.js';
import type { EntityRecord, EntityTypeRecord } from './records.js';
import { displayLabel } from './render.js';

const OPERATORS: FilterOperator[] = [
  'EQUAL_TO',
  'NOT_EQUAL_TO',
  'GREATER_THAN',
  'GREATER_THAN_EQUAL_TO',
  'LESS_THAN',
  'LESS_THAN_EQUAL_TO',
  'BETWEEN',
];

export function validateCriteria(criteria: unknown): AttributeQueryCriteria {
  if (criteria === undefined || criteria === null) return {};
  if (typeof criteria !== 'object' || Array.isArray(criteria)) throw invalid('criteria must be an object');
  const { fullText, filters } = criteria as AttributeQueryCriteria;
  if (fullText !== undefined && fullText !== null && (typeof fullText !== 'string' || fullText.length > 500))
    throw invalid('fullText must be a string of at most 500 characters');
  if (filters !== undefined && filters !== null) {
    if (!Array.isArray(filters)) throw invalid('filters must be an array');
    for (const f of filters) {
      if (!f || typeof f.field !== 'string' || f.field === '') throw invalid('every filter needs a field');
      if (f.operator !== undefined && !OPERATORS.includes(f.operator))
        throw invalid(`Unsupported operator ${String(f.operator)}`);
      if (f.operator === 'BETWEEN' && (f.toValue === undefined || f.toValue === null))
        throw invalid('BETWEEN needs a toValue');
    }
  }
  return { fullText: fullText ?? undefined, filters: filters ?? undefined };
}

const wanted = (f: AttributePredicate): string[] => {
  const values = Array.isArray(f.value) ? f.value : f.value === undefined || f.value === null ? [] : [f.value];
  return values.map((v) => String(v).toLowerCase());
};

function compare(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  const p = a.toLowerCase();
  const q = b.toLowerCase();
  return p < q ? -1 : p > q ? 1 : 0;
}

/** True when the record's values for the field satisfy the predicate. */
function test(f: AttributePredicate, have: string[]): boolean {
  const want = wanted(f);
  const first = want[0];
  switch (f.operator ?? 'EQUAL_TO') {
    case 'EQUAL_TO':
      return have.some((v) => want.includes(v.toLowerCase()));
    case 'NOT_EQUAL_TO':
      return !have.some((v) => want.includes(v.toLowerCase()));
    case 'GREATER_THAN':
      return first !== undefined && have.some((v) => compare(v, first) > 0);
    case 'GREATER_THAN_EQUAL_TO':
      return first !== undefined && have.some((v) => compare(v, first) >= 0);
    case 'LESS_THAN':
      return first !== undefined && have.some((v) => compare(v, first) < 0);
    case 'LESS_THAN_EQUAL_TO':
      return first !== undefined && have.some((v) => compare(v, first) <= 0);
    case 'BETWEEN': {
      const upper = String(Array.isArray(f.toValue) ? f.toValue[0] : f.toValue);
      return first !== undefined && have.some((v) => compare(v, first) >= 0 && compare(v, upper) <= 0);
    }
  }
}

function entityValues(e: EntityRecord, field: string): string[] {
  switch (field) {
    case 'id':
    case 'name':
    case 'orgGroupId':
      return [e[field]];
    case 'number':
      return [String(e.number)];
  }
  const option = e.options[field];
  if (option) return option.map((o) => o.id);
  const text = e.text[field] ?? e.custom[field];
  if (text) return text.map((v) => v.id ?? v.value);
  return [];
}

/** fullText: case-insensitive substring of the name (and, with `withLabel`, of displayLabel/number). */
export function matchesEntity(e: EntityRecord, criteria: AttributeQueryCriteria, withLabel: boolean): boolean {
  const text = criteria.fullText?.trim().toLowerCase();
  if (text) {
    const haystacks = withLabel ? [e.name, displayLabel(e), String(e.number)] : [e.name];
    if (!haystacks.some((h) => h.toLowerCase().includes(text))) return false;
  }
  return (criteria.filters ?? []).every((f) => test(f, entityValues(e, f.field)));
}

function typeValues(t: EntityTypeRecord, field: string): string[] {
  switch (field) {
    case 'moduleScopes.module':
    case 'moduleScopes':
      return t.moduleScopes;
    case 'enabled':
    case 'seeded':
      return [String(t[field])];
    case 'name':
    case 'id':
    case 'moduleName':
      return [t[field]];
    default:
      return [];
  }
}

export function matchesType(t: EntityTypeRecord, criteria: AttributeQueryCriteria): boolean {
  const text = criteria.fullText?.trim().toLowerCase();
  if (text && !t.name.toLowerCase().includes(text) && !t.description.toLowerCase().includes(text)) return false;
  return (criteria.filters ?? []).every((f) => test(f, typeValues(t, f.field)));
}

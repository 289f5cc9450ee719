/**
 * Page parameters (`page`, `size`, `sort`) and the two page envelopes: the Spring Data page of the
 * searches and the slimmer related-entities page (no `pageable`, no `sort`, `hasContent`).
 */
import type { LinksPage, SpringPage } from '../../governance/wire.js';
import { invalid } from './errors.js';

export interface PageRequest {
  page: number;
  size: number;
  sort: string;
}

const MAX_PAGE_SIZE = 50;

export function parsePageParams(
  query: (name: string) => string | undefined,
  defaults: { size: number; sort: string; allowedSorts: readonly string[] },
): PageRequest {
  const int = (name: string, fallback: number) => {
    const raw = query(name);
    if (raw === undefined || raw === '') return fallback;
    if (!/^-?\d+$/.test(raw)) throw invalid(`${name} must be an integer`);
    return Number(raw);
  };
  const page = int('page', 0);
  const size = int('size', defaults.size);
  if (page < 0) throw invalid('page must be greater than or equal to 0');
  if (size < 1 || size > MAX_PAGE_SIZE) throw invalid(`size must be between 1 and ${MAX_PAGE_SIZE}`);
  const sort = query('sort') ?? defaults.sort;
  if (!defaults.allowedSorts.includes(sort)) throw invalid(`sort must be one of ${defaults.allowedSorts.join(', ')}`);
  return { page, size, sort };
}

function slice<T>(items: T[], request: PageRequest) {
  const offset = request.page * request.size;
  const content = items.slice(offset, offset + request.size);
  const totalPages = Math.ceil(items.length / request.size);
  return { offset, content, totalPages, last: request.page >= totalPages - 1, first: request.page === 0 };
}

/** The page of `items` that `request` asks for; only that page's records are rendered. */
export function springPage<R, T>(items: R[], request: PageRequest, render: (item: R) => T): SpringPage<T> {
  const { offset, content: records, totalPages, last, first } = slice(items, request);
  const content = records.map(render);
  const sort = { empty: false, sorted: true, unsorted: false };
  return {
    content,
    pageable: {
      pageNumber: request.page,
      pageSize: request.size,
      sort: { ...sort },
      offset,
      paged: true,
      unpaged: false,
    },
    last,
    totalElements: items.length,
    totalPages,
    size: request.size,
    number: request.page,
    sort,
    first,
    numberOfElements: content.length,
    empty: content.length === 0,
  };
}

export function linksPage<R, T>(items: R[], request: PageRequest, render: (item: R) => T): LinksPage<T> {
  const { content: records, totalPages, last, first } = slice(items, request);
  const content = records.map(render);
  return {
    content,
    number: request.page,
    size: request.size,
    totalElements: items.length,
    first,
    last,
    hasContent: content.length > 0,
    numberOfElements: content.length,
    totalPages,
  };
}

/** Case-insensitive name order, ties broken by id so pages never overlap or skip. */
export function byName<T extends { name: string; id: string }>(direction: 'asc' | 'desc') {
  const sign = direction === 'asc' ? 1 : -1;
  return (a: T, b: T) => {
    const x = a.name.toLowerCase();
    const y = b.name.toLowerCase();
    // Plain code-unit order (no locale rules), so clients can reproduce it exactly.
    if (x !== y) return x < y ? -sign : sign;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

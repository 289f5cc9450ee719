/**
 * The categories and tags an event write names, resolved against the site's terms before the write.
 * The plugin creates a term for every name it does not know and skips an id it does not know, so a
 * typo would silently become a new category. Here every reference must name an existing term (by id,
 * slug or name, as the plugin matches them) and is sent as its id; an unknown one is BAD_USER_INPUT
 * listing the known slugs, unless the caller asks for missing names to be created.
 */
import { invalidInput, quotedList } from '../core/errors.js';
import { UPSTREAM_PAGE_SIZE } from '../core/pages.js';
import type { CalendarClient } from './client.js';
import { encodeSlug } from './inputs.js';
import { normalizeTerm } from './normalize.js';
import type { CalendarTerm } from './model.js';

export type Taxonomy = 'categories' | 'tags';

const SINGULAR: Record<Taxonomy, string> = { categories: 'category', tags: 'tag' };

/** Every term of a taxonomy, empty ones too: pages of 50, from the record cache while fresh. */
async function allTerms(client: CalendarClient, taxonomy: Taxonomy): Promise<CalendarTerm[]> {
  const terms: CalendarTerm[] = [];
  for (let page = 1; ; page++) {
    const got = await client[taxonomy].list(
      { hide_empty: false, orderby: 'slug' },
      page,
      UPSTREAM_PAGE_SIZE,
      page === 1 ? 'page' : 'more-pages',
    );
    terms.push(...(got?.items ?? []).map(normalizeTerm));
    if (!got || got.items.length < UPSTREAM_PAGE_SIZE || terms.length >= got.total) return terms;
  }
}

/** The term a slug or name names (as the plugin matches them: slug, or name case-blind). */
function byText(terms: readonly CalendarTerm[], ref: string): CalendarTerm | undefined {
  const [slug, name] = [encodeSlug(ref.toLowerCase()), ref.toLowerCase()];
  return terms.find((t) => t.slug === slug || t.name.toLowerCase() === name);
}

/**
 * The references (ids as numbers, slugs or names as text; see `termRefs`) as term ids. With
 * `createMissing`, a name no term has stays a name, which the plugin creates; an unknown id is
 * refused either way (it cannot be created).
 */
export async function resolveTermRefs(
  client: CalendarClient,
  taxonomy: Taxonomy,
  refs: readonly (number | string)[],
  argument: string,
  createMissing: boolean,
): Promise<(number | string)[]> {
  if (refs.length === 0) return [];
  const terms = await allTerms(client, taxonomy);
  return refs.map((ref, i) => {
    const found = typeof ref === 'number' ? terms.find((t) => t.id === ref) : byText(terms, ref);
    if (found) return found.id;
    if (createMissing && typeof ref === 'string') return ref;
    const what = SINGULAR[taxonomy];
    const known = terms.length ? `the known slugs are ${quotedList(terms.map((t) => t.slug))}` : `the site has none`;
    const hint = typeof ref === 'string' ? ', or pass `createMissingTerms: true` to create it' : '';
    throw invalidInput(
      `"${argument}[${i}]" names no ${what} of the site ("${ref}"); ${known}. Give one of them${hint}. Nothing was written.`,
      `${argument}[${i}]`,
    );
  });
}

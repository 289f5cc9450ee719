/**
 * WordPress post statuses as an enum. The core set is closed, but a site's plugins may register
 * more, so the output has a fallback (`OTHER`, with the raw value still in the deprecated `status`
 * string) and the input refuses it.
 */
import { builder } from '../../graph/builder.js';
import { lowerCaseValues } from '../../graph/enum-values.js';
import { badInput } from '../../graph/errors.js';

const KNOWN = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;

export const PostStatus = builder.enumType('PostStatus', {
  description: 'The status of a WordPress post (event, venue or organizer).',
  values: lowerCaseValues({
    PUBLISH: 'Published: visible to everyone.',
    FUTURE: 'Scheduled to be published later.',
    DRAFT: 'A draft.',
    PENDING: 'Waiting for review.',
    PRIVATE: 'Visible only to users who may read private posts.',
    TRASH: 'In the trash (deleted, but restorable on the site).',
    OTHER: 'A status a plugin of the site registered; the raw value is in `status`. Output only.',
  }),
});

export type PostStatusValue = (typeof KNOWN)[number] | 'other';

/** An upstream status as the enum's value; anything unknown is OTHER. */
export function postStatusOf(raw: string | null | undefined): PostStatusValue | null {
  if (raw == null) return null;
  return (KNOWN as readonly string[]).includes(raw) ? (raw as PostStatusValue) : 'other';
}

/** An input status: the enum (OTHER refused) or the deprecated string; not both. */
export function statusInput(
  value: PostStatusValue | null | undefined,
  legacy: string | null | undefined,
  argument: string,
): string | undefined {
  if (value === 'other') throw badInput(`"${argument}" cannot be OTHER: give a status the site knows.`, argument);
  if (value != null && legacy != null)
    throw badInput(`Give "${argument}" or the deprecated "status", not both.`, argument);
  return value ?? legacy ?? undefined;
}

export const STATUS_DEPRECATION = 'Use `postStatus`, the PostStatus enum; this raw string stays for existing clients.';

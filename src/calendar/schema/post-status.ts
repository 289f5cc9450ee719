/**
 * WordPress post statuses as an enum. The core set is closed, but a site's plugins may register
 * more, so the output has a fallback (`OTHER`, with the raw value still in the deprecated `status`
 * string) and the input refuses it.
 */
import { builder } from '../../graph/builder.js';
import { badInput } from '../../graph/errors.js';

const KNOWN = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;

export const PostStatus = builder.enumType('PostStatus', {
  description: 'The status of a WordPress post (event, venue or organizer).',
  values: {
    PUBLISH: { value: 'publish', description: 'Published: visible to everyone.' },
    FUTURE: { value: 'future', description: 'Scheduled to be published later.' },
    DRAFT: { value: 'draft', description: 'A draft.' },
    PENDING: { value: 'pending', description: 'Waiting for review.' },
    PRIVATE: { value: 'private', description: 'Visible only to users who may read private posts.' },
    TRASH: { value: 'trash', description: 'In the trash (deleted, but restorable on the site).' },
    OTHER: {
      value: 'other',
      description: 'A status a plugin of the site registered; the raw value is in `status`. Output only.',
    },
  } as const,
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

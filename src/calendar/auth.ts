/**
 * Which credentials a calendar call carries, and under which cache identity.
 *
 * Reads go out anonymously (the API's reads are public) unless the caller's own Authorization is
 * forwarded. Why not read with the configured application password too: an authenticated WordPress
 * read changes the default `status` filter from `publish` to `any`, so every visitor of the graph
 * would see the editor's drafts and private events, and one cache partition would hold both views.
 * Writes carry HTTP Basic with the configured application password, or in `forward` mode the
 * caller's Authorization header as it came.
 */
import { createHash } from 'node:crypto';
import type { CalendarConfig } from '../config/config.js';

export interface CalendarCredentials {
  /** Headers to send (possibly none: anonymous). */
  headers: Record<string, string>;
  /** Non-secret cache partition: `anonymous`, `user:<name>` or `token:<hash>`. */
  identity: string;
}

export interface CalendarAuth {
  read: CalendarCredentials;
  write: CalendarCredentials;
}

const ANONYMOUS: CalendarCredentials = { headers: {}, identity: 'anonymous' };

export function calendarAuth(config: CalendarConfig, incoming: Headers): CalendarAuth {
  if (config.authMode === 'forward') {
    const authorization = incoming.get('authorization');
    if (!authorization) return { read: ANONYMOUS, write: ANONYMOUS };
    const forwarded = {
      headers: { authorization },
      identity: `token:${createHash('sha256').update(authorization).digest('hex').slice(0, 16)}`,
    };
    return { read: forwarded, write: forwarded };
  }
  if (config.user && config.appPassword) {
    const basic = Buffer.from(`${config.user}:${config.appPassword}`).toString('base64');
    return {
      read: ANONYMOUS,
      write: { headers: { authorization: `Basic ${basic}` }, identity: `user:${config.user}` },
    };
  }
  // No credentials configured: writes go out anonymously and the upstream answers 401.
  return { read: ANONYMOUS, write: ANONYMOUS };
}

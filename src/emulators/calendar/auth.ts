/**
 * WordPress application-password authentication (HTTP Basic). Authentication runs on every request,
 * so bad credentials are a 401 even on public reads (core's `rest_authentication_errors`); the
 * capability check comes later, after parameter validation.
 */
import { forbidden, RestError } from './errors.js';

export interface CalendarUser {
  id: number;
  username: string;
  appPassword: string;
  /** Editor/administrator: every events-calendar capability. Otherwise none. */
  canEdit: boolean;
}

export const DEFAULT_CALENDAR_USERS = {
  editor: { username: 'admin', appPassword: 'Ab12 Cd34 Ef56 Gh78 Ij90 Kl12' },
  subscriber: { username: 'subscriber', appPassword: 'Zz99 Yy88 Xx77 Ww66 Vv55 Uu44' },
} as const;

export const USERS: CalendarUser[] = [
  { id: 1, ...DEFAULT_CALENDAR_USERS.editor, canEdit: true },
  { id: 2, ...DEFAULT_CALENDAR_USERS.subscriber, canEdit: false },
];

const squash = (s: string) => s.replace(/\s+/g, '');

/** The user behind an `Authorization` header; `null` for anonymous; throws 401 for bad credentials. */
export function authenticate(header: string | undefined): CalendarUser | null {
  if (!header || !/^basic\s+/i.test(header)) return null;
  const decoded = Buffer.from(header.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  const user = USERS.find((u) => u.username === username);
  if (!user) throw new RestError(401, 'invalid_username', 'Unknown username. Check again or try your email address.');
  if (squash(password) !== squash(user.appPassword)) {
    throw new RestError(401, 'incorrect_password', 'The provided password is an invalid application password.');
  }
  return user;
}

/** Permission callback for writes. */
export function requireEditor(user: CalendarUser | null): CalendarUser {
  if (!user?.canEdit) throw forbidden(user !== null);
  return user;
}

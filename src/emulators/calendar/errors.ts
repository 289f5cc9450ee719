/**
 * WordPress REST error bodies `{code, message, data: {status, params?}}`. Handlers throw `RestError`;
 * the app's error handler turns it into the response, so every failure has the same shape.
 */
import type { WireError } from '../../calendar/wire.js';

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly params?: Record<string, string> | string[],
  ) {
    super(message);
  }

  toBody(): WireError {
    return {
      code: this.code,
      message: this.message,
      data: { status: this.status, ...(this.params ? { params: this.params } : {}) },
    };
  }
}

/** Core's invalid-parameter error: TEC validators return false, so each message is the generic one. */
export const invalidParams = (names: string[]) =>
  new RestError(
    400,
    'rest_invalid_param',
    `Invalid parameter(s): ${names.join(', ')}`,
    Object.fromEntries(names.map((n) => [n, 'Invalid parameter.'])),
  );

export const missingParams = (names: string[]) =>
  new RestError(400, 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, names);

export const noRoute = () =>
  new RestError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

/** 401 when nobody is logged in, 403 when the user lacks the capability (`rest_authorization_required_code`). */
export const forbidden = (loggedIn: boolean) =>
  new RestError(loggedIn ? 403 : 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');

export const eventNotFound = (id: number) =>
  new RestError(404, 'rest-event-not-found', `Event with ID ${id} does not exist.`);

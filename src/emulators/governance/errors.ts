/**
 * Error bodies in the platform's envelope `{errors:[{code,title,detail}],traceId}`. Route code throws
 * `ApiError`; the app's error handler turns it into the response, so handlers stay linear.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorBody } from '../../governance/wire.js';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const CODES: Record<number, string> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  429: 'TOO_MANY_REQUESTS',
};

export function errorBody(status: number, code?: string, detail?: string, title?: string): ErrorBody {
  const t = title ?? TITLES[status] ?? 'Error';
  return {
    errors: [{ code: code ?? CODES[status] ?? 'ERROR_GENERIC_OPERATION_FAILED', title: t, detail: detail ?? t }],
    traceId: randomUUID(),
  };
}

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 429 | 500,
    readonly code: string,
    readonly detail: string,
    readonly title?: string,
  ) {
    super(detail);
  }
  body(): ErrorBody {
    return errorBody(this.status, this.code, this.detail, this.title);
  }
}

export const invalid = (detail: string) => new ApiError(400, 'INVALID_REQUEST', detail, 'Bad Request');

export const notFound = (id: string, kind: string) =>
  new ApiError(400, 'ERROR_ONETRUST_ENTITY_NOT_FOUND', `Entity:${id} of type:${kind} not found`, 'Entity Not Found');

export const unparsable = () =>
  new ApiError(400, 'ERROR_GENERIC_OPERATION_FAILED', 'Request could not be parsed', 'Operation Failed');

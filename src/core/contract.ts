/**
 * The client edge's check of upstream payloads (zod). A changed upstream shape becomes an
 * `UpstreamError` of kind `contract` naming the field, on the GraphQL fields that read it, instead of
 * an `undefined` deep in a resolver. Shapes name only what the gateway reads (no transforms, no
 * defaults): the check's own output, which keeps only those fields, is thrown away and the payload
 * itself is handed on, so the other fields pass unchecked and nothing is copied but the checked keys.
 */
import type { z } from 'zod';
import { UpstreamError, type UpstreamName } from './errors.js';

/**
 * The shape a payload passed, on the payload itself: a cached answer is the same object every time
 * it is served, and is not checked again. A non-enumerable symbol (invisible to JSON, spreads and
 * `Object.keys`) rather than a WeakMap: a property read per payload, and no weak table for the GC.
 */
const PASSED = Symbol('contract.passed');
type Marked = { [PASSED]?: z.ZodType };

/** The payload as its shape's type, or a `contract` error naming the first field that is off. */
export function checkPayload<S extends z.ZodType>(
  upstream: UpstreamName,
  shape: S,
  body: unknown,
  operation: string,
): z.infer<S> {
  const isObject = typeof body === 'object' && body !== null;
  if (isObject && (body as Marked)[PASSED] === shape) return body as z.infer<S>;
  const result = shape.safeParse(body);
  if (result.success) {
    // Not enumerable: a spread copy (or a deep-equality check) of the payload does not see it.
    if (isObject) Object.defineProperty(body, PASSED, { value: shape, configurable: true, writable: true });
    return body as z.infer<S>;
  }
  const [issue] = result.error.issues;
  const field = issue?.path.map(String).join('.') || '(body)';
  const problem =
    issue?.code === 'invalid_type' && issue.input === undefined
      ? 'is missing'
      : `is not what the gateway expects (${issue?.message ?? 'no issue named'})`;
  return contractError(upstream, operation, field, problem);
}

function contractError(upstream: UpstreamName, operation: string, field: string, problem: string): never {
  throw new UpstreamError(
    upstream,
    'contract',
    `The ${upstream} API's answer to ${operation} broke its contract: \`${field}\` ${problem}.`,
    { field },
  );
}

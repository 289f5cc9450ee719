/** Descriptions of the write-integrity fields and arguments every record, update and create shares. */
export const VERSION_HELP =
  'Opaque version of the writable fields; pass it as `expectedVersion` to an update so that it fails with CONFLICT instead of overwriting a change made since.';
export const EXPECTED_VERSION_HELP =
  'The `version` of the record as you read it. When the record has changed since, nothing is written and the mutation fails with CONFLICT (`extensions.currentVersion`).';
export const CLIENT_MUTATION_ID_HELP =
  'An idempotency key for this create (like the `Idempotency-Key` header): a retry with the same key and input returns the first result instead of creating again.';

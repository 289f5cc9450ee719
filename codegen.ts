/**
 * `npm run codegen`: typed documents (graphql-codegen client preset) for the example operations in
 * src/operations/, against the schema the code builds. Output in src/generated/, committed:
 * the tests run these typed documents against the gateway, and `persisted-documents.json` is the
 * safelist PERSISTED_OPERATIONS serves (see src/http/persisted.ts).
 */
import type { CodegenConfig } from '@graphql-codegen/cli';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './src/app/schema.js';

const config: CodegenConfig = {
  schema: printSchema(lexicographicSortSchema(schema)),
  documents: ['src/operations/*.graphql'],
  emitLegacyCommonJSImports: false,
  generates: {
    'src/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: 'sha256' } },
      config: {
        useTypeImports: true,
        // Only what the operations use, so a schema change elsewhere does not churn the generated files.
        onlyOperationTypes: true,
        enumsAsTypes: true,
        scalars: {
          UUID: 'string',
          DateTime: 'string',
          JSON: 'unknown',
          JSONObject: 'Record<string, unknown>',
          _Any: 'unknown',
        },
      },
    },
  },
};

export default config;

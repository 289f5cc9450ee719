/**
 * What the governance API cannot list (relationship types, workflow stages, attribute options), as
 * the tenant's administrator describes it: an optional JSON file named by GOVERNANCE_DISCOVERY_FILE.
 * The platform's documented defaults apply without it (see `src/governance/discovery.ts`); what the
 * gateway sees in upstream answers is merged in at run time. Problems are reported like any other
 * configuration problem, before the server starts.
 *
 * {
 *   "relationshipTypes": [{ "name": "model-training-data", "id": "<uuid>", "forwardLabel": "is trained on",
 *                           "reverseLabel": "trains", "ends": [["models", "datasets"]] }],
 *   "workflows": { "models": ["Ideation", "Development", "Testing"] },
 *   "attributeOptions": { "datasets": { "type": ["Audio", "Image"] } }
 * }
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const name = z.string().refine((v) => v.trim() !== '', 'must not be empty');
const names = z.array(name);

const FILE = z.object({
  relationshipTypes: z
    .array(
      z.object({
        name,
        id: z.string().optional(),
        forwardLabel: z.string().optional(),
        reverseLabel: z.string().optional(),
        /** Pairs of entity type names: [first end, second end]. */
        ends: z.array(z.tuple([name, name])),
      }),
    )
    .default([]),
  /** Stage names in order, by entity type name. */
  workflows: z.record(z.string(), names).default({}),
  /** Option labels by entity type name, then attribute field name. */
  attributeOptions: z.record(z.string(), z.record(z.string(), names)).default({}),
});

export type DiscoveryConfig = z.infer<typeof FILE>;

const empty = (): DiscoveryConfig => ({ relationshipTypes: [], workflows: {}, attributeOptions: {} });

export function readDiscoveryConfig(file: string | undefined, problems: string[]): DiscoveryConfig {
  if (!file) return empty();
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(
      `GOVERNANCE_DISCOVERY_FILE: cannot read ${file} as JSON (${(error as Error).message.split('\n')[0]}).`,
    );
    return empty();
  }
  const parsed = FILE.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues)
    problems.push(`GOVERNANCE_DISCOVERY_FILE: ${issue.path.join('.') || 'the file'}: ${issue.message}.`);
  return empty();
}

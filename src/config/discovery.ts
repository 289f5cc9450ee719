/**
 * What the governance API cannot list (relationship types, workflow stages, attribute options,
 * organizations), as the tenant's administrator describes it: an optional JSON file named by
 * GOVERNANCE_DISCOVERY_FILE. The platform's documented defaults apply without it (see
 * `src/governance/discovery.ts`); what the gateway sees in upstream answers is merged in at run time.
 * Problems are reported like any other configuration problem, before the server starts. The file the
 * embedded emulators load, `src/emulators/governance/discovery.example.json`, is a complete example;
 * FILE below is its shape.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const name = z.string().refine((v) => v.trim() !== '', 'must not be empty');
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a uuid');

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
  /** Stages in workflow order, by entity type name: a name, or a name with the stage's uuid. */
  workflows: z.record(z.string(), z.array(z.union([name, z.object({ name, id: uuid.optional() })]))).default({}),
  /** Options by entity type name, then attribute field name: a label, or a label with the option's uuid. */
  attributeOptions: z
    .record(z.string(), z.record(z.string(), z.array(z.union([name, z.object({ option: name, id: uuid.optional() })]))))
    .default({}),
  /** The tenant's organizations (the `organizationId` of records and of `createEntity`). */
  organizations: z.array(z.object({ id: uuid, name, parentId: uuid.nullable().optional() })).default([]),
});

export type DiscoveryConfig = z.infer<typeof FILE>;

const empty = (): DiscoveryConfig => FILE.parse({});

export function readDiscoveryConfig(file: string | undefined, problems: string[]): DiscoveryConfig {
  if (!file) return empty();
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(
      `GOVERNANCE_DISCOVERY_FILE: cannot read ${file} as JSON (${(error instanceof Error ? error.message : String(error)).split('\n')[0]}).`,
    );
    return empty();
  }
  const parsed = FILE.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues)
    problems.push(`GOVERNANCE_DISCOVERY_FILE: ${issue.path.join('.') || 'the file'}: ${issue.message}.`);
  return empty();
}

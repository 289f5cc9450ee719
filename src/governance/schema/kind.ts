/**
 * The four AI governance kinds as a GraphQL enum. Internally each value is the upstream's entity type
 * name (`models`, `datasets`, `aisystems`, `aiagents`), which is what every path and query wants.
 */
import { builder } from '../../graph/builder.js';
import { AI_ENTITY_TYPE_NAMES, type AiEntityTypeName } from '../model.js';

export const EntityKind = builder.enumType('EntityKind', {
  description:
    'The kind of an AI governance record. Records of other kinds (vendors, assets, …) can appear at the other end of a link but have no kind.',
  values: {
    MODEL: { value: 'models', description: 'A machine learning or AI model (entity type `models`).' },
    DATASET: {
      value: 'datasets',
      description: 'A dataset used to train, test or run models (entity type `datasets`).',
    },
    AI_SYSTEM: {
      value: 'aisystems',
      description: 'An AI system built from models, datasets and agents (entity type `aisystems`).',
    },
    AI_AGENT: { value: 'aiagents', description: 'An autonomous or assistive AI agent (entity type `aiagents`).' },
  } as const,
});

/** The kind of an entity type name, or null for record kinds outside AI governance. */
export function kindOf(typeName: string | undefined | null): AiEntityTypeName | null {
  return typeName && (AI_ENTITY_TYPE_NAMES as readonly string[]).includes(typeName)
    ? (typeName as AiEntityTypeName)
    : null;
}

const DISPLAY_NAMES: Record<string, string> = {
  models: 'Model',
  datasets: 'Dataset',
  aisystems: 'AI System',
  aiagents: 'AI Agent',
  vendors: 'Vendor',
  assets: 'Asset',
  processingactivities: 'Processing Activity',
};

/**
 * A human name for an entity type name, for display: `aisystems` → `AI System`. Types the gateway
 * does not know are split at dashes and underscores and capitalised (`risk_items` → `Risk Items`).
 */
export function typeDisplayName(typeName: string): string {
  return (
    DISPLAY_NAMES[typeName] ??
    typeName
      .split(/[-_\s]+/)
      .filter(Boolean)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join(' ')
  );
}

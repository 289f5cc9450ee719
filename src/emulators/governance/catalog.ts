/**
 * Static vocabulary of the emulated tenant: entity types, their seeded attributes and options, the
 * workflow stages, link types and the name parts seed records are built from. Ids are not here;
 * `seed.ts` draws them from the seeded generator.
 */
import { list } from '../kit/random.js';
import type { AiEntityTypeName } from '../../governance/wire.js';

/**
 * The four AI kinds plus record kinds of other modules that entity-types search also returns, as
 * [name, key, description, module, scopes, workflow, seeded and enabled]; `CE.{key}.Name` and
 * `CE.{key}.Description` are the localisation keys.
 */
export const TYPE_DEFINITIONS = (
  [
    ['models', 'Models', 'Machine learning and AI models.', 'AIGovernance', 'AIG', true],
    ['datasets', 'Datasets', 'Datasets used for ML / AI applications.', 'AIGovernance', 'AIG', false],
    ['aisystems', 'AISystems', 'AI systems built from models, datasets and agents.', 'AIGovernance', 'AIG', true],
    ['aiagents', 'AIAgents', 'Autonomous or assistive AI agents.', 'AIGovernance', 'AIG', true],
    ['vendors', 'Vendors', 'Third parties that supply products or services.', 'Vendor', 'ITRM DM', true],
    ['assets', 'Assets', 'Systems and applications that process data.', 'DataMapping', 'DM', false],
    ['projects', 'Projects', 'Assessment projects.', 'Assessments', 'AA', true],
    [
      'model-cards',
      'ModelCards',
      'Custom record kind, switched off.',
      'CustomEntityManagement',
      'AIG ESG',
      false,
      false,
    ],
  ] as const
).map(([name, key, description, moduleName, scopes, workflow, on = true]) => ({
  name,
  key,
  description,
  moduleName,
  moduleScopes: scopes.split(' '),
  workflow,
  on,
}));

export interface AttributeDefinition {
  field: string;
  /** Options of a select attribute; absent for text attributes. */
  options?: string[];
}

/** Seeded attributes per AI kind: text ones live in entityDetail, select ones in extendedBaseAttributes. */
export const ATTRIBUTES: Record<AiEntityTypeName, AttributeDefinition[]> = {
  models: [
    { field: 'description' },
    { field: 'modelVersion' },
    { field: 'limitations' },
    { field: 'hostingProvider', options: ['AWS', 'Azure', 'Google Cloud', 'On-premise'] },
    { field: 'internalOrThirdParty', options: ['Internal', 'Third Party'] },
    { field: 'taskType', options: ['Classification', 'Regression', 'Generation', 'Clustering', 'Forecasting'] },
    { field: 'type', options: ['Large Language Model', 'Gradient Boosting', 'Neural Network', 'Linear Model'] },
  ],
  datasets: [
    { field: 'description' },
    { field: 'datasetVersion' },
    { field: 'annotation' },
    { field: 'type', options: ['Time-series', 'Audio', 'Image', 'Text', 'Tabular'] },
    { field: 'source', options: ['Cassandra', 'Alibaba Cloud', 'Amazon S3', 'Snowflake', 'PostgreSQL'] },
    { field: 'function', options: ['Training', 'Testing', 'Validation'] },
  ],
  aisystems: [
    { field: 'description' },
    { field: 'purpose' },
    { field: 'riskLevel', options: ['Minimal', 'Limited', 'High', 'Unacceptable'] },
    { field: 'type', options: ['Internal Tool', 'Customer Facing', 'Embedded'] },
  ],
  aiagents: [
    { field: 'description' },
    { field: 'instructions' },
    { field: 'autonomyLevel', options: ['Human in the loop', 'Supervised', 'Autonomous'] },
    { field: 'platform', options: ['Copilot Studio', 'Agentforce', 'LangGraph', 'Custom'] },
  ],
};

export const STAGES = ['Ideation', 'Development', 'Testing', 'Approved', 'Deployed', 'Retired'] as const;
export const STAGE_BADGES = ['New', 'InProgress', 'InProgress', 'Success', 'Success', 'Archived'];

/**
 * Link types, all of the CustomEntityManagement module, as [name, key, seeded, label id, forward and
 * backward labels, allowed `entity1>entity2` kinds, description]; `CE.Link.{key}` stems the
 * localisation keys.
 */
export const LINK_TYPES = (
  [
    [
      'ai-system-composition',
      'AISystemComposition',
      true,
      5,
      'is composed of|is a component of',
      'aisystems>models aisystems>aisystems aisystems>datasets aisystems>aiagents',
      'Defines a compositional relationship between AI Systems where one system is an integral part or component of another system',
    ],
    [
      'model-training-data',
      'ModelTrainingData',
      false,
      11,
      'is trained on|trains',
      'models>datasets',
      'Datasets a model is trained on',
    ],
    [
      'agent-model-usage',
      'AgentModelUsage',
      false,
      12,
      'uses|is used by',
      'aiagents>models',
      'Models an AI agent calls',
    ],
    [
      'model-vendor-sourcing',
      'ModelVendorSourcing',
      false,
      13,
      'is sourced from|supplies',
      'models>vendors aisystems>vendors',
      'Third parties a model or AI system is sourced from',
    ],
  ] as const
).map(([name, key, seeded, labelId, labels, pairs, description]) => {
  const [forward, backward] = labels.split('|') as [string, string];
  const associations = pairs.split(' ').map((pair) => pair.split('>') as [string, string]);
  return { name, keyStem: `CE.Link.${key}`, seeded, labelId, forward, backward, associations, description };
});

/** Organization tree of the tenant; the first entry is the root, where the API credentials live. */
export const ORGANIZATIONS: Array<{ name: string; parent: string | null }> = [
  { name: 'Acme Holdings', parent: null },
  { name: 'Acme Europe', parent: 'Acme Holdings' },
  { name: 'Acme Americas', parent: 'Acme Holdings' },
  { name: 'Acme Research Lab', parent: 'Acme Americas' },
];

export const USERS = [
  { name: 'OneTrust User', email: 'b478e00e9f394aff920a688bdc13a491@api.onetrust.com', initials: 'OU' },
  { name: 'Priya Natarajan', email: 'priya.natarajan@acme.example', initials: 'PN' },
  { name: 'Marcus Feldman', email: 'marcus.feldman@acme.example', initials: 'MF' },
  { name: 'Elena Rossi', email: 'elena.rossi@acme.example', initials: 'ER' },
  { name: 'Tomás Okafor', email: 'tomas.okafor@acme.example', initials: 'TO' },
];

export const NAME_PARTS: Record<
  AiEntityTypeName | 'vendors',
  { first: string[]; second: string[]; versions: boolean }
> = {
  models: {
    first: list(`Fraud, Credit Risk, Customer Churn, Demand, Sentiment, Claims Triage, Dynamic Pricing,
      Product Recommendation, Document OCR, Speech-to-Text, Anomaly, Lead, Supply Chain, Support Ticket,
      Attrition, Medical Coding, Translation, Image Moderation, bert-base, Invoice Extraction`),
    second: list('Scoring Model, Classifier, Forecasting Model, Embedding Model, Detector, LLM'),
    versions: true,
  },
  datasets: {
    first: list(`Customer Churn, Transaction History, Call Center Audio, Product Images, Support Tickets, Claims,
      Web Clickstream, Loan Applications, Sensor Telemetry, Employee Survey, Medical Notes,
      Marketing Leads, invoice scans, Chat Transcripts`),
    second: list('Dataset, Training Set, Holdout Set, Corpus'),
    versions: false,
  },
  aisystems: {
    first: list(`Underwriting, Customer Service, Fraud Prevention, Marketing Personalisation, Claims Automation,
      HR Screening, Clinical Decision, Supply Planning, Content Moderation, Document Intake,
      Pricing Engine, Sales Forecast, Voice Assistant, Knowledge Search, IT Helpdesk`),
    second: list('Platform, Assistant, Pipeline, Service, Copilot'),
    versions: false,
  },
  aiagents: {
    first: list(`Expense Review, Meeting Notes, Onboarding, Code Review, Procurement, Travel Booking,
      Contract Redline, Sales Outreach, Incident Triage, Research`),
    second: list('Agent, Bot, Copilot'),
    versions: false,
  },
  vendors: {
    first: list(`OpenAI, Anthropic, Cohere, Mistral AI, Hugging Face, Databricks, Snowflake, Scale AI, DataRobot,
      Amazon Web Services, Microsoft, Google Cloud`),
    second: [''],
    versions: false,
  },
};

/**
 * Static vocabulary of the emulated tenant: entity types, their seeded attributes and options, the
 * workflow stages, link types and the name parts seed records are built from. Ids are not here;
 * `seed.ts` draws them from the seeded generator.
 */
import type { AiEntityTypeName } from '../wire.js';

export interface TypeDefinition {
  name: string;
  nameKey: string;
  description: string;
  moduleName: string;
  moduleScopes: string[];
  seeded: boolean;
  enabled: boolean;
  workflow: boolean;
}

/** The four AI kinds plus record kinds of other modules that entity-types search also returns. */
export const TYPE_DEFINITIONS: TypeDefinition[] = [
  {
    name: 'models',
    nameKey: 'CE.Models.Name',
    description: 'Machine learning and AI models.',
    moduleName: 'AIGovernance',
    moduleScopes: ['AIG'],
    seeded: true,
    enabled: true,
    workflow: true,
  },
  {
    name: 'datasets',
    nameKey: 'CE.Datasets.Name',
    description: 'Datasets used for ML / AI applications.',
    moduleName: 'AIGovernance',
    moduleScopes: ['AIG'],
    seeded: true,
    enabled: true,
    workflow: false,
  },
  {
    name: 'aisystems',
    nameKey: 'CE.AISystems.Name',
    description: 'AI systems built from models, datasets and agents.',
    moduleName: 'AIGovernance',
    moduleScopes: ['AIG'],
    seeded: true,
    enabled: true,
    workflow: true,
  },
  {
    name: 'aiagents',
    nameKey: 'CE.AIAgents.Name',
    description: 'Autonomous or assistive AI agents.',
    moduleName: 'AIGovernance',
    moduleScopes: ['AIG'],
    seeded: true,
    enabled: true,
    workflow: true,
  },
  {
    name: 'vendors',
    nameKey: 'CE.Vendors.Name',
    description: 'Third parties that supply products or services.',
    moduleName: 'Vendor',
    moduleScopes: ['ITRM', 'DM'],
    seeded: true,
    enabled: true,
    workflow: true,
  },
  {
    name: 'assets',
    nameKey: 'CE.Assets.Name',
    description: 'Systems and applications that process data.',
    moduleName: 'DataMapping',
    moduleScopes: ['DM'],
    seeded: true,
    enabled: true,
    workflow: false,
  },
  {
    name: 'projects',
    nameKey: 'CE.Projects.Name',
    description: 'Assessment projects.',
    moduleName: 'Assessments',
    moduleScopes: ['AA'],
    seeded: true,
    enabled: true,
    workflow: true,
  },
  {
    name: 'model-cards',
    nameKey: 'CE.ModelCards.Name',
    description: 'Custom record kind, switched off.',
    moduleName: 'CustomEntityManagement',
    moduleScopes: ['AIG', 'ESG'],
    seeded: false,
    enabled: false,
    workflow: false,
  },
];

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

export interface LinkTypeDefinition {
  name: string;
  nameKey: string;
  description: string;
  seeded: boolean;
  moduleName: string;
  labelId: number;
  forward: string;
  backward: string;
  keyStem: string;
  /** Allowed [entity1 type, entity2 type] pairs. */
  associations: Array<[string, string]>;
}

export const LINK_TYPES: LinkTypeDefinition[] = [
  {
    name: 'ai-system-composition',
    nameKey: 'CE.Link.AISystemComposition.Name',
    seeded: true,
    moduleName: 'CustomEntityManagement',
    labelId: 5,
    description:
      'Defines a compositional relationship between AI Systems where one system is an integral part or component of another system',
    forward: 'is composed of',
    backward: 'is a component of',
    keyStem: 'CE.Link.AISystemComposition',
    associations: [
      ['aisystems', 'models'],
      ['aisystems', 'aisystems'],
      ['aisystems', 'datasets'],
      ['aisystems', 'aiagents'],
    ],
  },
  {
    name: 'model-training-data',
    nameKey: 'CE.Link.ModelTrainingData.Name',
    seeded: false,
    moduleName: 'CustomEntityManagement',
    labelId: 11,
    description: 'Datasets a model is trained on',
    forward: 'is trained on',
    backward: 'trains',
    keyStem: 'CE.Link.ModelTrainingData',
    associations: [['models', 'datasets']],
  },
  {
    name: 'agent-model-usage',
    nameKey: 'CE.Link.AgentModelUsage.Name',
    seeded: false,
    moduleName: 'CustomEntityManagement',
    labelId: 12,
    description: 'Models an AI agent calls',
    forward: 'uses',
    backward: 'is used by',
    keyStem: 'CE.Link.AgentModelUsage',
    associations: [['aiagents', 'models']],
  },
  {
    name: 'model-vendor-sourcing',
    nameKey: 'CE.Link.ModelVendorSourcing.Name',
    seeded: false,
    moduleName: 'CustomEntityManagement',
    labelId: 13,
    description: 'Third parties a model or AI system is sourced from',
    forward: 'is sourced from',
    backward: 'supplies',
    keyStem: 'CE.Link.ModelVendorSourcing',
    associations: [
      ['models', 'vendors'],
      ['aisystems', 'vendors'],
    ],
  },
];

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
    first: [
      'Fraud',
      'Credit Risk',
      'Customer Churn',
      'Demand',
      'Sentiment',
      'Claims Triage',
      'Dynamic Pricing',
      'Product Recommendation',
      'Document OCR',
      'Speech-to-Text',
      'Anomaly',
      'Lead',
      'Supply Chain',
      'Support Ticket',
      'Attrition',
      'Medical Coding',
      'Translation',
      'Image Moderation',
      'bert-base',
      'Invoice Extraction',
    ],
    second: ['Scoring Model', 'Classifier', 'Forecasting Model', 'Embedding Model', 'Detector', 'LLM'],
    versions: true,
  },
  datasets: {
    first: [
      'Customer Churn',
      'Transaction History',
      'Call Center Audio',
      'Product Images',
      'Support Tickets',
      'Claims',
      'Web Clickstream',
      'Loan Applications',
      'Sensor Telemetry',
      'Employee Survey',
      'Medical Notes',
      'Marketing Leads',
      'invoice scans',
      'Chat Transcripts',
    ],
    second: ['Dataset', 'Training Set', 'Holdout Set', 'Corpus'],
    versions: false,
  },
  aisystems: {
    first: [
      'Underwriting',
      'Customer Service',
      'Fraud Prevention',
      'Marketing Personalisation',
      'Claims Automation',
      'HR Screening',
      'Clinical Decision',
      'Supply Planning',
      'Content Moderation',
      'Document Intake',
      'Pricing Engine',
      'Sales Forecast',
      'Voice Assistant',
      'Knowledge Search',
      'IT Helpdesk',
    ],
    second: ['Platform', 'Assistant', 'Pipeline', 'Service', 'Copilot'],
    versions: false,
  },
  aiagents: {
    first: [
      'Expense Review',
      'Meeting Notes',
      'Onboarding',
      'Code Review',
      'Procurement',
      'Travel Booking',
      'Contract Redline',
      'Sales Outreach',
      'Incident Triage',
      'Research',
    ],
    second: ['Agent', 'Bot', 'Copilot'],
    versions: false,
  },
  vendors: {
    first: [
      'OpenAI',
      'Anthropic',
      'Cohere',
      'Mistral AI',
      'Hugging Face',
      'Databricks',
      'Snowflake',
      'Scale AI',
      'DataRobot',
      'Amazon Web Services',
      'Microsoft',
      'Google Cloud',
    ],
    second: [''],
    versions: false,
  },
};

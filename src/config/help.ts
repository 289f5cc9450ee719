/**
 * Text generated from the settings schema: `--help` (the production checklist, then the common
 * settings; `--help all` adds the advanced ones), `.env.example` and `docs/settings.md`, each
 * starting with the production checklist. Secret settings show no value anywhere.
 */
import { SETTINGS, type SettingInfo, type Tier } from './settings.js';

const TIERS: { tier: Tier; title: string; note: string }[] = [
  {
    tier: 'production',
    title: 'Production checklist',
    note: 'NODE_ENV=production refuses to start until these are set (the client credentials and the calendar user not in `forward` auth mode; AUTH_ISSUERS, AUTH_API_KEYS or both, so that callers can authenticate). With more than one replica, set REDIS_URL too; GOVERNANCE_DISCOVERY_FILE gives workflow stages their order and organizations their names.',
  },
  { tier: 'common', title: 'Common settings', note: 'What most deployments look at.' },
  { tier: 'advanced', title: 'Advanced settings', note: 'Defaults that suit nearly every deployment.' },
];

const ofTier = (tier: Tier): SettingInfo[] => SETTINGS.filter((s) => s.tier === tier);

const defaultText = (s: SettingInfo) => (s.default !== undefined ? `default: ${s.default}` : '');

export function renderHelp(all = false): string {
  const lines = [
    'governance-calendar-gateway: one GraphQL endpoint over the AI governance and calendar events APIs.',
    '',
    'Usage: node dist/server.js [--help [all]]     (development: npm start, which reads a .env file)',
    'Every setting is an environment variable; docs/settings.md has the full table.',
  ];
  for (const { tier, title, note } of TIERS) {
    if (tier === 'advanced' && !all) {
      lines.push('', `${ofTier('advanced').length} advanced settings more: --help all`);
      break;
    }
    lines.push('', `${title}: ${note}`);
    for (const s of ofTier(tier)) {
      const extra = [defaultText(s), s.secret ? '(secret)' : ''].filter(Boolean).join('  ');
      lines.push(`  ${s.name}  <${s.type}>${extra ? `  ${extra}` : ''}`, `      ${s.description}`);
    }
  }
  return lines.join('\n') + '\n';
}

export function renderEnvExample(): string {
  const lines = [
    '# Settings of the gateway, generated from src/config/settings.ts by `npm run env:example`.',
    '# Copy to .env for development (read in development only, never over the real environment).',
    '# Unset (commented) settings take their default. Secrets belong in a secret store, not in this file.',
  ];
  for (const { tier, title, note } of TIERS) {
    lines.push('', `## ${title}: ${note}`);
    for (const s of ofTier(tier)) {
      lines.push(`# ${s.description}${s.secret ? ' (secret)' : ''}`);
      lines.push(`# type: ${s.type}${s.default !== undefined ? `; default: ${s.default}` : ''}`);
      lines.push(`# ${s.name}=`);
    }
  }
  return lines.join('\n') + '\n';
}

/** `docs/settings.md`: the one table of settings, by tier. */
export function renderSettingsDoc(): string {
  const cell = (t: string) => t.replace(/\|/g, '\\|');
  const lines = [
    '# Settings',
    '',
    '<!-- Generated from src/config/settings.ts by `npm run env:example`; CI checks it (`npm run env:check`). -->',
    '',
    'Every setting is an environment variable. In development a `.env` file in the working directory is',
    'read too, under the real environment (a variable set in the environment wins); production and test',
    'runs read no file (in production, start Node with `--env-file=.env` to read one).',
    '`node dist/server.js --help` lists the production checklist and the common settings, `--help all`',
    'every setting. A bad value stops the start with one line per problem.',
  ];
  for (const { tier, title, note } of TIERS) {
    lines.push('', `## ${title}`, '', note, '', '| Setting | Type | Default | Meaning |', '| --- | --- | --- | --- |');
    for (const s of ofTier(tier))
      lines.push(
        `| \`${s.name}\`${s.secret ? ' (secret)' : ''} | ${cell(s.type)} | ${cell(s.default ?? '—')} | ${cell(s.description)} |`,
      );
  }
  return lines.join('\n') + '\n';
}

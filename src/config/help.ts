/**
 * Text generated from the settings schema: `--help`, `.env.example` and the README's settings
 * table. Secret settings show no value anywhere.
 */
import { SETTINGS, type SettingInfo } from './settings.js';

const GROUP_TITLES: Record<SettingInfo['group'], string> = {
  server: 'Server',
  governance: 'Governance upstream',
  calendar: 'Calendar upstream',
  upstream: 'Upstream HTTP',
  cache: 'Response cache',
  traffic: 'Traffic (rate budget, 429 pauses)',
  redis: 'Redis',
  security: 'Security',
  observability: 'Observability',
  emulators: 'Emulators',
};

function byGroup(): [string, SettingInfo[]][] {
  const groups = new Map<string, SettingInfo[]>();
  for (const s of SETTINGS) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
  return [...groups].map(([g, list]) => [GROUP_TITLES[g as SettingInfo['group']], list]);
}

export function renderHelp(): string {
  const lines = [
    'governance-calendar-gateway: one GraphQL endpoint over the AI governance and calendar events APIs.',
    '',
    'Usage: node dist/server.js [--help]     (development: npm start)',
    'Every setting is an environment variable:',
  ];
  for (const [title, list] of byGroup()) {
    lines.push('', `${title}:`);
    for (const s of list) {
      lines.push(
        `  ${s.name}  <${s.type}>${s.default !== undefined ? `  default: ${s.default}` : ''}${s.secret ? '  (secret)' : ''}`,
      );
      lines.push(`      ${s.description}`);
    }
  }
  return lines.join('\n') + '\n';
}

export function renderEnvExample(): string {
  const lines = [
    '# Every setting of the gateway, generated from src/config/settings.ts by `npm run env:example`.',
    '# Unset (commented) settings take their default. Secrets belong in a secret store, not in this file.',
  ];
  for (const [title, list] of byGroup()) {
    lines.push('', `## ${title}`);
    for (const s of list) {
      lines.push(`# ${s.description}${s.secret ? ' (secret)' : ''}`);
      lines.push(`# type: ${s.type}${s.default !== undefined ? `; default: ${s.default}` : ''}`);
      lines.push(`# ${s.name}=`);
    }
  }
  return lines.join('\n') + '\n';
}

export function renderSettingsTable(): string {
  const cell = (t: string) => t.replace(/\|/g, '\\|');
  const lines = ['| Setting | Type | Default | Meaning |', '| --- | --- | --- | --- |'];
  for (const s of SETTINGS) {
    lines.push(
      `| \`${s.name}\`${s.secret ? ' (secret)' : ''} | ${cell(s.type)} | ${cell(s.default ?? '—')} | ${cell(s.description)} |`,
    );
  }
  return lines.join('\n') + '\n';
}

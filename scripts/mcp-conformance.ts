/**
 * `npm run mcp:conformance` (CI step "MCP conformance"): starts the gateway as `npm start` does
 * (`node --import tsx src/server.ts`, embedded emulators, write tools on), then runs against its
 * `/mcp` the official conformance suite's server scenarios that apply to a tools-only server, and
 * the MCP Inspector's CLI listing the tools, whose schema portability findings must be none. Both
 * are software we did not write, pinned here; `npx` runs them on the project's Node (24). Any
 * failure outside `mcp-conformance-baseline.yml` exits 1. docs/mcp.md says which scenarios run and
 * why the others do not apply.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CONFORMANCE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
/** The scenarios that apply to a server of tools only (no prompts, resources, logging or fixture tools). */
export const SCENARIOS = [
  'server-initialize',
  'server-stateless',
  'tools-list',
  'tools-call-error',
  'http-header-validation',
  'input-required-result-unsupported-methods',
  'dns-rebinding-protection',
];

const repo = fileURLToPath(new URL('../', import.meta.url));
const baseline = fileURLToPath(new URL('./mcp-conformance-baseline.yml', import.meta.url));

async function startGateway(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: repo,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', MCP_MUTATIONS: 'true', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /gateway ready: (http:\/\/\S+)\/graphql/.exec(out);
      if (m) resolve(`${m[1]!}/mcp`);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}: ${out}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

function npx(args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync('npx', ['-y', ...args], { cwd: repo, encoding: 'utf8', timeout: 300_000 });
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

const { url, stop } = await startGateway();
let failed = 0;
try {
  for (const scenario of SCENARIOS) {
    const r = npx([CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '--expected-failures', baseline]);
    const summary = /Passed: .*/.exec(r.stdout)?.[0] ?? 'no summary';
    console.log(`${r.status === 0 ? 'ok  ' : 'FAIL'} ${scenario}: ${summary}`);
    if (r.status !== 0) {
      failed++;
      console.log(
        r.stdout
          .split('\n')
          .filter((l) => /FAILURE|Unexpected|Stale|Error/.test(l))
          .join('\n'),
      );
    }
  }
  const listed = npx([INSPECTOR, '--cli', url, '--transport', 'http', '--method', 'tools/list']);
  const tools = (JSON.parse(listed.stdout) as { tools: unknown[] }).tools.length;
  const portability = /Schema portability: .*/.exec(listed.stderr)?.[0];
  console.log(
    `${portability ? 'FAIL' : 'ok  '} inspector tools/list: ${tools} tools, ${portability ?? 'no portability finding'}`,
  );
  if (listed.status !== 0 || portability || tools === 0) failed++;
} finally {
  stop();
}
console.log(failed === 0 ? 'mcp conformance: all applicable checks passed' : `mcp conformance: ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

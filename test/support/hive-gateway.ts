/**
 * Hive Gateway (`@graphql-hive/gateway`, a dev dependency) as its own process, as operators run it:
 * `hive-gateway supergraph supergraph.graphql` with a `gateway.config.mjs` beside it, on a free
 * loopback port. The config is the one docs/federation.md shows: the caller's `Authorization` to every
 * subgraph, the router's secret to this gateway only, and `@requiresScopes` enforced against the JWT's
 * `scope` (its JWT plugin and `genericAuth`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { vi } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = join(REPO, 'node_modules/@graphql-hive/gateway');

export interface HiveGatewayOptions {
  supergraphSdl: string;
  /** What the config reads from the environment (docs/federation.md). */
  env: { FEDERATION_SECRET: string; IDP_JWKS_URL: string; IDP_ISSUER: string; IDP_AUDIENCE: string };
}

export interface HiveGateway {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** The documented config; `from` is where `@graphql-hive/gateway` is imported from. */
export function hiveGatewayConfig(from = '@graphql-hive/gateway'): string {
  return `import { createRemoteJwksSigningKeyProvider } from '${from}';

export const gatewayConfig = {
  // The caller's credential to every subgraph; the router's own secret to the gateway only.
  propagateHeaders: {
    fromClientToSubgraphs: ({ request, subgraphName }) => ({
      ...(request.headers.has('authorization') && { authorization: request.headers.get('authorization') }),
      ...(subgraphName === 'gateway' && { 'x-federation-secret': process.env.FEDERATION_SECRET }),
    }),
  },
  // @requiresScopes checked at the router, against the verified token's scope claim.
  jwt: {
    signingKeyProviders: [createRemoteJwksSigningKeyProvider({ jwksUri: process.env.IDP_JWKS_URL })],
    tokenVerification: {
      issuer: process.env.IDP_ISSUER,
      audience: process.env.IDP_AUDIENCE,
      algorithms: ['ES256', 'RS256'],
    },
    reject: { missingToken: false, invalidToken: false },
  },
  genericAuth: {
    mode: 'protect-granular',
    resolveUserFn: (context) => context.jwt?.payload,
    rejectUnauthenticated: false,
  },
};
`;
}

export async function startHiveGateway(options: HiveGatewayOptions): Promise<HiveGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'hive-gateway-'));
  writeFileSync(join(dir, 'supergraph.graphql'), options.supergraphSdl);
  // The temporary folder has no node_modules: the config imports the package by its file URL.
  writeFileSync(join(dir, 'gateway.config.mjs'), hiveGatewayConfig(pathToFileURL(join(PACKAGE, 'dist/index.js')).href));
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(PACKAGE, 'dist/bin.js'), 'supergraph', 'supergraph.graphql', '--port', String(port), '--host', '127.0.0.1'],
    { cwd: dir, env: { PATH: process.env.PATH, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await vi.waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`hive-gateway exited (${child.exitCode}): ${out}`);
        const res = await fetch(`${origin}/healthcheck`);
        if (!res.ok) throw new Error(`healthcheck ${res.status}`);
      },
      { timeout: 60_000, interval: 100 },
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `${origin}/graphql`, output: () => out, stop };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

/**
 * The runtime the project supports: Node.js 24 (the active LTS). `npm ci` installs it as the `node`
 * dev dependency, which npm puts first on the PATH of every script, so `npm start` and `npm test` run
 * on it whatever the system Node is; the image is based on it. A process started on an older Node
 * (`node dist/server.js` on a system Node 20, say) stops here with one line saying so.
 */
export const REQUIRED_NODE_MAJOR = 24;

/** The line to print when `version` (a `process.versions.node`) is too old, else undefined. */
export function runtimeProblem(version: string = process.versions.node): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= REQUIRED_NODE_MAJOR) return undefined;
  return (
    `Node.js ${REQUIRED_NODE_MAJOR} or newer is required; this is ${version}. ` +
    `Run through npm (\`npm start\`, \`npm test\`, \`npm run start:prod\`): \`npm ci\` installs Node ${REQUIRED_NODE_MAJOR} ` +
    `as the \`node\` dev dependency and npm scripts run on it. In production use the image (node:${REQUIRED_NODE_MAJOR}-slim) or install Node ${REQUIRED_NODE_MAJOR}.`
  );
}

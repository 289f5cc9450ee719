/**
 * A `.env` file in the working directory, read in development (NODE_ENV unset or `development` in the
 * real environment): its variables sit under the real environment, never over it (a variable set in
 * the environment wins, even when set to empty). Production reads no file: its settings come from the
 * orchestrator; to read one anyway, start Node with `--env-file=.env`, which fills the environment
 * before the gateway looks at it. NODE_ENV=test reads none either, so a developer's file never changes
 * a test run. Node's own parser (`util.parseEnv`) reads the file.
 */
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

type Env = Record<string, string | undefined>;

export function withEnvFile(env: Env, file = '.env'): Env {
  const mode = env.NODE_ENV?.trim();
  if (mode && mode !== 'development') return env;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return env;
    throw error;
  }
  return { ...parseEnv(text), ...env };
}

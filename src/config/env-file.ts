/**
 * A `.env` file in the working directory, read outside production: its variables sit under the real
 * environment, never over it (a variable set in the environment wins, even when set to empty).
 * Production (NODE_ENV=production in the real environment) reads no file: its settings come from the
 * orchestrator; to read one anyway, start Node with `--env-file=.env`, which fills the environment
 * before the gateway looks at it. Node's own parser (`util.parseEnv`) reads the file.
 */
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

type Env = Record<string, string | undefined>;

export function withEnvFile(env: Env, file = '.env'): Env {
  if (env.NODE_ENV?.trim() === 'production') return env;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return env;
    throw error;
  }
  return { ...parseEnv(text), ...env };
}

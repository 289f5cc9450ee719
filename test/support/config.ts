/** The problems `loadConfig` reports for an environment, or none. */
import { ConfigError, loadConfig } from '../../src/config/config.js';

export function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

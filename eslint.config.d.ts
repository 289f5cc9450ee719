// Types of the named exports of eslint.config.js that test/lint-walls.test.ts reuses.
import type { Linter } from 'eslint';

export interface Wall {
  target: string | string[];
  from: string | string[];
  except?: string[];
  message?: string;
}
export declare const walls: Wall[];
export declare const importSettings: Record<string, unknown>;
declare const config: Linter.Config[];
export default config;

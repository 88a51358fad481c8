import * as os from 'node:os';
import type { WalkEnvironment } from './types';

/** This process's home, environment and platform: what the walker uses unless a caller injects its own. */
export function processEnvironment(): WalkEnvironment {
  return { home: os.homedir(), env: process.env, platform: process.platform };
}

/** An environment variable, with an empty value read as unset (as git and Perforce do). */
export function envValue(environment: WalkEnvironment, name: string): string | undefined {
  const value = environment.env[name];
  return value === undefined || value === '' ? undefined : value;
}

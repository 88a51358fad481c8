import * as path from 'node:path';
import { envValue } from './environment';
import { MAX_CONFIG_FILE_BYTES, statIfExists, type ListingCache } from './listingCache';
import type { WalkEnvironment } from './types';

/** What Perforce's configuration adds to the walk. */
export interface PerforceRules {
  /** Per-folder rule file names from P4IGNORE, in order (each read in every folder, like `.gitignore`). */
  names: string[];
  /** Rule files given by path in P4IGNORE, relative to the walk base. */
  files: string[];
  /** Entry names never listed: `.p4root`, and `.p4config` plus the P4CONFIG name when configuration discovery is active. */
  excluded: string[];
}

const DEFAULT_P4IGNORE = '.p4ignore;p4ignore.txt';

/** `NAME=value` lines as P4CONFIG and P4ENVIRO files hold them; `#` starts a comment line. */
export function parseP4Settings(text: string): Map<string, string> {
  const settings = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    settings.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return settings;
}

function settingsFile(cache: ListingCache, file: string): Map<string, string> {
  return (cache.derived(file, MAX_CONFIG_FILE_BYTES, parseP4Settings)) ?? new Map();
}

/** The nearest P4CONFIG file at or above `start`, as Perforce looks for it from the current folder. */
function findConfigFile(start: string, name: string): string | undefined {
  if (path.isAbsolute(name)) return name;
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, name);
    if (statIfExists(candidate)?.isFile()) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Perforce's ignore settings for a walk based at `base`, resolved as the newer seed says for
 * POSIX systems: each value comes from the P4CONFIG file first, then the P4ENVIRO file, then the
 * process environment (Windows' registry and macOS's `p4 set` store are not read). P4ENVIRO
 * defaults to ~/.p4enviro except on macOS and Windows, where it must be set. The P4CONFIG file
 * name itself comes from P4ENVIRO or the environment and is searched from `base` upwards.
 */
export function perforceRules(environment: WalkEnvironment, base: string, cache: ListingCache): PerforceRules {
  const explicitEnviro = envValue(environment, 'P4ENVIRO');
  const defaultEnviro = environment.platform === 'darwin' || environment.platform === 'win32' ? undefined : path.join(environment.home, '.p4enviro');
  const enviroFile = explicitEnviro ?? defaultEnviro;
  const enviro = enviroFile ? settingsFile(cache, enviroFile) : new Map<string, string>();

  const configName = enviro.get('P4CONFIG') || envValue(environment, 'P4CONFIG');
  const configFile = configName ? findConfigFile(base, configName) : undefined;
  const config = configFile ? settingsFile(cache, configFile) : new Map<string, string>();

  const value = config.get('P4IGNORE') || enviro.get('P4IGNORE') || envValue(environment, 'P4IGNORE') || DEFAULT_P4IGNORE;
  const names: string[] = [];
  const files: string[] = [];
  for (const entry of value.split(';').map((e) => e.trim()).filter((e) => e !== '')) {
    if (path.isAbsolute(entry) || entry.includes('/')) files.push(path.resolve(base, entry));
    else names.push(entry);
  }
  const excluded = ['.p4root'];
  if (configName) excluded.push('.p4config', path.basename(configName));
  return { names, files, excluded };
}

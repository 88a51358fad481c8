/**
 * The environment a child command gets: this process's, minus the extension's own credentials.
 */

/** Credentials the extension itself uses; never passed to a command. */
export const CREDENTIAL_ENV_NAMES = ['MAGI_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'EXA_API_KEY', 'MAGI_VISION_API_KEY'] as const;

/**
 * A copy of `base` without the credential names and `extra` (keys held in SecretStorage), matched
 * case-insensitively on Windows where environment names are, exactly elsewhere.
 */
export function childEnvironment(
  base: NodeJS.ProcessEnv,
  extra: readonly string[] = [],
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const fold = (name: string): string => (platform === 'win32' ? name.toUpperCase() : name);
  const stripped = new Set([...CREDENTIAL_ENV_NAMES, ...extra].map(fold));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !stripped.has(fold(name))) out[name] = value;
  }
  return out;
}

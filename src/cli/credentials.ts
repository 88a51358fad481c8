import type { CredentialService, CredentialSource } from '../core/tools/credentials';

/** Where each service's key is found in the environment after MAGI_VISION_API_KEY. */
const ENV_NAMES: Record<CredentialService, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

/**
 * The CLI's keys for tools, from the environment only: MAGI_VISION_API_KEY first (the vision model
 * is the one tool that asks), else OPENAI_API_KEY or ANTHROPIC_API_KEY. Blank values count as unset.
 */
export function environmentCredentials(env: NodeJS.ProcessEnv): CredentialSource {
  return {
    apiKey: async (service) => env.MAGI_VISION_API_KEY?.trim() || env[ENV_NAMES[service]]?.trim() || undefined,
  };
}

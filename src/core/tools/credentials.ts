/** The services whose API keys a tool may ask for (the vision model of `view_image`). */
export type CredentialService = 'openai' | 'anthropic';

/**
 * Where tools get API keys: the CLI reads the environment, the VS Code host its SecretStorage. A key
 * is only handed to the tool that sends it; it never goes into a result, an error or a log.
 */
export interface CredentialSource {
  /** The key for `service`, or undefined when none is set. Never throws for a missing key. */
  apiKey(service: CredentialService): Promise<string | undefined>;
}

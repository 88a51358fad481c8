/**
 * The public APIs the HTTP providers default to. They need a key; any other base URL (Ollama,
 * LM Studio, vLLM on the local machine) may need none.
 */
export const PUBLIC_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
} as const;

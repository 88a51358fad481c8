import { PUBLIC_BASE_URLS } from '../../agent/providers/publicApis';
import { redact } from '../../redact';
import type { Settings } from '../../settings';
import type { CredentialService } from '../credentials';
import { ToolError } from '../errors';

export const VISION_MODEL_KEY = 'capabilities.tools.view_image.vision_model';
export const MAX_IMAGE_BYTES_KEY = 'capabilities.tools.view_image.max_image_bytes';

/** `max_image_bytes`: default 5 MiB, allowed 1 byte through 20 MiB (the contract's bounds). */
export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGE_BYTES_LIMIT = 20 * 1024 * 1024;

export const VISION_PROVIDERS = ['openai-responses', 'anthropic', 'openai-compatible'] as const;
export type VisionProvider = (typeof VISION_PROVIDERS)[number];

/** The explicitly configured vision model: the only place image bytes ever go. */
export interface VisionModel {
  provider: VisionProvider;
  model: string;
  /** http(s) base URL without a trailing slash; the provider's public API when the setting omits it. */
  baseUrl: string;
  /** Whether `baseUrl` is on a public API's host, which refuses requests without a key. */
  publicApi: boolean;
  /** Whose key it takes: `openai` for both OpenAI kinds. */
  service: CredentialService;
}

export interface ViewImageConfig {
  visionModel: VisionModel;
  maxImageBytes: number;
}

const EXAMPLE = JSON.stringify({ capabilities: { tools: { view_image: { vision_model: { provider: 'openai-responses', model: 'gpt-4.1-mini' } } } } });

/**
 * What the person must add when no vision model is configured; shared by `unavailable` and a direct
 * call. These messages follow "view_image is not available: ", so they carry no tool prefix.
 */
export const MISSING_VISION_MODEL = `no vision model is configured, and image bytes never go to the chat model: set ${VISION_MODEL_KEY} to {"provider", "model", "baseUrl"?} with provider ${VISION_PROVIDERS.join(', ')} — in VS Code the setting magi.${VISION_MODEL_KEY}, for the CLI the settings file, e.g. ${EXAMPLE}.`;

const bad = (key: string, expected: string, value: unknown): ToolError =>
  new ToolError(`setting ${key} must be ${expected}, not ${redact(JSON.stringify(value) ?? 'undefined', [])}.`, 'not_configured');

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function baseUrlOf(value: unknown, provider: VisionProvider): string {
  const key = `${VISION_MODEL_KEY}.baseUrl`;
  const fallback = provider === 'anthropic' ? PUBLIC_BASE_URLS.anthropic : PUBLIC_BASE_URLS.openai;
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string' || !URL.canParse(value)) throw bad(key, `an http(s) URL (default ${fallback})`, value);
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(key, `an http(s) URL (default ${fallback})`, value);
  if (url.username !== '' || url.password !== '') throw new ToolError(`setting ${key} must not carry a user or password; keys come from Magi: Set API Key… or the environment.`, 'not_configured');
  return value.replace(/\/+$/, '');
}

function visionModelOf(value: unknown): VisionModel {
  if (!isRecord(value)) throw bad(VISION_MODEL_KEY, `an object {"provider", "model", "baseUrl"?}, e.g. ${EXAMPLE}`, value);
  const unknown = Object.keys(value).filter((key) => !['provider', 'model', 'baseUrl'].includes(key));
  if (unknown.length > 0) throw new ToolError(`setting ${VISION_MODEL_KEY} has unknown field(s) ${unknown.join(', ')}; allowed: provider, model, baseUrl.`, 'not_configured');
  const provider = value.provider;
  if (!VISION_PROVIDERS.includes(provider as VisionProvider)) throw bad(`${VISION_MODEL_KEY}.provider`, `one of ${VISION_PROVIDERS.join(', ')}`, provider);
  const kind = provider as VisionProvider;
  if (typeof value.model !== 'string' || value.model.trim() === '') throw bad(`${VISION_MODEL_KEY}.model`, 'a non-empty model id (e.g. gpt-4.1-mini, claude-sonnet-4-5)', value.model);
  const baseUrl = baseUrlOf(value.baseUrl, kind);
  const publicApi = Object.values(PUBLIC_BASE_URLS).some((api) => new URL(api).hostname === new URL(baseUrl).hostname);
  return { provider: kind, model: value.model.trim(), baseUrl, publicApi, service: kind === 'anthropic' ? 'anthropic' : 'openai' };
}

function maxImageBytesOf(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_MAX_IMAGE_BYTES;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_IMAGE_BYTES_LIMIT) {
    throw bad(MAX_IMAGE_BYTES_KEY, `a whole number of bytes from 1 to ${MAX_IMAGE_BYTES_LIMIT} (20 MiB; default ${DEFAULT_MAX_IMAGE_BYTES})`, value);
  }
  return value;
}

/** Whether a vision model is configured at all; `{}` is the manifest's "unset". */
function configured(value: unknown): boolean {
  return value !== undefined && value !== null && !(isRecord(value) && Object.keys(value).length === 0);
}

/**
 * Reads and validates the view_image settings; throws ToolError naming the key and the allowed
 * values (a missing vision model: which setting to add, with an example). No I/O.
 */
export function viewImageConfig(settings: Settings): ViewImageConfig {
  const maxImageBytes = maxImageBytesOf(settings.get(MAX_IMAGE_BYTES_KEY));
  const raw = settings.get(VISION_MODEL_KEY);
  if (!configured(raw)) throw new ToolError(MISSING_VISION_MODEL, 'not_configured');
  return { visionModel: visionModelOf(raw), maxImageBytes };
}

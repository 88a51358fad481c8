/**
 * The three wire formats a vision model is asked in: OpenAI Responses, Anthropic Messages and
 * OpenAI-compatible Chat Completions. One non-streaming request with the prompt and the image as a
 * base64 data part; the answer is the text the model wrote.
 */
import { anthropicUrl, ANTHROPIC_VERSION } from '../../agent/providers/anthropic';
import { openAiUrl } from '../../agent/providers/openai';
import type { VisionModel, VisionProvider } from './config';
import type { LoadedImage } from './image';

/** Output tokens the vision model may write. */
export const VISION_MAX_OUTPUT_TOKENS = 4096;

export interface VisionPost {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

function authHeaders(model: VisionModel, key: string | undefined): Record<string, string> {
  if (key === undefined) return model.provider === 'anthropic' ? { 'anthropic-version': ANTHROPIC_VERSION } : {};
  return model.provider === 'anthropic' ? { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION } : { authorization: `Bearer ${key}` };
}

/** The POST for `model`: URL by the same rules as the chat providers, body with the prompt and the image. */
export function visionPost(model: VisionModel, key: string | undefined, prompt: string, image: LoadedImage): VisionPost {
  const data = image.bytes.toString('base64');
  const dataUrl = `data:${image.mime};base64,${data}`;
  const headers = authHeaders(model, key);
  switch (model.provider) {
    case 'openai-responses':
      return {
        url: `${model.baseUrl}/responses`,
        headers,
        body: {
          model: model.model,
          input: [{ role: 'user', content: [{ type: 'input_text', text: prompt }, { type: 'input_image', image_url: dataUrl }] }],
          max_output_tokens: VISION_MAX_OUTPUT_TOKENS,
        },
      };
    case 'anthropic':
      return {
        url: anthropicUrl(model.baseUrl),
        headers,
        body: {
          model: model.model,
          max_tokens: VISION_MAX_OUTPUT_TOKENS,
          messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: image.mime, data } }, { type: 'text', text: prompt }] }],
        },
      };
    case 'openai-compatible': {
      // As the chat provider does: api.openai.com refuses `max_tokens` for its reasoning models, compatible servers mostly know only `max_tokens`.
      const limitField = new URL(model.baseUrl).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
      return {
        url: openAiUrl(model.baseUrl),
        headers,
        body: {
          model: model.model,
          messages: [{ role: 'user', content: [{ type: 'text', text: prompt }, { type: 'image_url', image_url: { url: dataUrl } }] }],
          [limitField]: VISION_MAX_OUTPUT_TOKENS,
        },
      };
    }
  }
}

const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];

const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined);

/** Text parts of type `type` of a content list, joined. */
function textParts(content: unknown, type: string): string {
  return records(content).filter((part) => part.type === type && typeof part.text === 'string').map((part) => part.text as string).join('');
}

/** The model's answer in a response body, or undefined when there is no text in it. */
export function answerOf(provider: VisionProvider, json: unknown): string | undefined {
  let text: string;
  switch (provider) {
    case 'openai-responses': {
      const top = field(json, 'output_text');
      text = typeof top === 'string' && top !== '' ? top : records(field(json, 'output')).map((item) => textParts(item.content, 'output_text')).join('');
      break;
    }
    case 'anthropic':
      text = textParts(field(json, 'content'), 'text');
      break;
    case 'openai-compatible': {
      const content = field(field(records(field(json, 'choices'))[0], 'message'), 'content');
      text = typeof content === 'string' ? content : textParts(content, 'text');
      break;
    }
  }
  return text.trim() === '' ? undefined : text;
}

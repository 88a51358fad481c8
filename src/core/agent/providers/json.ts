/** Narrow readers for provider JSON: the wire formats are not ours, so every field is checked, never cast. */
import type { ProviderContext } from './errors';
import { malformedError } from './errors';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one SSE data payload that must be a JSON object; throws ProviderError kind `malformed` otherwise. */
export function parseChunk(data: string, ctx: ProviderContext): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw malformedError(ctx, `not JSON: ${JSON.stringify(data.slice(0, 80))}`);
  }
  if (!isObject(value)) throw malformedError(ctx, `not a JSON object: ${JSON.stringify(data.slice(0, 80))}`);
  return value;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function obj(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

export function arr(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** The `<system-reminder>` wrapping both wire formats use for reminder messages. */
export function wrapReminder(content: string): string {
  return `<system-reminder>\n${content}\n</system-reminder>`;
}

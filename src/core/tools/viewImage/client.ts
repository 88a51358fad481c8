import { Agent, request } from 'undici';
import { excerpt } from '../../agent/providers/errors';
import { readCapped } from '../../net/body';
import { redact } from '../../redact';
import { ToolError } from '../errors';
import type { VisionModel } from './config';
import { answerOf, type VisionPost } from './wire';

/** Bytes of a vision response read at most; an answer is capped far lower (64 KiB) afterwards. */
export const VISION_RESPONSE_CAP = 4 * 1024 * 1024;

export interface VisionTiming {
  connectMs: number;
  /** Until the response headers arrive (a vision model thinks before it answers). */
  headersMs: number;
  /** Longest gap between body chunks. */
  bodyMs: number;
}

export const DEFAULT_VISION_TIMING: VisionTiming = { connectMs: 10_000, headersMs: 120_000, bodyMs: 120_000 };

export const KEY_GUIDANCE = 'In VS Code run Magi: Set API Key… (OpenAI-compatible for both OpenAI kinds, Anthropic for anthropic); for the CLI set MAGI_VISION_API_KEY, or OPENAI_API_KEY / ANTHROPIC_API_KEY.';

function advice(status: number, model: VisionModel, keySent: boolean): string {
  if (status === 401 || status === 403) return `${keySent ? 'The API key was refused: check it.' : 'No API key was sent and the server wants one.'} ${KEY_GUIDANCE}`;
  if (status === 404) return `Check ${model.baseUrl} and the model name "${model.model}".`;
  if (status === 400 || status === 413 || status === 422) return `Check that "${model.model}" accepts images and the image's size and format.`;
  if (status === 429) return 'Rate limited: wait, then retry.';
  if (status >= 500) return 'The service failed: try again later.';
  return 'Check the vision_model setting.';
}

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const cause = (err as { cause?: unknown } | null)?.cause;
  return cause === undefined ? undefined : codeOf(cause);
}

/** A transport failure as a ToolError naming the endpoint, never the key. */
function transportError(err: unknown, where: string, timing: VisionTiming, secrets: readonly string[]): ToolError {
  const code = codeOf(err);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new ToolError(`view_image: could not connect to ${where} within ${timing.connectMs / 1000} s; check the baseUrl and that the server runs.`, 'upstream');
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new ToolError(`view_image: ${where} did not answer within ${timing.headersMs / 1000} s; try again or ask about a smaller image.`, 'upstream');
    case 'UND_ERR_BODY_TIMEOUT':
      return new ToolError(`view_image: ${where} stopped sending its answer for ${timing.bodyMs / 1000} s; try again.`, 'upstream');
    case 'ECONNREFUSED':
      return new ToolError(`view_image: ${where} refused the connection; check the baseUrl and that the server runs.`, 'upstream');
  }
  const detail = redact(err instanceof Error ? err.message : String(err), secrets).slice(0, 200);
  return new ToolError(`view_image: ${where} could not be reached (${code ?? detail}); check the baseUrl and the network.`, 'upstream');
}

/**
 * One non-streaming request to the vision model: 10 s to connect, 120 s for the headers and between
 * body chunks, at most 4 MiB read, cancellation through `signal` (the socket is destroyed). Returns
 * the model's text; every failure is a ToolError whose text is redacted of `secrets`.
 */
export async function askVision(model: VisionModel, post: VisionPost, secrets: readonly string[], signal: AbortSignal, timing: VisionTiming = DEFAULT_VISION_TIMING): Promise<string> {
  const where = `the vision model (${model.provider}, ${model.model}) at ${new URL(model.baseUrl).host}`;
  const agent = new Agent({ connect: { timeout: timing.connectMs }, headersTimeout: timing.headersMs, bodyTimeout: timing.bodyMs });
  try {
    const response = await request(post.url, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...post.headers },
      body: JSON.stringify(post.body),
      signal,
    });
    const { bytes, truncated } = await readCapped(response.body, VISION_RESPONSE_CAP);
    const text = bytes.toString('utf8');
    if (response.statusCode >= 400) {
      const said = excerpt(text, secrets).replace(/\.$/, '');
      throw new ToolError(`view_image: ${where} answered HTTP ${response.statusCode}${said ? `: ${said}` : ''}. ${advice(response.statusCode, model, secrets.length > 0)}`, 'upstream');
    }
    if (truncated) throw new ToolError(`view_image: ${where} sent more than ${VISION_RESPONSE_CAP / 1024 / 1024} MiB; ask a narrower question.`, 'upstream');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ToolError(`view_image: ${where} answered with something other than JSON; check that the baseUrl serves the ${model.provider} API.`, 'upstream');
    }
    const answer = answerOf(model.provider, json);
    if (answer === undefined) throw new ToolError(`view_image: ${where} answered without any text; check that the provider kind ${model.provider} matches the endpoint, or retry with a clearer prompt.`, 'upstream');
    return answer;
  } catch (err) {
    if (signal.aborted) throw new ToolError('view_image: cancelled; the request to the vision model was aborted.', 'cancelled');
    if (err instanceof ToolError) throw err;
    throw transportError(err, where, timing, secrets);
  } finally {
    // One agent per call: destroying it closes the socket at once, also when the call was cancelled mid-request.
    await agent.destroy();
  }
}

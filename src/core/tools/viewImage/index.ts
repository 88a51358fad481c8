import { clipUtf8 } from '../../process/capture';
import { defineTool, type ToolDefinition } from '../definition';
import { ToolError } from '../errors';
import { success, type ToolResult } from '../result';
import type { ToolRuntime } from '../runtime';
import { validateViewImageArgs, viewImageInput } from './args';
import { askVision, DEFAULT_VISION_TIMING, KEY_GUIDANCE, type VisionTiming } from './client';
import { viewImageConfig, type ViewImageConfig, type VisionModel } from './config';
import { VIEW_IMAGE_DESCRIPTION } from './description';
import { loadImage } from './image';
import { visionPost } from './wire';

/** UTF-8 bytes of the answer the model sees, the truncation note included. */
export const ANSWER_CAP = 64 * 1024;
const TRUNCATED_NOTE = '\n[truncated: the vision model\'s answer passed 64 KiB; ask about fewer details per call]';

/** Knobs for tests only (shorter timeouts); no setting reaches these. */
export interface ViewImageToolOptions {
  timing?: Partial<VisionTiming>;
}

/** The settings, or the reason the tool cannot run: the same text for `unavailable` and a direct call. */
function configOf(runtime: ToolRuntime): ViewImageConfig | string {
  try {
    return viewImageConfig(runtime.settings);
  } catch (err) {
    if (err instanceof ToolError) return err.message;
    throw err;
  }
}

/** The key for the vision model; a public API without one fails here, before any request. */
async function apiKeyFor(model: VisionModel, runtime: ToolRuntime): Promise<string | undefined> {
  const key = (await runtime.credentials?.apiKey(model.service))?.trim() || undefined;
  if (key === undefined && model.publicApi) {
    throw new ToolError(`view_image: ${model.baseUrl} needs an API key (${model.service}) and none is set. ${KEY_GUIDANCE} A local server as baseUrl may need no key.`, 'not_configured');
  }
  return key;
}

function capAnswer(answer: string): { text: string; truncated: boolean } {
  if (Buffer.byteLength(answer, 'utf8') <= ANSWER_CAP) return { text: answer, truncated: false };
  return { text: clipUtf8(answer, ANSWER_CAP - Buffer.byteLength(TRUNCATED_NOTE, 'utf8'), 'start') + TRUNCATED_NOTE, truncated: true };
}

export function createViewImageTool(options: ViewImageToolOptions = {}): ToolDefinition<typeof viewImageInput> {
  const timing: VisionTiming = { ...DEFAULT_VISION_TIMING, ...options.timing };
  return defineTool({
    name: 'view_image',
    aliases: [],
    description: VIEW_IMAGE_DESCRIPTION,
    mutates: false,
    input: viewImageInput,
    unavailable(runtime) {
      const config = configOf(runtime);
      return typeof config === 'string' ? config : undefined;
    },
    async execute(raw, ctx): Promise<ToolResult> {
      const args = validateViewImageArgs(raw);
      const config = configOf(ctx.runtime);
      if (typeof config === 'string') throw new ToolError(`view_image is not available: ${config}`, 'not_configured');
      const model = config.visionModel;
      const key = await apiKeyFor(model, ctx.runtime);
      const image = await loadImage(ctx.runtime, args.path, config.maxImageBytes, ctx.signal);
      const answer = await askVision(model, visionPost(model, key, args.prompt, image), key === undefined ? [] : [key], ctx.signal, timing);
      const { text, truncated } = capAnswer(answer);
      return success(text, { path: image.path, provider: model.provider, model: model.model, format: image.format, image_bytes: image.bytes.length, truncated });
    },
  });
}

export const viewImageTool = createViewImageTool();

import { z } from 'zod';
import { ToolError } from '../errors';

export const MAX_PROMPT_CHARS = 4096;

export const viewImageInput = z.strictObject({
  path: z.string().describe('Absolute path of one PNG, JPEG, GIF or WebP file'),
  prompt: z.string().min(1).max(MAX_PROMPT_CHARS).describe(`What to look for: name the exact visual details (1 to ${MAX_PROMPT_CHARS} characters)`),
});

export type ViewImageArgs = z.output<typeof viewImageInput>;

/** What zod cannot say well: a prompt of only whitespace. The path is checked with the file (image.ts). */
export function validateViewImageArgs(args: ViewImageArgs): ViewImageArgs {
  if (args.prompt.trim() === '') {
    throw new ToolError('view_image: `prompt` is blank; say what to inspect, e.g. "Read the error text in the red dialog and the button labels below it."');
  }
  return args;
}

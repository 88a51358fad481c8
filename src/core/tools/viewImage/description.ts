import { MAX_PROMPT_CHARS } from './args';

export const VIEW_IMAGE_DESCRIPTION = `Looks at one local image with the configured vision model and returns its text answer.

{"path": "/abs/path/to/screenshot.png", "prompt": "Read the error message in the dialog and list the disabled buttons."}

path: absolute path of one existing regular file — PNG, JPEG, GIF or WebP (.png, .jpg, .jpeg, .gif, .webp, any case; the bytes must match the extension). Symlinks are followed to the real file; outside the workspace only while capabilities.tools.view_image.absolute_paths allows it. At most capabilities.tools.view_image.max_image_bytes (default 5 MiB, up to 20 MiB).
prompt: 1–${MAX_PROMPT_CHARS} characters naming the exact visual details to inspect (text to read, colors, layout, which element); the vision model sees only this prompt and the image, not the conversation.
Needs capabilities.tools.view_image.vision_model ({"provider": "openai-responses" | "anthropic" | "openai-compatible", "model": "..."}); the image goes only to that model, never to the chat model. The answer is capped at 64 KiB (check truncated).`;

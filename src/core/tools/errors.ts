/**
 * A failure a tool reports to the model as an `error` result. The message must say what to do next
 * ("re-read the file, then retry with the new tag"); it never carries file contents or credentials.
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: ToolErrorCode = 'invalid_input',
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export type ToolErrorCode =
  | 'invalid_input'
  | 'unknown_tool'
  | 'not_found'
  | 'outside_root'
  | 'setting_denied'
  | 'symlink'
  | 'too_large'
  | 'not_utf8'
  | 'stale_tag'
  | 'unknown_tag'
  | 'unseen_line'
  /** hash_edit body rows that copied read's `LINE:` prefix; the same section sent again applies. */
  | 'line_prefix'
  /** A hash_edit SWAP that looks aimed a few lines off; the same section sent again applies. */
  | 'suspect_range'
  | 'conflict'
  | 'cancelled'
  /** The person declined: a bash command's approval prompt, an edit's review. */
  | 'declined'
  /** A setting the tool needs is missing or invalid (view_image's vision model). */
  | 'not_configured'
  /** A remote service the tool calls failed or answered with something unusable. */
  | 'upstream'
  | 'io'
  /** A bound on time ran out (the browser's per-call 60 s, an element that never became actionable). */
  | 'timeout';

/** Message of any thrown value, for wrapping unexpected failures into a ToolError. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

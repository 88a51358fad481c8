/**
 * The messages between the extension host and a Magi webview, keyed by `type`. The activity events
 * themselves will be the core's `ActivityEvent` (src/core/activity.ts) once the panels render them;
 * until then the host sends ready-made text lines.
 */
export type HostMessage =
  /** Lines to append to the activity list, oldest first. */
  | { type: 'activity'; lines: string[] }
  | { type: 'clear' };

export type WebviewMessage =
  /** The script has loaded and listens: the host may start sending. */
  { type: 'ready' };

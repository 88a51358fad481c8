/**
 * What `read` needs from the session's skills: the agent's skill catalog implements it, so that
 * tools/ never depends on agent/. A runtime without one reads no `skill://` targets.
 */
export interface SkillSource {
  /**
   * Reads `skill://<name>` (the skill's SKILL.md) or `skill://<name>/<relative-reference>`,
   * applying every confinement rule (known names only, relative references, no symlinks, regular
   * files under the canonical skill folder, 1 MiB, strict UTF-8). Throws ToolError with a message
   * that says what to do instead; `display` is the normalized `skill://` form of the target.
   */
  read(uri: string, signal: AbortSignal): Promise<{ display: string; text: string }>;
  /** Names of the discovered skills, sorted. */
  names(): string[];
}

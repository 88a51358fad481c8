/**
 * One compression rule for provider-visible `bash` output. Rules are pure and deterministic: the
 * same command and output always give the same summary, and a rule never reads the clock, the
 * environment or the file system.
 */
export interface CompressionRule {
  /** Short stable name shown in the summary's marker line (`git-status`, `cargo-test`, …). */
  name: string;
  /**
   * Whether this rule handles a simple command, given as its words (leading `NAME=value`
   * assignments and a trailing `2>&1` already removed). Never called for compound commands.
   */
  matches(words: readonly string[]): boolean;
  /**
   * The summary body (without the marker line), or undefined when the output is not in the shape
   * the rule expects — the raw output then passes through unchanged. Never throws.
   */
  summarize(output: string, exitCode: number | null): string | undefined;
}

/** At most `max` items, then one line saying how many were left out. */
export function bounded(items: readonly string[], max: number, indent = '  '): string[] {
  const shown = items.slice(0, max).map((item) => indent + item);
  if (items.length > max) shown.push(`${indent}… ${items.length - max} more`);
  return shown;
}

/** `(exit 1)`, `(exit 0)` or `(no exit code)` for a signal-ended command. */
export function exitText(exitCode: number | null): string {
  return exitCode === null ? 'no exit code' : `exit ${exitCode}`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

export function linesOf(output: string): string[] {
  return output.replace(/\r\n/g, '\n').split('\n');
}

/** Token estimate used for web page text: one token per four UTF-8 bytes, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}

/**
 * Runs of three or more line breaks (two or more blank lines, blank meaning only spaces or tabs)
 * become one blank line; trailing spaces are dropped and the ends trimmed. Saves budget without
 * changing the Markdown's meaning.
 */
export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Cuts `text` so that `estimateTokens(result) <= budgetTokens`. The cut falls after the last whole
 * line that fits; when not even one line fits, at the last whole character (never inside a UTF-8
 * sequence). Never throws.
 */
export function cutToBudget(text: string, budgetTokens: number): { text: string; truncated: boolean } {
  const maxBytes = Math.max(0, Math.floor(budgetTokens)) * 4;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let end = bytes.lastIndexOf(0x0a, maxBytes - 1);
  if (end <= 0) {
    end = maxBytes;
    // Back off continuation bytes (10xxxxxx) so the cut lands on a character boundary.
    while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  }
  return { text: bytes.subarray(0, end).toString('utf8').trimEnd(), truncated: true };
}

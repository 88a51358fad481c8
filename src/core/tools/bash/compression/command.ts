/**
 * Which commands compression may touch: only simple ones. A command containing `&&`, `||`, `|`,
 * `;`, `&`, a newline, backticks, `$(`, a redirection other than a trailing `2>&1`, or an
 * unterminated quote is compound (or too clever to read) and passes through unchanged.
 *
 * Leading environment assignments are allowed (`RUST_BACKTRACE=1 cargo test` is still
 * `cargo test`): they change the environment, not the shape of the output the rules read.
 */
const COMPOUND = /&&|\|\||[|;&\n\r`<>]|\$\(/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The words of a simple command, or undefined when the command is compound. */
export function simpleCommandWords(command: string): string[] | undefined {
  const trimmed = command.trim().replace(/\s+2>&1$/, '');
  if (trimmed === '' || COMPOUND.test(trimmed)) return undefined;
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (const ch of trimmed) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(current);
  while (words.length > 0 && ASSIGNMENT.test(words[0] ?? '')) words.shift();
  return words.length > 0 ? words : undefined;
}

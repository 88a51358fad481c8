import { exitText, linesOf, type CompressionRule } from '../types';

const MAX_FAILURES = 20;
const MAX_ERROR_LINES = 3;

/** `npm test`, `npm t`, `npm run test`, `npx mocha …`, `mocha …`. */
export const mocha: CompressionRule = {
  name: 'mocha',
  matches(words) {
    if (words[0] === 'npm') return words[1] === 'test' || words[1] === 't' || (words[1] === 'run' && words[2] === 'test');
    const rest = words[0] === 'npx' ? words.slice(1) : words;
    return rest[0] === 'mocha' && !rest.some((w) => ['--watch', '-w', '--help', '-h', '--version', '-V'].includes(w));
  },
  summarize(output, exitCode) {
    const lines = linesOf(output);
    const counts: Record<string, string> = {};
    let failuresAt = -1;
    lines.forEach((line, i) => {
      const m = /^ {2}(\d+) (passing|failing|pending)\b/.exec(line);
      if (m?.[1] && m[2]) {
        counts[m[2]] = m[1];
        if (m[2] === 'failing') failuresAt = i;
      }
    });
    // Not mocha's spec reporter (jest, vitest, a script): pass the output through.
    if (counts.passing === undefined && counts.failing === undefined) return undefined;
    const out = [`mocha: ${counts.passing ?? '0'} passing, ${counts.failing ?? '0'} failing, ${counts.pending ?? '0'} pending (${exitText(exitCode)})`];
    if (failuresAt >= 0) {
      let shown = 0;
      let i = failuresAt + 1;
      while (i < lines.length) {
        const start = /^ {2}(\d+)\) (.*)$/.exec(lines[i] ?? '');
        if (!start) {
          i++;
          continue;
        }
        const title = [start[2] ?? ''];
        i++;
        // The title continues, indented, until a line ending in ':' (mocha's title terminator).
        while (i < lines.length && !(title[title.length - 1] ?? '').endsWith(':') && (lines[i] ?? '').trim() !== '') title.push((lines[i++] ?? '').trim());
        const error: string[] = [];
        let at: string | undefined;
        while (i < lines.length && !/^ {2}\d+\) /.test(lines[i] ?? '')) {
          const text = (lines[i++] ?? '').trim();
          if (text === '' || text === '+ expected - actual' || /^[+-]/.test(text)) continue;
          if (text.startsWith('at ')) at ??= text;
          else if (error.length < MAX_ERROR_LINES && at === undefined) error.push(text);
        }
        if (shown++ < MAX_FAILURES) {
          out.push(`${start[1]}) ${title.join(' ').replace(/:$/, '')}`, ...error.map((l) => `   ${l}`), ...(at ? [`   ${at}`] : []));
        }
      }
      if (shown > MAX_FAILURES) out.push(`… ${shown - MAX_FAILURES} more failures`);
    }
    return out.join('\n');
  },
};

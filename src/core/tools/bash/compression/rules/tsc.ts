import { bounded, exitText, linesOf, plural, type CompressionRule } from '../types';

const MAX_ERRORS = 50;
/** `file(line,col): error TSxxxx: message` (plain) or `file:line:col - error TSxxxx: message` (pretty). */
const PLAIN = /^(.+)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;
const PRETTY = /^(.+):(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/;

/** `tsc …` and `npx tsc …` (not `--watch`, `--init`, `--help`, `--version`). */
export const tsc: CompressionRule = {
  name: 'tsc',
  matches(words) {
    const rest = words[0] === 'npx' ? words.slice(1) : words;
    return rest[0] === 'tsc' && !rest.some((w) => ['--watch', '-w', '--init', '--help', '-h', '--version', '-v', '--showConfig'].includes(w));
  },
  summarize(output, exitCode) {
    const byFile = new Map<string, string[]>();
    let count = 0;
    for (const line of linesOf(output)) {
      // eslint-disable-next-line no-control-regex
      const m = PLAIN.exec(line) ?? PRETTY.exec(line.replace(/\u001b\[[0-9;]*m/g, ''));
      if (!m) continue;
      const [, file = '', row, col, level, code, message] = m;
      count++;
      const list = byFile.get(file) ?? [];
      list.push(`(${row},${col}) ${level === 'warning' ? 'warning ' : ''}${code}: ${message}`);
      byFile.set(file, list);
    }
    if (count === 0) return exitCode === 0 ? `tsc: no errors (${exitText(exitCode)})` : undefined;
    const out = [`tsc: ${plural(count, 'error')} in ${plural(byFile.size, 'file')} (${exitText(exitCode)})`];
    let budget = MAX_ERRORS;
    for (const [file, list] of byFile) {
      if (budget <= 0) {
        out.push(`… more errors in ${plural(byFile.size - [...byFile.keys()].indexOf(file), 'file')}`);
        break;
      }
      out.push(file, ...bounded(list, budget));
      budget -= list.length;
    }
    return out.join('\n');
  },
};

import { bounded, exitText, linesOf, type CompressionRule } from '../types';

const MAX_FAILURES = 20;
const MAX_ASSERTION_LINES = 4;

/** `pytest …`, `py.test …`, `python -m pytest …`, `python3 -m pytest …`. */
export const pytest: CompressionRule = {
  name: 'pytest',
  matches(words) {
    const rest = /^python(3(\.\d+)?)?$/.test(words[0] ?? '') && words[1] === '-m' ? words.slice(2) : words;
    return (rest[0] === 'pytest' || rest[0] === 'py.test') && !rest.some((w) => ['--help', '-h', '--version', '-V', '--collect-only', '--co'].includes(w));
  },
  summarize(output, exitCode) {
    const lines = linesOf(output);
    const summaryPattern = /^=*\s*((\d+ (passed|failed|skipped|errors?|xfailed|xpassed|warnings?|deselected)(, )?)+ in [\d.]+s( \([^)]*\))?)\s*=*$/;
    const summary = [...lines].reverse().map((l) => summaryPattern.exec(l)?.[1]).find((s) => s !== undefined)
      ?? [...lines].reverse().find((l) => /^=+ no tests ran/.test(l))?.replace(/^=+\s*|\s*=+$/g, '');
    if (summary === undefined) return undefined;
    const failed = lines.filter((l) => /^(FAILED|ERROR) /.test(l));
    // The E lines and the `file:line: Error` line of each failure section (`____ name ____`).
    const details: string[] = [];
    let section: string | undefined;
    let evidence: string[] = [];
    const flush = (): void => {
      if (section !== undefined && evidence.length) details.push(`${section}:`, ...evidence.map((l) => `  ${l}`));
      evidence = [];
    };
    for (const line of lines) {
      const head = /^_{3,} (.+?) _{3,}$/.exec(line);
      if (head?.[1]) {
        flush();
        section = head[1];
      } else if (/^=+ /.test(line)) {
        flush();
        section = undefined;
      } else if (section !== undefined) {
        if (line.startsWith('E ') && evidence.filter((l) => l.startsWith('E ')).length < MAX_ASSERTION_LINES) evidence.push(line.replace(/^E\s+/, 'E '));
        else if (/^\S+:\d+: \w+/.test(line)) evidence.push(line);
      }
    }
    flush();
    // The duration is dropped so the same results always give the same summary.
    return [
      `pytest: ${summary.replace(/ in [\d.]+s( \([^)]*\))?$/, '')} (${exitText(exitCode)})`,
      ...bounded(failed, MAX_FAILURES, ''),
      ...details.slice(0, MAX_FAILURES * (MAX_ASSERTION_LINES + 2)),
    ].join('\n');
  },
};

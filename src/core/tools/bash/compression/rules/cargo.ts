import { bounded, exitText, linesOf, plural, type CompressionRule } from '../types';

const MAX_DIAGNOSTICS = 30;
const MAX_FAILURES = 20;
const MAX_PANIC_LINES = 6;

/** `cargo SUBCOMMAND …`, skipping a `+toolchain` word. */
function cargoSubcommand(words: readonly string[]): string | undefined {
  if (words[0] !== 'cargo') return undefined;
  return words[1]?.startsWith('+') ? words[2] : words[1];
}

interface Diagnostics { errors: number; warnings: number; lines: string[]; failures: string[] }

/**
 * rustc's diagnostics in cargo's human output: each `error[CODE]: message` or `warning: message`
 * with the location from its ` --> file:line:col` line and, for a warning, the lint named in its
 * `#[warn(lint)]` note. Cargo's "Compiling/Checking/Finished" progress and rustc's source excerpts
 * are dropped; `could not compile` lines are kept as they are.
 */
function diagnostics(lines: readonly string[]): Diagnostics {
  const found: Diagnostics = { errors: 0, warnings: 0, lines: [], failures: [] };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const head = /^(error|warning)(\[(\w+)\])?: (.*)$/.exec(line);
    if (!head) continue;
    const [, level = '', , code, message = ''] = head;
    if (/^`[^`]+` \(.*\) generated \d+ warnings?/.test(message) || /^\d+ warnings? emitted/.test(message)) continue;
    if (level === 'error' && /^(could not compile|test failed|aborting due to)/.test(message)) {
      found.failures.push(line);
      continue;
    }
    let location: string | undefined;
    let lint: string | undefined;
    for (let j = i + 1; j < lines.length && j < i + 40; j++) {
      const next = lines[j] ?? '';
      if (next === '' || /^(error|warning)(\[\w+\])?: /.test(next)) break;
      const at = /^\s*--> (.*)$/.exec(next);
      if (at && location === undefined) location = at[1];
      const note = /#\[(?:warn|deny)\(([\w:]+)\)\]/.exec(next);
      if (note && lint === undefined) lint = note[1];
    }
    if (location === undefined && level === 'error' && /^(could not|failed to)/.test(message)) {
      found.failures.push(line);
      continue;
    }
    if (level === 'error') found.errors++;
    else found.warnings++;
    const tag = code ? `${level}[${code}]` : lint ? `${level}[${lint}]` : level;
    found.lines.push(`${tag}: ${message}${location ? ` at ${location}` : ''}`);
  }
  return found;
}

/** `cargo check` (and `cargo clippy`, same output): errors and warnings with codes and locations. */
export const cargoCheck: CompressionRule = {
  name: 'cargo-check',
  matches: (words) => ['check', 'c', 'clippy'].includes(cargoSubcommand(words) ?? ''),
  summarize(output, exitCode) {
    const lines = linesOf(output);
    if (!lines.some((l) => /^\s*(Checking|Compiling|Finished|Blocking|Updating|Locking)\b/.test(l) || /^(error|warning)/.test(l))) return undefined;
    const found = diagnostics(lines);
    const verdict = exitCode === 0 ? 'ok' : 'failed';
    return [
      `cargo check: ${verdict} (${exitText(exitCode)}): ${plural(found.errors, 'error')}, ${plural(found.warnings, 'warning')}`,
      ...bounded(found.lines, MAX_DIAGNOSTICS, ''),
      ...found.failures,
    ].join('\n');
  },
};

/** `cargo test`: result lines, failing tests with their panic messages, totals. */
export const cargoTest: CompressionRule = {
  name: 'cargo-test',
  matches: (words) => ['test', 't'].includes(cargoSubcommand(words) ?? ''),
  summarize(output, exitCode) {
    const lines = linesOf(output);
    const totals = { passed: 0, failed: 0, ignored: 0, measured: 0, 'filtered out': 0 };
    const results: string[] = [];
    const failed: string[] = [];
    const panics = new Map<string, string[]>();
    let current: string | undefined;
    for (const line of lines) {
      const result = /^test result: (\w+)\. (.*?)(; finished in .*)?$/.exec(line);
      if (result) {
        results.push(line.replace(/; finished in .*$/, ''));
        for (const part of (result[2] ?? '').split('; ')) {
          const m = /^(\d+) (passed|failed|ignored|measured|filtered out)$/.exec(part);
          if (m) totals[m[2] as keyof typeof totals] += Number(m[1]);
        }
        current = undefined;
        continue;
      }
      const fail = /^test (\S+) \.\.\. FAILED$/.exec(line);
      if (fail?.[1]) failed.push(fail[1]);
      const section = /^---- (\S+) stdout ----$/.exec(line);
      if (section?.[1]) {
        current = section[1];
        panics.set(current, []);
        continue;
      }
      if (current === undefined) continue;
      if (line === 'failures:' || /^note: run with `RUST_BACKTRACE/.test(line) || line.startsWith('stack backtrace:')) {
        current = undefined;
        continue;
      }
      const panic = panics.get(current);
      if (panic && line !== '' && panic.length < MAX_PANIC_LINES) panic.push(line.replace(/^thread '[^']*' \(\d+\) /, '').replace(/^thread '[^']*' /, ''));
    }
    const compile = diagnostics(lines);
    if (results.length === 0 && compile.lines.length === 0) return undefined;
    const verdict = exitCode === 0 ? 'ok' : 'FAILED';
    const out = results.length === 0
      ? [`cargo test: did not compile (${exitText(exitCode)}): ${plural(compile.errors, 'error')}`]
      : [`cargo test: ${verdict} (${exitText(exitCode)}): ${totals.passed} passed, ${totals.failed} failed, ${totals.ignored} ignored, ${totals['filtered out']} filtered out in ${plural(results.length, 'test binary', 'test binaries')}`];
    if (compile.errors > 0) {
      if (results.length > 0) out.push(`compile: ${plural(compile.errors, 'error')}`);
      out.push(...bounded(compile.lines.filter((l) => l.startsWith('error')), MAX_DIAGNOSTICS, results.length > 0 ? '  ' : ''));
    }
    if (failed.length) out.push('failed tests:');
    for (const name of failed.slice(0, MAX_FAILURES)) {
      out.push(`  ${name}`, ...(panics.get(name) ?? []).map((l) => `    ${l}`));
    }
    if (failed.length > MAX_FAILURES) out.push(`  … ${failed.length - MAX_FAILURES} more`);
    out.push(...results, ...compile.failures);
    return out.join('\n');
  },
};

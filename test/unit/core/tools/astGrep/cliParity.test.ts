import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { LanguageId } from '../../../../../src/core/tools/astGrep/languages';
import { runSearch } from '../../../../../src/core/tools/astGrep/search';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

/**
 * `ast_grep` search against the real ast-grep CLI (the dev dependency @ast-grep/cli, the same
 * ast-grep version as @ast-grep/napi): the same files — a copy of this repository's src/ and the
 * fixtures of every language, in a temp folder without ignore files — the same pattern, and the
 * same (path, line, text) rows, match count and rewrite previews.
 */
const REPO = path.resolve(__dirname, '..', '..', '..', '..', '..');
const CLI = path.join(REPO, 'node_modules', '.bin', 'ast-grep');
const FIXTURES = path.join(__dirname, 'fixtures');
const LIMIT = 500;

interface CliMatch {
  file: string;
  text: string;
  lines: string;
  replacement?: string;
  range: { byteOffset: { start: number; end: number }; start: { line: number }; end: { line: number } };
}

interface Case {
  pattern: string;
  /** Folder under the workspace; the CLI gets the same folder. */
  path: string;
  language?: LanguageId;
  rewrite?: string;
}

const CASES: Case[] = [
  // TypeScript: this repository's sources.
  { pattern: 'new ToolError($$$ARGS)', path: 'src' },
  { pattern: 'if ($A) { return $B; }', path: 'src' },
  { pattern: 'throw new Error($MSG)', path: 'src', language: 'typescript' },
  { pattern: '$A ?? $B', path: 'src/core/tools' },
  { pattern: 'for (const $X of $Y) { $$$BODY }', path: 'src/core/tools/grep' },
  { pattern: 'eval($CODE)', path: 'src' },
  // Each language with `language` given.
  { pattern: 'Ok($A)', path: 'fixtures/rust', language: 'rust' },
  { pattern: 'let $A = $B;', path: 'fixtures/rust', language: 'rust' },
  { pattern: 'fn $F($$$P) -> $R { $$$B }', path: 'fixtures/rust', language: 'rust' },
  { pattern: 'write!($$$A)', path: 'fixtures/rust', language: 'rust' },
  { pattern: '$A == $B', path: 'fixtures/rust', language: 'rust' },
  { pattern: 'match $X { $$$ARMS }', path: 'fixtures/rust', language: 'rust' },
  { pattern: 'impl $T for $U { $$$B }', path: 'fixtures/rust', language: 'rust' },
  { pattern: '$X?', path: 'fixtures/rust', language: 'rust' },
  { pattern: 'raise $E', path: 'fixtures/python', language: 'python' },
  { pattern: 'def $F($$$P): $$$B', path: 'fixtures/python', language: 'python' },
  { pattern: 'self.$F = $V', path: 'fixtures/python', language: 'python' },
  { pattern: 'try: $$$A', path: 'fixtures/python', language: 'python' },
  { pattern: 'if err != nil { $$$B }', path: 'fixtures/go', language: 'go' },
  { pattern: 'defer $A', path: 'fixtures/go', language: 'go' },
  { pattern: 'func ($R $T) $M($$$P) $RET { $$$B }', path: 'fixtures/go', language: 'go' },
  { pattern: 'go func($$$P) { $$$B }($$$A)', path: 'fixtures/go', language: 'go' },
  { pattern: 'throw LibraryException($$$A)', path: 'fixtures/kotlin', language: 'kotlin' },
  { pattern: 'val $A = $B', path: 'fixtures/kotlin', language: 'kotlin' },
  { pattern: 'if ($C) { $$$B }', path: 'fixtures/kotlin', language: 'kotlin' },
  { pattern: 'listOf($$$A)', path: 'fixtures/kotlin', language: 'kotlin' },
  { pattern: 'fun $F($$$P): $R = $E', path: 'fixtures/kotlin', language: 'kotlin' },
  { pattern: 'throw new OrderException($$$A)', path: 'fixtures/java', language: 'java' },
  { pattern: 'System.out.println($A)', path: 'fixtures/java', language: 'java' },
  { pattern: 'return $A;', path: 'fixtures/java', language: 'java' },
  { pattern: 'for ($T $X : $Y) { $$$B }', path: 'fixtures/java', language: 'java' },
  { pattern: 'guard $C else { $$$B }', path: 'fixtures/swift', language: 'swift' },
  { pattern: 'print($$$A)', path: 'fixtures/swift', language: 'swift' },
  { pattern: 'let $A = $B', path: 'fixtures/swift', language: 'swift' },
  { pattern: 'func $F($$$P) -> $R { $$$B }', path: 'fixtures/swift', language: 'swift' },
  { pattern: 'useState($A)', path: 'fixtures/tsx', language: 'tsx' },
  { pattern: 'useEffect(() => { $$$B }, [$$$D])', path: 'fixtures/tsx', language: 'tsx' },
  { pattern: '<button $$$P>$$$C</button>', path: 'fixtures/tsx', language: 'tsx' },
  { pattern: 'console.log($$$A)', path: 'fixtures/javascript', language: 'javascript' },
  { pattern: 'async ($$$P) => { $$$B }', path: 'fixtures/javascript', language: 'javascript' },
  { pattern: 'class $C extends $B { $$$M }', path: 'fixtures/javascript', language: 'javascript' },
  // Languages inferred from extensions in one mixed folder.
  { pattern: 'print($$$A)', path: 'fixtures' },
  { pattern: 'console.log($$$A)', path: 'fixtures' },
  { pattern: 'throw $E', path: 'fixtures' },
  { pattern: '$A.map($B)', path: 'fixtures' },
  { pattern: 'defer $A', path: 'fixtures' },
  { pattern: 'dispatch({ type: $T, $$$R })', path: 'fixtures' },
  // Rewrite previews.
  { pattern: 'console.log($$$A)', rewrite: 'logger.info($$$A)', path: 'fixtures/javascript' },
  { pattern: 'json($C, $S, $B)', rewrite: 'respond(\n  $C,\n  $B,\n)', path: 'fixtures/javascript' },
  { pattern: 'router.get($P, $H)', rewrite: 'app.get(\n  $P,\n      $H,\n)', path: 'fixtures/javascript' },
  { pattern: 'dispatch($A)', rewrite: 'send($A)', path: 'fixtures/tsx' },
  { pattern: 'if err != nil { $$$B }', rewrite: 'if err != nil {\n\tlog.Print(err)\n\t$$$B\n}', path: 'fixtures/go' },
  { pattern: 'def $F($$$P): $$$B', rewrite: 'async def $F($$$P):\n    $$$B', path: 'fixtures/python' },
  { pattern: 'Ok($A)', rewrite: 'Result::Ok($A)', path: 'fixtures/rust', language: 'rust' },
  { pattern: 'new ToolError($$$ARGS)', rewrite: 'toolError($$$ARGS)', path: 'src/core/tools' },
];

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function cliRun(args: string[], cwd: string): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(CLI, args, { cwd, maxBuffer: 1 << 28 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw err;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The CLI's matches; it exits with 1 when there are none, like grep. */
async function cli(args: string[], cwd: string): Promise<CliMatch[]> {
  const run = await cliRun(args, cwd);
  if (run.code > 1) throw new Error(`ast-grep ${args.join(' ')} exited with ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as CliMatch[];
}

/** Our rows, without the notes. */
function searchRows(result: ToolResult): string[] {
  return result.content.split('\n').filter((line) => /^[^[].*?:\d+:/.test(line));
}

/** The CLI's matches expanded to one `path:line:text` row per line. */
function cliRows(matches: CliMatch[]): string[] {
  return matches.flatMap((m) => {
    const lines = m.lines.split('\n');
    assert.equal(lines.length, m.range.end.line - m.range.start.line + 1, `lines of ${m.file}:${m.range.start.line + 1}`);
    return lines.map((text, i) => `${m.file}:${m.range.start.line + 1 + i}:${text}`);
  });
}

/** Our previews, one string per match: header, - lines, + lines. */
function previewBlocks(result: ToolResult): string[] {
  const blocks: string[][] = [];
  for (const line of result.content.split('\n')) {
    if (/^[^-+[].*:\d+: bytes \[\d+, \d+\)$/.test(line)) blocks.push([line]);
    else if (/^[-+]/.test(line)) blocks[blocks.length - 1]?.push(line);
  }
  return blocks.map((b) => b.join('\n'));
}

/** What applying each CLI replacement to the file gives, in the same preview form. */
async function cliBlocks(root: string, matches: CliMatch[]): Promise<string[]> {
  const blocks: string[] = [];
  for (const m of matches) {
    const source = await fsp.readFile(path.join(root, m.file));
    const { start, end } = m.range.byteOffset;
    const lineStart = source.lastIndexOf(10, start - 1) + 1;
    // A match ending at the start of a line does not take that line.
    const endsLine = end > start && source[end - 1] === 10;
    const next = source.indexOf(10, end);
    const lineEnd = endsLine ? end - 1 : next === -1 ? source.length : next;
    const text = (from: number, to: number) => source.subarray(from, Math.max(from, to)).toString('utf8');
    const removed = text(lineStart, lineEnd).split('\n');
    const added = (text(lineStart, start) + (m.replacement ?? '') + text(end, lineEnd)).split('\n');
    blocks.push([`${m.file}:${m.range.start.line + 1}: bytes [${start}, ${end})`, ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)].join('\n'));
  }
  return blocks;
}

const sorted = (items: string[]) => [...items].sort();

describe('ast_grep search matches the ast-grep CLI', function () {
  this.timeout(20_000);
  let ws: TempWorkspace;

  before(async () => {
    ws = await tempWorkspace();
    await fsp.cp(path.join(REPO, 'src'), path.join(ws.root, 'src'), { recursive: true });
    await fsp.cp(FIXTURES, path.join(ws.root, 'fixtures'), { recursive: true });
  });
  after(() => ws.cleanup());

  const search = (c: Case) =>
    runSearch({ pattern: c.pattern, rewrite: c.rewrite, path: c.path, language: c.language, limit: LIMIT }, { runtime: ws.runtime, signal: new AbortController().signal, replay: false });
  const cliArgs = (c: Case) => ['run', '-p', c.pattern, ...(c.rewrite !== undefined ? ['-r', c.rewrite] : []), ...(c.language ? ['-l', c.language] : []), '--json=compact', c.path];

  for (const c of CASES) {
    const title = `${c.rewrite !== undefined ? 'rewrite' : 'search'} ${JSON.stringify(c.pattern)}${c.rewrite !== undefined ? ` → ${JSON.stringify(c.rewrite)}` : ''} in ${c.path}${c.language ? ` (${c.language})` : ''}`;
    it(title, async () => {
      const [ours, theirs] = await Promise.all([search(c), cli(cliArgs(c), ws.root)]);
      assert.equal(ours.status, 'success', ours.content);
      assert.equal(ours.metadata.truncated, false, 'the case must stay under the limit to compare counts');
      assert.equal(ours.metadata.matches, theirs.length);
      if (c.rewrite === undefined) {
        assert.deepEqual(sorted(searchRows(ours)), sorted(cliRows(theirs)));
        if (theirs.length === 0) assert.match(ours.content, /^No matches for the pattern/);
      } else {
        assert.deepEqual(sorted(previewBlocks(ours)), sorted(await cliBlocks(ws.root, theirs)));
      }
    });
  }

  it('covers every language, with and without `language`, multi-line matches and no matches', () => {
    assert.ok(new Set(CASES.map((c) => c.pattern)).size >= 25);
    for (const language of ['rust', 'python', 'go', 'kotlin', 'java', 'swift', 'tsx', 'javascript'] as const) {
      assert.ok(CASES.filter((c) => c.language === language && c.rewrite === undefined).length >= 2, language);
    }
  });

  it('a pattern that cannot compile for some languages of a mixed folder: partial, naming them, where the CLI rejects it or finds nothing', async () => {
    const ours = await search({ pattern: 'throw $E', path: 'fixtures' });
    assert.equal(ours.metadata.partial, true);
    const failed = [...(ours.metadata.pattern_failed_languages as string[])].sort();
    assert.deepEqual(failed, ['go', 'python', 'rust', 'swift']);
    assert.match(ours.content, /\[partial: 1 swift file\(s\) not searched: .*Multiple AST nodes/);
    for (const language of failed) {
      const run = await cliRun(['run', '-p', 'throw $E', '-l', language, '--json=compact', `fixtures/${language}`], ws.root);
      const rejected = run.code === 8 && /Cannot parse query as a valid pattern/.test(run.stderr);
      const foundNothing = run.code <= 1 && (JSON.parse(run.stdout) as unknown[]).length === 0 && /Pattern contains an ERROR node/.test(run.stderr);
      assert.ok(rejected || foundNothing, `${language}: exit ${run.code}, ${run.stderr}`);
    }
  });

  it('Kotlin differs only where @ast-grep/lang-kotlin parses `null` as an anonymous token (the CLI has a named null_literal)', async () => {
    const c: Case = { pattern: '$A == $B', path: 'fixtures/kotlin', language: 'kotlin' };
    const [ours, theirs] = await Promise.all([search(c), cli(cliArgs(c), ws.root)]);
    const withoutNull = theirs.filter((m) => !/ == null$/.test(m.text));
    assert.ok(withoutNull.length > 0 && withoutNull.length < theirs.length);
    assert.equal(ours.metadata.matches, withoutNull.length);
    assert.deepEqual(sorted(searchRows(ours)), sorted(cliRows(withoutNull)));
  });
});

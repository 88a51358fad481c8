/**
 * `ast_grep` against the ast-grep CLI (the dev dependency @ast-grep/cli, same ast-grep version as
 * the embedded @ast-grep/napi) over a large real tree: the JavaScript/TypeScript files of several
 * installed packages, copied into a temp folder without ignore files so both tools see the same
 * files. Only files both tools search whole are copied: at most 256 KiB, valid UTF-8 and within
 * the syntax-tree limits (a file past them is skipped by ast_grep, searched by the CLI).
 *  - search: runSearch in process (modules loaded, a fresh runtime per run, so the walk is
 *    included) against `ast-grep run -p P --json=compact DIR` as a whole process, all threads and
 *    one thread (`-j 1`); runSearch is given an unbounded internal limit so both do the whole
 *    scan and their match counts can be compared, and is also timed at the tool's limit of 500;
 *  - outline: runOutline over the whole tree (a symbol_type that selects nothing, so every file is
 *    outlined and the output cap never stops it) against `ast-grep scan --inline-rules` with rules
 *    for top-level declarations and class members.
 * Every figure is a median of RUNS runs. Numbers are reported, never asserted.
 * Run with `npx tsx bench/astGrep.ts`.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { treeComplexity } from '../src/core/tools/astGrep/complexity';
import { MAX_FILE_BYTES } from '../src/core/tools/astGrep/limits';
import { runOutline } from '../src/core/tools/astGrep/outline/run';
import { runSearch } from '../src/core/tools/astGrep/search';
import { repoMapTool } from '../src/core/tools/repoMap';
import type { ToolResult } from '../src/core/tools/result';
import { ToolRuntime } from '../src/core/tools/runtime';
import { median, processTime, timed } from './measure';

const RUNS = Number(process.env.MAGI_BENCH_RUNS ?? 3);
const REPO = path.resolve(__dirname, '..');
const CLI = path.join(REPO, 'node_modules', '.bin', 'ast-grep');
const PACKAGES = ['zod', 'undici', 'mocha', 'eslint', '@typescript-eslint', 'ajv', 'lodash', 'typescript', '@vscode', 'markdown-it', '@eslint'];
const EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);
const MAX_CORPUS_FILES = 6_000;

const SEARCHES: { label: string; pattern: string; rewrite?: string }[] = [
  { label: 'selective', pattern: 'console.log($A)' },
  { label: 'unselective', pattern: '$A === $B' },
  { label: 'multi-line', pattern: 'try { $$$A } catch ($E) { $$$B }' },
  { label: 'rewrite', pattern: 'require($A)', rewrite: 'await import($A)' },
];

const OUTLINE_RULES = ['TypeScript', 'JavaScript']
  .map((language) =>
    [
      `id: outline-${language}`,
      `language: ${language}`,
      'rule:',
      '  any:',
      '    - all:',
      '        - any: [{ kind: function_declaration }, { kind: class_declaration }, { kind: lexical_declaration }, { kind: variable_declaration }, { kind: export_statement }, { kind: import_statement }'
        + (language === 'TypeScript' ? ', { kind: interface_declaration }, { kind: type_alias_declaration }, { kind: enum_declaration }, { kind: module }' : '')
        + ']',
      '        - inside: { kind: program }',
      '    - all:',
      `        - any: [{ kind: method_definition }, { kind: ${language === 'TypeScript' ? 'public_field_definition' : 'field_definition'} }]`,
      '        - inside: { kind: class_body }',
    ].join('\n'),
  )
  .join('\n---\n');

/** Copies every eligible file of the packages into `dest`, keeping each package's layout; returns the count. */
async function buildCorpus(dest: string): Promise<{ files: number; bytes: number }> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let files = 0;
  let bytes = 0;
  const visit = async (dir: string, rel: string): Promise<void> => {
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      if (files >= MAX_CORPUS_FILES) return;
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const abs = path.join(dir, entry.name);
      const relPath = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        await visit(abs, relPath);
        continue;
      }
      if (!entry.isFile() || !EXTENSIONS.has(path.extname(entry.name))) continue;
      const content = await fsp.readFile(abs);
      if (content.length > MAX_FILE_BYTES) continue;
      let text: string;
      try {
        text = utf8.decode(content);
      } catch {
        continue; // not UTF-8: ast_grep skips it, so it is left out of the shared corpus
      }
      if (!treeComplexity(text).ok) continue;
      await fsp.mkdir(path.join(dest, rel), { recursive: true });
      await fsp.writeFile(path.join(dest, relPath), content);
      files++;
      bytes += content.length;
    }
  };
  for (const pkg of PACKAGES) {
    const dir = path.join(REPO, 'node_modules', pkg);
    await fsp.access(dir).then(() => visit(dir, pkg), () => undefined);
  }
  return { files, bytes };
}

const fresh = async (root: string) => ({ runtime: await ToolRuntime.create({ root }), signal: new AbortController().signal, replay: false });

async function timeOurs(runs: number, call: () => Promise<ToolResult>): Promise<{ ms: number; result: ToolResult }> {
  const times: number[] = [];
  let result: ToolResult | undefined;
  for (let i = 0; i < runs; i++) {
    const [ms, value] = await timed(call);
    if (value.status !== 'success') throw new Error(value.content.slice(-500));
    times.push(ms);
    result = value;
  }
  return { ms: median(times), result: result as ToolResult };
}

const count = (stdout: string) => (JSON.parse(stdout === '' ? '[]' : stdout) as unknown[]).length;

async function main(): Promise<void> {
  const root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-bench-astgrep-')));
  try {
    const corpus = await buildCorpus(root);
    console.log(`corpus: ${corpus.files} files, ${(corpus.bytes / 1024 / 1024).toFixed(1)} MiB from node_modules/{${PACKAGES.join(',')}}; ${os.cpus().length} CPU(s); ${RUNS} run(s) each, medians`);
    const walked = await runSearch({ pattern: 'console.log($A)', rewrite: undefined, path: undefined, language: undefined, limit: 1 }, await fresh(root));
    console.log(`ast_grep sees ${walked.metadata.files} candidate files (warm-up run)`);

    const rows: string[][] = [['operation', 'pattern', 'ours ms', 'ours@500 ms', 'CLI ms', 'CLI -j1 ms', 'ours/CLI', 'ours/CLI -j1', 'matches ours', 'matches CLI']];
    for (const { label, pattern, rewrite } of SEARCHES) {
      const request = { pattern, rewrite, path: undefined, language: undefined };
      const whole = await timeOurs(RUNS, async () => runSearch({ ...request, limit: Number.MAX_SAFE_INTEGER }, await fresh(root)));
      const limited = await timeOurs(RUNS, async () => runSearch({ ...request, limit: 500 }, await fresh(root)));
      const args = ['run', '-p', pattern, ...(rewrite !== undefined ? ['-r', rewrite] : []), '--json=compact', '.'];
      let cliMatches = 0;
      const cliMs = processTime(RUNS, CLI, args, root, (stdout) => {
        cliMatches = count(stdout);
      });
      const cliOneMs = processTime(RUNS, CLI, [...args.slice(0, -1), '-j', '1', '.'], root);
      console.error(`… ${label} done`);
      rows.push([
        `search (${label})`,
        rewrite === undefined ? pattern : `${pattern} → ${rewrite}`,
        whole.ms.toFixed(0),
        limited.ms.toFixed(0),
        cliMs.toFixed(0),
        cliOneMs.toFixed(0),
        (whole.ms / cliMs).toFixed(2),
        (whole.ms / cliOneMs).toFixed(2),
        String(whole.result.metadata.matches) + (whole.result.metadata.matches === cliMatches ? '' : ' (differs)'),
        String(cliMatches),
      ]);
    }

    const outlineRequest = { items: 'structure', view: 'digest', symbolTypes: new Set(['macro']), pubMembers: false, limit: 500 } as const;
    const outline = await timeOurs(RUNS, async () => runOutline(outlineRequest, await fresh(root)));
    const outlineDefault = await timeOurs(RUNS, async () => runOutline({ ...outlineRequest, symbolTypes: undefined }, await fresh(root)));
    let cliDeclarations = 0;
    // One short line per match: JSON would carry each declaration's whole text (hundreds of MiB here).
    const scanArgs = ['scan', '--inline-rules', OUTLINE_RULES, '--report-style', 'short', '--color', 'never', '.'];
    const scanMs = processTime(RUNS, CLI, scanArgs, root, (stdout) => {
      cliDeclarations = stdout.split('\n').filter((line) => line !== '').length;
    });
    const scanOneMs = processTime(RUNS, CLI, [...scanArgs.slice(0, -1), '-j', '1', '.'], root);
    rows.push([
      'outline (whole tree)',
      'top-level declarations + class members',
      outline.ms.toFixed(0),
      outlineDefault.ms.toFixed(0),
      scanMs.toFixed(0),
      scanOneMs.toFixed(0),
      (outline.ms / scanMs).toFixed(2),
      (outline.ms / scanOneMs).toFixed(2),
      `${outline.result.metadata.files} files`,
      `${cliDeclarations} nodes`,
    ]);

    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
    for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  '));
    console.log('ours@500: search at the tool\'s limit of 500 lines (stops early); for outline, the default call (stops at 500 entries or the 64 KiB output cap).');

    // repo_map has no CLI counterpart: its time on the same tree, a fresh runtime each run (no reuse).
    const map = await timeOurs(RUNS, async () => repoMapTool.execute({ maxTokens: 4096 }, await fresh(root)));
    const m = map.result.metadata;
    console.log(`repo_map over the same tree: ${map.ms.toFixed(0)} ms (files scanned ${m.files_scanned}, mapped ${m.files_mapped}, symbols ${m.symbols}, ${m.tokens_estimated} tokens, partial ${m.partial})`);
  } finally {
    await fsp.rm(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

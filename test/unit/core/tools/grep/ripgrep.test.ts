/**
 * grep in raw mode against ripgrep: the same (path, line) matches on generated trees and on this
 * repository, for literal and regex patterns. ripgrep runs with its default skip rules (hidden,
 * .gitignore, .ignore, binary, symlinks not followed) plus `-g '!target'` for grep's own rule.
 * Dialect: our \w \d \b are ASCII, so ripgrep gets the ASCII spelling of those patterns.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { disposeSharedWorkerPool } from '../../../../../src/core/tools/grep/workers';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

type Run = (tool: string, args: unknown) => Promise<ToolResult>;

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;

/** ripgrep's matches as `path:line`, paths relative to `cwd` with `/`. */
function ripgrep(cwd: string, pattern: string, dirs: string[]): string[] {
  const run = spawnSync('rg', ['--no-config', '--no-heading', '-n', '--null', '--color', 'never', '-g', '!target', '-e', pattern, '--', ...dirs], { cwd, maxBuffer: 1 << 28 });
  if (run.status !== 0 && run.status !== 1) throw new Error(`rg failed: ${run.stderr.toString()}`);
  const out: string[] = [];
  for (const line of run.stdout.toString('utf8').split('\n')) {
    if (line === '') continue;
    const nul = line.indexOf('\0');
    const file = line.slice(0, nul).replace(/^\.\//, '');
    out.push(`${file}:${line.slice(nul + 1, line.indexOf(':', nul))}`);
  }
  return out.sort();
}

/** Our raw-mode matches as `path:line`, paging with offset until has_more is false. */
async function ours(run: Run, pattern: string, dir?: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; ) {
    const result = await run('grep', { patterns: [pattern], mode: 'raw', limit: 1000, offset, ...(dir ? { path: dir } : {}) });
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.metadata.scan_complete, true);
    for (const row of result.content.split('\n')) {
      const m = /^(.+?):(\d+):/.exec(row);
      if (m && !row.startsWith('[')) out.push(`${m[1]}:${m[2]}`);
    }
    if (result.metadata.has_more !== true) break;
    offset = result.metadata.next_offset as number;
  }
  return out.sort();
}

/** [our pattern, ripgrep's spelling of it]. */
const PATTERNS: [string, string][] = [
  ['needle', 'needle'],
  ['fn main', 'fn main'],
  ['é', 'é'],
  ['日本', '日本'],
  ['^import', '^import'],
  ['foo$', 'foo$'],
  ['fn\\s+\\w+\\(', 'fn\\s+[0-9A-Za-z_]+\\('],
  ['\\bword\\b', '(?-u:\\b)word(?-u:\\b)'],
  ['[0-9]{3,}', '[0-9]{3,}'],
  ['a.c', 'a.c'],
  ['(foo|bar)baz', '(foo|bar)baz'],
  ['^\\s*$', '^\\s*$'],
  ['\\d+\\.\\d+', '[0-9]+\\.[0-9]+'],
  ['needle|import', 'needle|import'],
  ['zzz_absent', 'zzz_absent'],
  ['^.{12}$', '^.{12}$'],
];

/** A deterministic pseudo-random source. */
function prng(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

async function generatedTree(ws: TempWorkspace): Promise<void> {
  const rnd = prng(7);
  const words = ['needle', 'word', 'words', 'sword', 'import x', 'foo', 'foobaz', 'barbaz', 'abc', 'a-c', '12.5', '2024', 'é', 'naïve', '日本語', 'fn main() {', 'fn helper_1(x)', '', '   '];
  const line = (): string => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  const tree: Record<string, string | Buffer> = {
    'src/main.rs': 'fn main() {\n    println!("needle");\n}\n',
    'pkg/.gitignore': '*.gen\n!keep.gen\n/anchored.txt\nbuild/\n',
    'pkg/a.gen': 'needle\n',
    'pkg/keep.gen': 'needle\n',
    'pkg/anchored.txt': 'needle\n',
    'pkg/sub/anchored.txt': 'needle\n',
    'pkg/build/x.txt': 'needle\n',
    'pkg/sub/build/y.txt': 'needle\n',
    'pkg/sub/.ignore': 'secret.txt\n',
    'pkg/sub/secret.txt': 'needle\n',
    'target/debug/out.rs': 'fn main() { needle }\n',
    'crate/target/x.rs': 'needle\n',
    'crate/src/lib.rs': 'fn helper_1(x) -> u8 { 12.5 }\n',
    'docs/ünïcödé.md': 'naïve needle é\n日本語 word\n',
    'docs/日本語.txt': '日本\nfoo\n',
    'docs/emoji😀.txt': '😀 needle 😀\n',
    'assets/img.bin': Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n\0\0needle\n'), Buffer.alloc(100)]),
    'legacy/latin1.txt': Buffer.from([...Buffer.from('caf'), 0xe9, ...Buffer.from(' needle foo\nplain 2024\n')]),
    'win/crlf.txt': 'foo\r\nbar foo\r\nimport y\r\n',
    'win/bom.txt': '\ufeffimport x\nfoo\n',
    'empty.txt': '',
    'noeol.txt': 'needle at the end without newline foo',
    '.hidden/x.txt': 'needle\n',
    '.env': 'needle\n',
    'big/long.txt': Array.from({ length: 30_000 }, (_, i) => (i % 997 === 0 ? `needle ${i}` : line())).join('\n') + '\n',
  };
  for (let d = 0; d < 20; d++) for (let f = 0; f < 10; f++) tree[`many/d${d}/f${f}.txt`] = Array.from({ length: 5 + Math.floor(rnd() * 30) }, line).join('\n') + '\n';
  await ws.files({ '.gitignore': '*.log\n', 'x.log': 'needle\n', ...tree });
  await fsp.symlink(path.join(ws.root, 'src/main.rs'), path.join(ws.root, 'link.rs'));
}

describe('grep against ripgrep', function () {
  this.timeout(120_000);
  before(function () {
    if (!hasRipgrep) this.skip();
  });
  after(() => disposeSharedWorkerPool());

  describe('on a generated tree (nested ignores, unicode, binary, target, long files, CRLF, invalid UTF-8)', () => {
    let ws: TempWorkspace;
    before(async () => {
      ws = await tempWorkspace();
      execFileSync('git', ['init', '-q', ws.root]);
      await generatedTree(ws);
    });
    after(() => ws.cleanup());

    for (const [pattern, rgPattern] of PATTERNS) {
      it(`${JSON.stringify(pattern)} finds the same lines`, async () => {
        const expected = ripgrep(ws.root, rgPattern, ['.']);
        assert.deepEqual(await ours(ws.run, pattern), expected);
      });
    }

    it('the tree exercises what it should: ignored, hidden, binary and target files hold matches ripgrep skips too', async () => {
      const all = spawnSync('rg', ['--no-config', '-uuu', '-l', 'needle', '.'], { cwd: ws.root }).stdout.toString();
      for (const f of ['pkg/a.gen', 'pkg/build/x.txt', '.env', 'assets/img.bin', 'target/debug/out.rs', 'pkg/sub/secret.txt']) assert.ok(all.includes(f), f);
      const found = await ours(ws.run, 'needle');
      assert.ok(found.some((f) => f.startsWith('pkg/keep.gen:')));
      assert.ok(found.some((f) => f.startsWith('pkg/sub/anchored.txt:')));
      assert.ok(found.some((f) => f.startsWith('legacy/latin1.txt:')));
      assert.ok(found.filter((f) => f.startsWith('big/long.txt:')).length > 25);
    });
  });

  describe('on this repository (src/ and test/)', () => {
    const repo = path.resolve(__dirname, '../../../../..');
    let run: Run;
    before(async () => {
      const runtime = await ToolRuntime.create({ root: repo });
      const registry = createDefaultRegistry();
      run = async (tool, args) => (await dispatchTool(registry, runtime, tool, args)).result;
    });

    const repoPatterns: [string, string][] = [
      ['import', 'import'],
      ['export function', 'export function'],
      ['ToolError\\(', 'ToolError\\('],
      ['describe\\(', 'describe\\('],
      ['\\bconst\\b', '(?-u:\\b)const(?-u:\\b)'],
      ['^\\s*//', '^\\s*//'],
      ['\\w+Pool\\b', '[0-9A-Za-z_]+Pool(?-u:\\b)'],
    ];
    for (const [pattern, rgPattern] of repoPatterns) {
      for (const dir of ['src', 'test']) {
        it(`${JSON.stringify(pattern)} in ${dir}/ finds the same lines`, async () => {
          const expected = ripgrep(repo, rgPattern, [dir]);
          assert.ok(expected.length > 0);
          assert.deepEqual(await ours(run, pattern, dir), expected);
        });
      }
    }
  });
});

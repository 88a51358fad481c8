import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { createGrepTool } from '../../../../../src/core/tools/grep';
import { disposeSharedWorkerPool } from '../../../../../src/core/tools/grep/workers';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

const rows = (result: ToolResult): string[] => result.content.split('\n').filter((l) => l !== '' && !l.startsWith('['));

describe('grep tool', function () {
  this.timeout(30_000);
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await tempWorkspace();
    execFileSync('git', ['init', '-q', ws.root]);
  });
  afterEach(() => ws.cleanup());
  after(() => disposeSharedWorkerPool());

  describe('arguments', () => {
    const rejected: [string, unknown, RegExp][] = [
      ['limit over 1,000', { patterns: ['x'], limit: 1001 }, /field `limit`/],
      ['context over 20', { patterns: ['x'], context: 21 }, /field `context`/],
      ['no patterns', { patterns: [] }, /field `patterns`/],
      ['nine patterns', { patterns: Array(9).fill('x') }, /field `patterns`/],
      ['an empty pattern', { patterns: ['x', ''] }, /field `patterns.1`: must not be empty/],
      ['a pattern over 1,000 characters', { patterns: ['x'.repeat(1001)] }, /at most 1000 characters/],
      ['an unknown mode', { patterns: ['x'], mode: 'fast' }, /field `mode`/],
      ['a negative offset', { patterns: ['x'], offset: -1 }, /field `offset`/],
      ['an unknown field', { patterns: ['x'], glob: '*.ts' }, /unknown field `glob`/],
      ['neither patterns nor pattern', {}, /`patterns` is required/],
      ['the legacy pattern outside replay', { pattern: 'x' }, /only accepted when replaying/],
      ['both pattern and patterns', { pattern: 'x', patterns: ['y'] }, /not both/],
    ];
    for (const [what, args, message] of rejected) {
      it(`rejects ${what}`, async () => {
        const result = await ws.run('grep', args);
        assert.equal(result.status, 'error');
        assert.match(result.content, message);
      });
    }

    it('accepts exactly 1,000 for limit, 20 for context and 1,000-character patterns', async () => {
      await ws.files({ 'a.txt': 'x\n' });
      const result = await ws.run('grep', { patterns: ['x'.repeat(1000), 'x'], limit: 1000, context: 20 });
      assert.equal(result.status, 'success');
    });

    it('accepts the legacy single `pattern` on replay, and the ffgrep alias', async () => {
      await ws.files({ 'a.txt': 'needle\n' });
      const replayed = await ws.run('ffgrep', { pattern: 'needle', mode: 'raw' }, { replay: true });
      assert.equal(replayed.content, 'a.txt:1:needle');
    });

    it('offers providers `patterns`, not the legacy `pattern`', () => {
      const spec = createDefaultRegistry().providerSpecs().find((s) => s.name === 'grep');
      assert.ok(spec);
      assert.deepEqual(Object.keys(spec.parameters.properties as object), ['patterns', 'path', 'mode', 'limit', 'offset', 'context']);
      assert.deepEqual(spec.parameters.required, ['patterns']);
      assert.match(spec.description, /10,000 files and 128 MiB/);
    });
  });

  describe('paths', () => {
    it('a relative path cannot escape the root', async () => {
      const result = await ws.run('grep', { patterns: ['x'], path: '../' });
      assert.equal(result.status, 'error');
      assert.equal(result.metadata.error, 'outside_root');
    });

    it('an absolute path outside the root follows capabilities.tools.grep.absolute_paths', async () => {
      const outside = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-grep-outside-')));
      try {
        await fsp.writeFile(path.join(outside, 'o.txt'), 'needle\n');
        const allowed = await ws.run('grep', { patterns: ['needle'], path: outside, mode: 'raw' });
        assert.equal(allowed.content, `${path.join(outside, 'o.txt')}:1:needle`);
        const denied = await tempWorkspace({ capabilities: { tools: { grep: { absolute_paths: false } } } });
        const result = await denied.run('grep', { patterns: ['needle'], path: outside });
        await denied.cleanup();
        assert.equal(result.metadata.error, 'setting_denied');
        assert.match(result.content, /capabilities\.tools\.grep\.absolute_paths is false/);
      } finally {
        await fsp.rm(outside, { recursive: true, force: true });
      }
    });

    it('a file path searches that file, even when it is hidden or ignored; a missing one is an error', async () => {
      await ws.files({ '.gitignore': 'ignored.txt\n', 'ignored.txt': 'needle\n', '.hidden': 'needle\n' });
      assert.equal((await ws.run('grep', { patterns: ['needle'], path: 'ignored.txt', mode: 'raw' })).content, 'ignored.txt:1:needle');
      assert.equal((await ws.run('grep', { patterns: ['needle'], path: '.hidden', mode: 'raw' })).content, '.hidden:1:needle');
      const missing = await ws.run('grep', { patterns: ['needle'], path: 'nope.txt' });
      assert.equal(missing.metadata.error, 'not_found');
    });

    it('a FIFO given as path is refused without being opened', async function () {
      if (process.platform === 'win32') this.skip();
      execFileSync('mkfifo', [path.join(ws.root, 'pipe')]);
      const result = await ws.run('grep', { patterns: ['x'], path: 'pipe' });
      assert.equal(result.status, 'error');
      assert.match(result.content, /not a regular file or folder/);
    });
  });

  describe('what is searched', () => {
    it('skips hidden, ignored, .git, target, binary, special and symlinked files, and counts them', async function () {
      if (process.platform === 'win32') this.skip();
      await ws.files({
        '.gitignore': 'build/\n*.log\n',
        'src/a.ts': 'needle\n',
        'src/target/t.ts': 'needle\n',
        'target/debug/t.ts': 'needle\n',
        'build/out.ts': 'needle\n',
        'x.log': 'needle\n',
        '.env': 'needle\n',
        'bin.dat': Buffer.from('needle\0\n'),
        'latin1.txt': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x20, 0xe9, 0x0a]),
      });
      await fsp.symlink(path.join(ws.root, 'src/a.ts'), path.join(ws.root, 'link.ts'));
      execFileSync('mkfifo', [path.join(ws.root, 'fifo')]);
      const result = await ws.run('grep', { patterns: ['needle'], mode: 'raw' });
      assert.equal(result.content, 'latin1.txt:1:needle \ufffd\nsrc/a.ts:1:needle');
      const m = result.metadata;
      assert.deepEqual([m.files_searched, m.files_skipped_binary, m.files_invalid_utf8, m.files_skipped_target, m.files_skipped_special, m.files_skipped_symlink], [2, 1, 1, 2, 1, 1]);
    });

    it('a search pointed inside a target folder searches it', async () => {
      await ws.files({ 'target/debug/t.ts': 'needle\n' });
      assert.equal((await ws.run('grep', { patterns: ['needle'], path: 'target', mode: 'raw' })).content, 'target/debug/t.ts:1:needle');
    });

    it('searches only the first 4 MiB of a larger file, and reports it', async () => {
      const head = 'needle early\n';
      await ws.files({ 'big.txt': head + `${'x'.repeat(99)}\n`.repeat(45_000) + 'needle late\n' });
      const result = await ws.run('grep', { patterns: ['needle'], mode: 'raw' });
      assert.equal(rows(result).join('\n'), 'big.txt:1:needle early');
      assert.equal(result.metadata.files_prefix_only, 1);
      assert.deepEqual(result.metadata.prefix_only_paths, ['big.txt']);
      assert.deepEqual(result.metadata.truncation_reasons, ['file_prefix']);
      assert.match(result.content, /\[searched in their first 4 MiB only: big\.txt\]/);
    });

    it('orders raw rows by path in byte order (not locale order), then by line', async () => {
      const names = ['b.txt', 'B.txt', 'a-b/x.txt', 'a/b.txt', 'a.txt', 'é.txt', 'z.txt', '😀.txt', '\ue000.txt', 'Z/1.txt'];
      await ws.files(Object.fromEntries(names.map((n) => [n, 'hit 1\nmiss\nhit 3\n'])));
      const result = await ws.run('grep', { patterns: ['hit'], mode: 'raw' });
      const expected = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))).flatMap((n) => [`${n}:1:hit 1`, `${n}:3:hit 3`]);
      assert.deepEqual(result.content.split('\n'), expected);
    });

    it('patterns are OR-ed, each line listed once', async () => {
      await ws.files({ 'a.txt': 'alpha\nbeta\nalpha beta\ngamma\n' });
      const result = await ws.run('grep', { patterns: ['alpha', 'beta'], mode: 'raw' });
      assert.equal(result.content, 'a.txt:1:alpha\na.txt:2:beta\na.txt:3:alpha beta');
      assert.equal(result.metadata.total_matched, 3);
    });

    it('reports repairs and literal fallbacks in metadata and in a note', async () => {
      await ws.files({ 'a.rs': 'fn run() {\n' });
      const repaired = await ws.run('grep', { patterns: ['fn run() {'], mode: 'raw' });
      assert.equal(rows(repaired).join('\n'), 'a.rs:1:fn run() {');
      assert.deepEqual(repaired.metadata.matcher_adjustments, ['patterns[0]: empty group "()" at 6 taken as literal parentheses', 'patterns[0]: escaped unmatched "{" at 9']);
      const literal = await ws.run('grep', { patterns: ['\\Afn'], mode: 'raw' });
      assert.deepEqual(literal.metadata.literal_fallback, [0]);
      assert.match(literal.content, /patterns\[0\] is not a valid regex, so it was matched as literal text/);
    });
  });

  describe('paging and output', () => {
    it('raw: limit and offset count matching lines; one extra match says has_more', async () => {
      await ws.files({ 'a.txt': 'hit\n'.repeat(3), 'b.txt': 'hit\n'.repeat(3) });
      const first = await ws.run('grep', { patterns: ['hit'], mode: 'raw', limit: 4 });
      assert.deepEqual(rows(first), ['a.txt:1:hit', 'a.txt:2:hit', 'a.txt:3:hit', 'b.txt:1:hit']);
      assert.equal(first.metadata.has_more, true);
      assert.equal(first.metadata.next_offset, 4);
      assert.equal(first.metadata.truncated, true);
      assert.match(first.content, /use offset=4 for more/);
      const second = await ws.run('grep', { patterns: ['hit'], mode: 'raw', limit: 4, offset: 4 });
      assert.deepEqual(rows(second), ['b.txt:2:hit', 'b.txt:3:hit']);
      assert.equal(second.metadata.has_more, false);
      assert.equal(second.metadata.truncated, false);
      const exact = await ws.run('grep', { patterns: ['hit'], mode: 'raw', limit: 6 });
      assert.equal(exact.metadata.has_more, false);
      const past = await ws.run('grep', { patterns: ['hit'], mode: 'raw', offset: 10 });
      assert.match(past.content, /offset 10 is past the last of 6 primary lines/);
    });

    it('ranked (default): grouped_v1, best file first, at most five lines per file', async () => {
      await ws.files({
        'a.ts': 'run();\n'.repeat(8),
        'b.ts': 'export function run() {}\n',
      });
      const result = await ws.run('grep', { patterns: ['run'] });
      assert.equal(result.metadata.format, 'grouped_v1');
      assert.equal(
        result.content,
        [
          '## b.ts', '[def-like] 1:export function run() {}', '',
          '## a.ts', ...[1, 2, 3, 4, 5].map((n) => `[match] ${n}:run();`),
          '[3 more matching lines in this file not shown; grep it alone with mode "raw" to see them]',
        ].join('\n'),
      );
      assert.deepEqual(result.metadata.per_file, ['a.ts: 5 of 8 shown']);
      assert.deepEqual(result.metadata.truncation_reasons, ['per_file']);
      assert.equal(result.metadata.total_matched, 9);
      assert.equal(result.metadata.has_more, false);
      const paged = await ws.run('grep', { patterns: ['run'], limit: 2 });
      assert.equal(paged.metadata.has_more, true);
      assert.match(paged.content, /showing primary lines 1-2 of 6; use offset=2 for more/);
    });

    it('caps output at 64 KiB with whole records and says how to continue (before any other note)', async () => {
      await ws.files({ 'long.txt': `hit( ${'y'.repeat(900)}\n`.repeat(200) });
      const result = await ws.run('grep', { patterns: ['hit('], mode: 'raw', limit: 1000 });
      assert.ok(Buffer.byteLength(result.content) <= 64 * 1024);
      const shown = rows(result);
      assert.ok(shown.every((r, i) => r === `long.txt:${i + 1}:hit( ${'y'.repeat(900)}`));
      assert.match(result.content, /\[patterns\[0\] was repaired: escaped unmatched "\(" at 3\]$/);
      assert.equal(result.metadata.returned, shown.length);
      assert.ok((result.metadata.truncation_reasons as string[]).includes('output_cap'));
      assert.match(result.content, new RegExp(`output cap of 64 KiB reached after ${shown.length} primary lines; use offset=${shown.length} to continue`));
    });

    it('clips a very long line around its match', async () => {
      await ws.files({ 'min.js': `${'a'.repeat(5000)}needle${'b'.repeat(5000)}\n` });
      const result = await ws.run('grep', { patterns: ['needle'], mode: 'raw' });
      assert.match(result.content, /^min\.js:1:…a{250}needleb{744}…$/);
      assert.equal(result.metadata.lines_clipped, 1);
    });
  });

  describe('limits of a call', () => {
    it('stops a runaway regex at the deadline with a partial result', async () => {
      await ws.files({ 'a.txt': 'fine\n', 'z.txt': `${'a'.repeat(40)}b\n` });
      const registry = new ToolRegistry([createGrepTool({ deadlineMs: 1000 })]);
      const started = Date.now();
      const { result } = await dispatchTool(registry, ws.runtime, 'grep', { patterns: ['(a+)+$', 'fine'], mode: 'raw' });
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 3000, `${elapsed} ms`);
      assert.equal(result.status, 'success');
      assert.equal(result.metadata.timed_out, true);
      assert.equal(result.metadata.scan_complete, false);
      assert.equal(result.metadata.has_more, null);
      assert.equal(result.metadata.total_matched_exact, false);
      assert.match(result.content, /\[partial: the 10-second deadline passed/);
    });

    it('is cancelled by the caller’s signal', async () => {
      await ws.files({ 'z.txt': `${'a'.repeat(40)}b\n` });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      const result = await ws.run('grep', { patterns: ['(a+)+$'] }, { signal: controller.signal });
      assert.ok(Date.now() - started < 2000);
      assert.equal(result.status, 'error');
      assert.equal(result.metadata.cancelled, true);
    });

    it('searches at most the first maxFiles files in path order and says so', async () => {
      await ws.files(Object.fromEntries(['d.txt', 'a.txt', 'c.txt', 'b.txt'].map((n) => [n, 'hit\n'])));
      const registry = new ToolRegistry([createGrepTool({ maxFiles: 3 })]);
      const { result } = await dispatchTool(registry, ws.runtime, 'grep', { patterns: ['hit'], mode: 'raw' });
      assert.deepEqual(rows(result), ['a.txt:1:hit', 'b.txt:1:hit', 'c.txt:1:hit']);
      assert.equal(result.metadata.file_limit_reached, true);
      assert.equal(result.metadata.has_more, null);
      assert.match(result.content, /only the first 3 of 4 files \(in path order\) are searched/);
    });
  });
});

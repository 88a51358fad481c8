import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runSearch, type SearchRequest } from '../../../../../src/core/tools/grep/engine';
import { compilePattern, type PatternSpec } from '../../../../../src/core/tools/grep/patterns';
import { grepWorkerScript } from '../../../../../src/core/tools/grep/workers';
import { WorkerPool } from '../../../../../src/core/process/workerPool';

describe('grep engine (worker pool over explicit file lists)', function () {
  this.timeout(30_000);
  let dir: string;
  const pool = new WorkerPool(grepWorkerScript(), 2);

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-grep-engine-'));
  });
  after(async () => {
    await pool.dispose();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** Writes the files (folders once each, files in parallel) and returns their absolute paths in the given order. */
  async function write(files: Record<string, string | Buffer>): Promise<string[]> {
    const entries = Object.entries(files).map(([name, content]) => [path.join(dir, name), content] as const);
    for (const folder of new Set(entries.map(([abs]) => path.dirname(abs)))) await fsp.mkdir(folder, { recursive: true });
    for (let i = 0; i < entries.length; i += 256) await Promise.all(entries.slice(i, i + 256).map(([abs, content]) => fsp.writeFile(abs, content)));
    return entries.map(([abs]) => abs);
  }

  function request(files: string[], patterns: PatternSpec[], over: Partial<SearchRequest> = {}, config: Partial<SearchRequest['config']> = {}): SearchRequest {
    return {
      files,
      strategy: 'parallel',
      pool,
      deadline: Date.now() + 10_000,
      signal: new AbortController().signal,
      ...over,
      config: { base: '', patterns, mode: 'raw', context: 0, need: 1000, keepFiles: 100, hitsPerFile: 5, fileReadCap: 4 * 1024 * 1024, maxLineChars: 1000, callReadCap: 128 * 1024 * 1024, ...config },
    };
  }

  it('returns matching lines in list order and counts what it skipped', async () => {
    const files = await write({ 'a.txt': 'x\nneedle one\n', 'b.bin': Buffer.from('needle\0'), 'c.txt': 'nothing\n', 'd.txt': 'needle two\nneedle three\n' });
    await fsp.symlink(path.join(dir, 'a.txt'), path.join(dir, 'e.link'));
    const list = [...files, path.join(dir, 'e.link'), path.join(dir, 'vanished.txt')];
    const out = await runSearch(request(list, [compilePattern('needle')]));
    assert.deepEqual(out.files.map((f) => [f.index, f.lines, f.texts]), [
      [0, [2], ['needle one']],
      [3, [1, 2], ['needle two', 'needle three']],
    ]);
    assert.equal(out.matchedLines, 3);
    assert.equal(out.exact, true);
    assert.equal(out.searched, 6);
    assert.deepEqual({ ...out.stats, bytes: 0 }, { searched: 3, binary: 1, invalidUtf8: 0, special: 0, symlink: 1, unreadable: 1, prefixOnly: 0, bytes: 0, clippedLines: 0 });
  });

  it('never blocks on a FIFO in the list', async function () {
    if (process.platform === 'win32') this.skip();
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    const [a] = await write({ 'f1.txt': 'needle\n' });
    const out = await runSearch(request([path.join(dir, 'fifo'), a!], [compilePattern('needle')]));
    assert.equal(out.stats.special, 1);
    assert.equal(out.matchedLines, 1);
  });

  it('terminates a runaway regex at the deadline, keeps the host responsive, and replaces the workers', async () => {
    const [slow] = await write({ 'runaway.txt': `${'a'.repeat(40)}b\n` });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = Date.now();
    const out = await runSearch(request([slow!], [compilePattern('(a+)+$')], { deadline: Date.now() + 1000 }));
    clearInterval(ticker);
    const elapsed = Date.now() - started;
    assert.equal(out.timedOut, true);
    assert.equal(out.searched, 0);
    assert.ok(elapsed >= 950 && elapsed < 3000, `took ${elapsed} ms`);
    assert.ok(ticks >= 12, `only ${ticks} timer ticks in ${elapsed} ms: the main thread was blocked`);
    const again = await runSearch(request(await write({ 'ok.txt': 'fine\n' }), [compilePattern('fine')]));
    assert.equal(again.matchedLines, 1);
    assert.equal(pool.live, 2);
  });

  it('stops at once when the signal aborts, terminating the busy worker', async () => {
    const [slow] = await write({ 'runaway2.txt': `${'a'.repeat(40)}b\n` });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const out = await runSearch(request([slow!], [compilePattern('(a+)+$')], { signal: controller.signal, strategy: 'sequential' }));
    assert.equal(out.cancelled, true);
    assert.ok(Date.now() - started < 1500);
    assert.equal((await runSearch(request(await write({ 'ok2.txt': 'fine\n' }), [compilePattern('fine')]))).matchedLines, 1);
  });

  it('raw mode stops reading once it has `need` lines, whatever the strategy', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 200; i++) tree[`many/${String(i).padStart(3, '0')}.txt`] = 'hit\nhit\nmiss\n';
    const files = await write(tree);
    for (const strategy of ['sequential', 'parallel'] as const) {
      const out = await runSearch(request(files, [compilePattern('hit')], { strategy }, { need: 11 }));
      assert.equal(out.enough, true);
      assert.equal(out.exact, false);
      assert.ok(out.searched < 200, `${strategy} searched ${out.searched}`);
      const lines = out.files.flatMap((f) => f.lines.map((l) => `${f.index}:${l}`));
      assert.deepEqual(lines.slice(0, 11), ['0:1', '0:2', '1:1', '1:2', '2:1', '2:2', '3:1', '3:2', '4:1', '4:2', '5:1']);
    }
  });

  it('the sequential path stays on one worker while it finds enough, and widens to the idle ones for a rare pattern', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 200; i++) tree[`wide/${String(i).padStart(3, '0')}.txt`] = i % 10 === 0 ? 'common\n' : 'plain\n';
    tree['wide/999.txt'] = 'rare\n';
    const files = await write(tree);
    const sequential = { strategy: 'sequential', sequentialFiles: 64 } as const;
    const common = await runSearch(request(files, [compilePattern('common')], sequential, { need: 3 }));
    assert.equal(common.workers, 1);
    assert.equal(common.enough, true);
    const rare = await runSearch(request(files, [compilePattern('rare')], sequential, { need: 3 }));
    assert.equal(rare.workers, 2);
    assert.equal(rare.exact, true);
    assert.deepEqual(rare.files.map((f) => f.index), [files.length - 1]);
  });

  it('returns as soon as raw mode has enough, even with a worker stuck on a later batch, which dies at the deadline', async () => {
    const tree: Record<string, string> = {};
    // Batches of 32 and 64 files go to the first worker, 96-99 to the second, which sticks at 96.
    // Files 0 and 1 take a moment, so the second worker is surely stuck when the first has enough.
    const content = (i: number): string => (i < 2 ? `${'a'.repeat(18)}b\n` : i === 96 ? `${'a'.repeat(40)}b\n` : 'hit\n');
    for (let i = 0; i < 100; i++) tree[`stuck/${String(i).padStart(3, '0')}.txt`] = content(i);
    const files = await write(tree);
    const started = Date.now();
    const out = await runSearch(request(files, [compilePattern('hit|(a+)+$')], { deadline: Date.now() + 2000 }, { need: 5 }));
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    assert.equal(out.enough, true);
    assert.equal(out.timedOut, false);
    await new Promise((resolve) => setTimeout(resolve, 2200 - (Date.now() - started)));
    const [ok] = await write({ 'after-stuck.txt': 'hit\n' });
    const after = await runSearch(request([ok!], [compilePattern('hit')]));
    assert.equal(after.matchedLines, 1);
    // Both workers were free again: the stuck one was terminated at the deadline and replaced.
    assert.equal(after.workers, 2);
  });

  it('stops at the per-call byte cap and keeps only a prefix of the list', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 20; i++) tree[`cap/${String(i).padStart(2, '0')}.txt`] = `hit\n${'x'.repeat(55)}\n`;
    const files = await write(tree);
    // Each read reserves cap + 1 = 65 bytes first, and keeps the 60 it read: 3 × 60 + 65 > 200.
    const out = await runSearch(request(files, [compilePattern('hit')], {}, { fileReadCap: 64, callReadCap: 200 }));
    assert.equal(out.byteCapReached, true);
    assert.equal(out.searched, 3);
    assert.deepEqual(out.files.map((f) => f.index), [0, 1, 2]);
    assert.ok(out.bytesRead <= 200);
  });

  it('searches a file larger than the per-file cap in its first bytes only, and says so', async () => {
    const files = await write({ 'big.txt': `hit\n${'x'.repeat(100)}\nhit late\n` });
    const out = await runSearch(request(files, [compilePattern('hit')], {}, { fileReadCap: 64 }));
    assert.deepEqual(out.files[0]?.lines, [1]);
    assert.equal(out.stats.prefixOnly, 1);
    assert.deepEqual(out.prefixOnly, [0]);
    assert.equal(out.files[0]?.prefixOnly, true);
  });

  it('ranked mode keeps the best files, each with at most hitsPerFile lines and its true count', async () => {
    const files = await write({
      'r/a.ts': 'run();\nrun();\n',
      'r/b.ts': 'export function run() {}\nrun();\n',
      'r/c.ts': Array.from({ length: 9 }, () => 'run();').join('\n'),
      'r/d.ts': "import { run } from './b';\n",
    });
    const out = await runSearch(request(files, [compilePattern('run')], {}, { mode: 'ranked', keepFiles: 3, hitsPerFile: 5 }));
    assert.deepEqual(out.files.map((f) => [f.index, f.count, f.lines.length, f.defs]), [[1, 2, 2, 1], [2, 9, 5, 0], [0, 2, 2, 0]]);
    assert.equal(out.matchedFiles, 4);
    assert.equal(out.primaryLines, 2 + 2 + 5 + 1);
    assert.deepEqual(out.files[0]?.labels, ['def-like', 'match']);
  });

  it('a batch that fails in its worker is counted and ends the prefix; the worker stays usable', async () => {
    const files = await write({ 'broken.txt': 'x\n' });
    const broken: PatternSpec = { ...compilePattern('x'), source: '(' };
    const out = await runSearch(request(files, [broken]));
    assert.equal(out.workerErrors, 1);
    assert.equal(out.searched, 0);
    assert.equal((await runSearch(request(files, [compilePattern('x')]))).matchedLines, 1);
  });

  it('a worker that dies mid-call is counted, ends the prefix, and is replaced', async () => {
    const files = await write({ 'dies.txt': `${'a'.repeat(40)}b\n` });
    const search = runSearch(request(files, [compilePattern('(a+)+$')], { strategy: 'sequential' }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Kill the busy worker behind the engine's back, as a crash would.
    const busy = (pool as unknown as { all: Set<{ worker: { terminate(): Promise<number> }; onMessage: unknown }> }).all;
    for (const handle of busy) if (handle.onMessage) await handle.worker.terminate();
    const out = await search;
    assert.equal(out.workerErrors, 1);
    assert.equal(out.timedOut, false);
    assert.equal(out.searched, 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(pool.live, 2);
    assert.equal((await runSearch(request(await write({ 'after.txt': 'x\n' }), [compilePattern('x')]))).matchedLines, 1);
  });
});

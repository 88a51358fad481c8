import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { runSearch } from '../../../../src/core/tools/grep/engine';
import { compilePattern } from '../../../../src/core/tools/grep/patterns';
import { grepWorkerScript } from '../../../../src/core/tools/grep/workers';
import { WorkerPool, locateWorkerScript } from '../../../../src/core/process/workerPool';

const ROOT = path.resolve(__dirname, '../../../..');

describe('grep worker pool', function () {
  this.timeout(30_000);
  let dir: string;
  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-grep-pool-'));
  });
  after(() => fsp.rm(dir, { recursive: true, force: true }));

  it('runs the TypeScript worker through tsx from the sources, and prefers a bundled grepWorker.js next to the bundle', async () => {
    const source = grepWorkerScript(path.join(ROOT, 'src/core/tools/grep'));
    assert.match(source.file, /worker\.ts$/);
    assert.equal(source.execArgv[0], '--require');
    await fsp.writeFile(path.join(dir, 'grepWorker.js'), '');
    assert.deepEqual(grepWorkerScript(dir), { file: path.join(dir, 'grepWorker.js'), execArgv: [] });
    assert.throws(() => locateWorkerScript(os.tmpdir(), 'grepWorker.js'), /no worker script \(grepWorker\.js or worker\.ts\)/);
  });

  it('the bundled worker (as esbuild.mjs builds it) searches without tsx', async () => {
    const config = readFileSync(path.join(ROOT, 'esbuild.mjs'), 'utf8');
    assert.match(config, /entryPoints: \['src\/core\/tools\/grep\/worker\.ts'\],\s*outfile: 'dist\/grepWorker\.js'/);
    assert.match(readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8'), /^!dist\/grepWorker\.js$/m);
    const out = path.join(dir, 'bundle');
    await build({ entryPoints: [path.join(ROOT, 'src/core/tools/grep/worker.ts')], outfile: path.join(out, 'grepWorker.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
    await fsp.writeFile(path.join(dir, 'a.txt'), 'one\nneedle two\n');
    const pool = new WorkerPool(grepWorkerScript(out), 1);
    try {
      const result = await runSearch({
        files: [path.join(dir, 'a.txt')],
        strategy: 'sequential',
        pool,
        deadline: Date.now() + 10_000,
        signal: new AbortController().signal,
        config: { base: '', patterns: [compilePattern('needle')], mode: 'raw', context: 0, need: 10, keepFiles: 10, hitsPerFile: 5, fileReadCap: 1024, maxLineChars: 1000, callReadCap: 1 << 20 },
      });
      assert.deepEqual(result.files.map((f) => f.lines), [[2]]);
    } finally {
      await pool.dispose();
    }
  });

  it('leases whole workers: a second call waits for a free one, and a waiting call can be aborted', async () => {
    const pool = new WorkerPool(grepWorkerScript(), 1);
    try {
      const [first] = await pool.acquire(2, new AbortController().signal);
      assert.ok(first);
      const controller = new AbortController();
      const waiting = pool.acquire(1, controller.signal);
      controller.abort(new Error('gave up'));
      await assert.rejects(waiting, /gave up/);
      const next = pool.acquire(1, new AbortController().signal);
      pool.release(first);
      const [second] = await next;
      assert.equal(second, first);
      pool.release(second!);
    } finally {
      await pool.dispose();
    }
  });

  it('idle workers never keep the process alive: a script that searched exits without disposing', async () => {
    await fsp.writeFile(path.join(dir, 'b.txt'), 'needle\n');
    const script = `
      const { runSearch } = require(${JSON.stringify(path.join(ROOT, 'src/core/tools/grep/engine.ts'))});
      const { compilePattern } = require(${JSON.stringify(path.join(ROOT, 'src/core/tools/grep/patterns.ts'))});
      const { sharedWorkerPool } = require(${JSON.stringify(path.join(ROOT, 'src/core/tools/grep/workers.ts'))});
      runSearch({ files: [${JSON.stringify(path.join(dir, 'b.txt'))}], strategy: 'parallel', pool: sharedWorkerPool(), deadline: Date.now() + 10000,
        signal: new AbortController().signal, config: { base: '', patterns: [compilePattern('needle')], mode: 'raw', context: 0, need: 10, keepFiles: 10,
        hitsPerFile: 5, fileReadCap: 1024, maxLineChars: 1000, callReadCap: 1 << 20 } }).then((r) => console.log('lines', r.matchedLines));`;
    const started = Date.now();
    const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, timeout: 15_000, encoding: 'utf8' });
    assert.equal(run.signal, null, 'the process had to be killed: a worker kept it alive');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'lines 1');
    assert.ok(Date.now() - started < 10_000);
  });

  it('nor do workers no call leased (a warmed pool) or the replacement of a discarded one (issue 16)', () => {
    // Adding a worker's first 'message' listener refs it again: the pool must unref it after that.
    const script = `
      const { WorkerPool } = require(${JSON.stringify(path.join(ROOT, 'src/core/process/workerPool.ts'))});
      const { grepWorkerScript } = require(${JSON.stringify(path.join(ROOT, 'src/core/tools/grep/workers.ts'))});
      const warmed = new WorkerPool(grepWorkerScript(), 2);
      warmed.warm();
      const used = new WorkerPool(grepWorkerScript(), 1);
      used.acquire(1, new AbortController().signal).then(([worker]) => {
        used.discard(worker);
        console.log('live', warmed.live, used.live);
      });`;
    const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, timeout: 10_000, encoding: 'utf8' });
    assert.equal(run.signal, null, 'the process had to be killed: an idle worker kept it alive');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'live 2 1');
  });
});

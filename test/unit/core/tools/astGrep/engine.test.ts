import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { workInOrder, type FileResult, type WorkProgress } from '../../../../../src/core/tools/astGrep/engine';
import { SkippedFiles, TrackedReader } from '../../../../../src/core/tools/astGrep/skipped';
import { Checkpoint, type TargetFile } from '../../../../../src/core/tools/astGrep/targets';
import { sharedParsePool, type ParsePool } from '../../../../../src/core/tools/astGrep/workers';
import { WorkerPool, locateWorkerScript } from '../../../../../src/core/process/workerPool';

describe('ast_grep parse workers (workInOrder)', function () {
  this.timeout(30_000);
  let dir: string;
  let files: TargetFile[];
  before(async () => {
    dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-astgrep-engine-')));
    files = [];
    for (let i = 0; i < 40; i++) {
      const display = `f${String(i).padStart(2, '0')}.js`;
      await fsp.writeFile(path.join(dir, display), `function f${i}() { return a${i} === b; }\n`);
      files.push({ absolute: path.join(dir, display), display, language: 'javascript' });
    }
  });
  after(() => fsp.rm(dir, { recursive: true, force: true }));

  const options = (signal: AbortSignal, deadline = Date.now() + 10_000, pool?: ParsePool) => {
    const reader = new TrackedReader(new SkippedFiles());
    return { prepare: (file: TargetFile) => reader.readParsable(file), checkpoint: new Checkpoint(signal, deadline), job: { kind: 'search', pattern: '$A === $B', rewrite: undefined, maxRows: 10 } as const, pool };
  };

  async function collect(generator: AsyncGenerator<FileResult>, stopAfter = Infinity): Promise<FileResult[]> {
    const out: FileResult[] = [];
    for await (const result of generator) {
      out.push(result);
      if (out.length >= stopAfter) break;
    }
    return out;
  }

  it('yields every file in the given order, whatever worker parsed it', async () => {
    const progress: WorkProgress = { deadlineHit: false };
    const results = await collect(workInOrder(files, options(new AbortController().signal), progress));
    assert.deepEqual(results.map((r) => r.file.display), files.map((f) => f.display));
    assert.deepEqual(results[7]?.work, { kind: 'search', matches: [['f07.js:1:function f7() { return a7 === b; }']] });
    assert.equal(progress.deadlineHit, false);
  });

  it('a caller that stops early leaves no busy worker behind, and the pool serves the next call', async () => {
    const pool = sharedParsePool();
    const first = await collect(workInOrder(files, options(new AbortController().signal), { deadlineHit: false }), 1);
    assert.equal(first.length, 1);
    assert.ok(pool.live <= pool.size);
    const again = await collect(workInOrder(files.slice(0, 3), options(new AbortController().signal), { deadlineHit: false }));
    assert.equal(again.length, 3);
  });

  it('a passed deadline stops the work and says so; cancellation rejects', async () => {
    const progress: WorkProgress = { deadlineHit: false };
    const results = await collect(workInOrder(files, options(new AbortController().signal, Date.now()), progress));
    assert.equal(progress.deadlineHit, true);
    assert.ok(results.length < files.length);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(collect(workInOrder(files, options(controller.signal), { deadlineHit: false })), (err: unknown) => (err as Error).name === 'AbortError');
  });

  it('a worker that dies fails the call with the reason, not a hang', async () => {
    const script = path.join(dir, 'dies.js');
    await fsp.writeFile(script, "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n");
    const dying: ParsePool = new WorkerPool(locateWorkerScript(dir, 'dies.js'), 1);
    try {
      await assert.rejects(collect(workInOrder(files, options(new AbortController().signal, undefined, dying), { deadlineHit: false })), /a parse worker exited with code 3/);
    } finally {
      await dying.dispose();
    }
  });
});

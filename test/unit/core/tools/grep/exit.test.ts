import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { SEQUENTIAL_FILES } from '../../../../../src/core/tools/grep/engine';
import { DEADLINE_MS } from '../../../../../src/core/tools/grep/limits';
import { tempDir } from '../../../helpers/tree';
import { assertBuilt, assertEndedAfterSignal, assertExitedAfterPrinting, describeRun, killEverything, randomBetween, runDistTool, type DistRun } from '../../../helpers/distCli';

/** `n` files named 0000.txt … in path order, each holding `content(i)`. */
async function filesIn(dir: string, n: number, content: (i: number) => string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
  await Promise.all(Array.from({ length: n }, (_, i) => fsp.writeFile(path.join(dir, `${String(i).padStart(4, '0')}.txt`), content(i))));
}

const WIDE_FILES = SEQUENTIAL_FILES + 1024;

/** A pattern that backtracks for far longer than the deadline on the runaway files' line. */
const RUNAWAY = '(a+)+$';

// Issue 16: grep's workers were unref'd before their message listener was added, which refs them
// again, so a worker no call had leased (the sequential path leases one) or the replacement of a
// terminated one (deadline, cancellation) kept `magi` alive for good, SIGTERM included. Every limit
// path of grep runs here as a real child process of the built CLI, as a script or CI job runs it.
describe('magi tool grep exits after every call, whatever the path (dist/cli.js)', function () {
  this.timeout(60_000);
  let root: string;
  let common: string;
  let wide: string;
  let runaway: string;

  before(async () => {
    assertBuilt();
    root = await tempDir('magi-grep-exit-');
    common = path.join(root, 'common');
    wide = path.join(root, 'wide');
    runaway = path.join(root, 'runaway');
    await filesIn(common, 300, () => 'see README here\n');
    // The four lines the sequential path needs for limit 3 (3 + the lookahead) lie past the point
    // where it widens to the pool's idle workers: its batches hold at most 256 files, so it widens
    // before file SEQUENTIAL_FILES + 256, and finds them in files WIDE_FILES - 4 … WIDE_FILES - 1.
    await filesIn(wide, WIDE_FILES, (i) => (i >= WIDE_FILES - 4 ? 'RARE here\n' : 'plain\n'));
    await filesIn(runaway, 3, () => `${'a'.repeat(40)}b\n`);
  });
  afterEach(killEverything);
  after(() => fsp.rm(root, { recursive: true, force: true }));

  const grep = (dir: string, args: object, options?: Parameters<typeof runDistTool>[3]): Promise<DistRun> => runDistTool('grep', args, dir, options);

  it('the sequential path (raw, offset + limit ≤ 64), stopping at the lookahead or searching every file', async () => {
    for (const [args, returned] of [
      [{ limit: 3 }, 3],
      [{ limit: 64 }, 64],
      [{ offset: 10, limit: 3 }, 3],
    ] as const) {
      const run = await grep(common, { patterns: ['README'], mode: 'raw', ...args });
      assertExitedAfterPrinting(run);
      assert.equal(run.result?.metadata.returned, returned, describeRun(run));
      assert.equal(run.result?.metadata.has_more, true, describeRun(run));
      assert.ok(Number(run.result?.metadata.files_not_searched) > 0, `stopped at the lookahead; ${describeRun(run)}`);
    }
    const none = await grep(common, { patterns: ['NOWHERE'], mode: 'raw', limit: 3 });
    assertExitedAfterPrinting(none);
    assert.equal(none.result?.metadata.files_searched, 300, describeRun(none));
  });

  it(`the sequential path widened to the pool after ${SEQUENTIAL_FILES} files without the lookahead`, async () => {
    const run = await grep(wide, { patterns: ['RARE'], mode: 'raw', limit: 3 });
    assertExitedAfterPrinting(run);
    assert.equal(run.result?.metadata.returned, 3, describeRun(run));
    assert.equal(run.result?.metadata.has_more, true, describeRun(run));
    assert.match(run.result?.content ?? '', new RegExp(`^${WIDE_FILES - 4}\\.txt:1:RARE here\\n`));
  });

  it('the parallel path: raw with offset + limit > 64, and ranked', async () => {
    for (const args of [{ mode: 'raw', limit: 65 }, { mode: 'raw', limit: 1000 }, { mode: 'raw', offset: 100, limit: 3 }, {}]) {
      const run = await grep(common, { patterns: ['README'], ...args });
      assertExitedAfterPrinting(run);
      assert.equal(run.result?.status, 'success', describeRun(run));
    }
  });

  it(`a call made partial by the ${DEADLINE_MS / 1000} s deadline, sequential and parallel`, async () => {
    const cap = { capMs: DEADLINE_MS + 8_000 };
    const runs = await Promise.all([grep(runaway, { patterns: [RUNAWAY], mode: 'raw', limit: 3 }, cap), grep(runaway, { patterns: [RUNAWAY] }, cap)]);
    for (const run of runs) {
      assertExitedAfterPrinting(run);
      assert.equal(run.result?.metadata.timed_out, true, describeRun(run));
      assert.ok((run.printedAt ?? 0) >= DEADLINE_MS, describeRun(run));
    }
  });

  it('a call cancelled while it searches (SIGINT, SIGTERM), sequential and parallel', async () => {
    // Late enough that the CLI has started the search even on a loaded machine, well before the deadline.
    for (const [args, signal] of [
      [{ mode: 'raw', limit: 3 }, 'SIGINT'],
      [{}, 'SIGTERM'],
    ] as const) {
      const run = await grep(runaway, { patterns: [RUNAWAY], ...args }, { signal, signalAt: randomBetween(1_500, 2_500) });
      assertEndedAfterSignal(run);
      assertExitedAfterPrinting(run);
      assert.equal(run.result?.content, 'grep: cancelled.', describeRun(run));
    }
  });

  it('SIGTERM at a random time — before, during or after the search — ends it within 2 s', async () => {
    const runs: DistRun[] = [];
    // Before: while node starts (the default action may still apply) or the CLI loads.
    for (let k = 0; k < 2; k++) runs.push(await grep(common, { patterns: ['README'], mode: 'raw', limit: 3 }, { signalAt: randomBetween(0, 250) }));
    // During: a search that would run to the deadline.
    for (let k = 0; k < 2; k++) runs.push(await grep(runaway, { patterns: [RUNAWAY], mode: 'raw', limit: 3 }, { signalAt: randomBetween(300, 2_500) }));
    // After: once the result is printed (the process may be gone already, which is the point).
    for (let k = 0; k < 2; k++) runs.push(await grep(common, { patterns: ['README'], mode: 'raw', limit: 3 }, { signalAt: 'printed', afterPrintMs: randomBetween(0, 20) }));
    for (const run of runs) assertEndedAfterSignal(run);
  });
});

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { typescriptTree } from '../../../helpers/sourceTree';
import { tempDir } from '../../../helpers/tree';
import { assertBuilt, assertEndedAfterSignal, assertExitedAfterPrinting, describeRun, killEverything, randomBetween, runDistTool, type DistRun } from '../../../helpers/distCli';

/** Its words are in every file, so every file is parsed, and it matches none: a long search. */
const PARSE_EVERYTHING = 'console.log($A, $B, $C)';

// Issue 16's audit: ast_grep's parse workers come from the same WorkerPool as grep's, and the
// replacement of a worker terminated on cancellation (or at the 30 s deadline, the same discard)
// kept the process alive. Each path runs here as a child process of the built CLI. The deadline
// itself is not waited for: 30 s is longer than this whole file may take.
describe('magi tool ast_grep exits after every call (dist/cli.js)', function () {
  this.timeout(60_000);
  let root: string;
  let small: string;
  let long: string;

  before(async () => {
    assertBuilt();
    root = await tempDir('magi-ast-grep-exit-');
    small = path.join(root, 'small');
    long = path.join(root, 'long');
    await typescriptTree(small, 300, 2);
    await typescriptTree(long, 800, 150);
  });
  afterEach(killEverything);
  after(() => fsp.rm(root, { recursive: true, force: true }));

  it('a search run to the end, one stopped at its limit (workers still busy), and an outline', async () => {
    for (const args of [{ pattern: 'console.log($$$A)' }, { pattern: 'console.log($$$A)', limit: 3 }, { operation: 'outline', language: 'typescript' }]) {
      const run = await runDistTool('ast_grep', args, small);
      assertExitedAfterPrinting(run);
      assert.equal(run.result?.status, 'success', describeRun(run));
    }
  });

  it('a search cancelled while it parses (SIGINT, SIGTERM)', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const run = await runDistTool('ast_grep', { pattern: PARSE_EVERYTHING }, long, { signal, signalAt: randomBetween(1_500, 2_500) });
      assertEndedAfterSignal(run);
      assertExitedAfterPrinting(run);
      assert.equal(run.result?.content, 'ast_grep: cancelled.', describeRun(run));
    }
  });

  it('SIGTERM at a random time — before, during or after the call — ends it within 2 s', async () => {
    const runs: DistRun[] = [];
    runs.push(await runDistTool('ast_grep', { pattern: 'console.log($A)' }, small, { signalAt: randomBetween(0, 250) }));
    runs.push(await runDistTool('ast_grep', { pattern: PARSE_EVERYTHING }, long, { signalAt: randomBetween(300, 2_500) }));
    runs.push(await runDistTool('ast_grep', { operation: 'outline', name: '^nothing' }, long, { signalAt: randomBetween(300, 2_500) }));
    runs.push(await runDistTool('ast_grep', { pattern: 'console.log($$$A)', limit: 3 }, small, { signalAt: 'printed', afterPrintMs: randomBetween(0, 20) }));
    for (const run of runs) assertEndedAfterSignal(run);
  });
});

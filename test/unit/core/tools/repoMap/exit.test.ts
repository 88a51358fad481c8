import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { typescriptTree } from '../../../helpers/sourceTree';
import { tempDir } from '../../../helpers/tree';
import { assertBuilt, assertEndedAfterSignal, assertExitedAfterPrinting, describeRun, killEverything, randomBetween, runDistTool, type DistRun } from '../../../helpers/distCli';

// Issue 16's audit: repo_map outlines files in ast_grep's parse workers, so a cancelled map (or
// one stopped at its 30 s deadline, the same discard) left a replacement worker holding the
// process. Each path runs here as a child process of the built CLI; the deadline is not waited for.
describe('magi tool repo_map exits after every call (dist/cli.js)', function () {
  this.timeout(60_000);
  let root: string;
  let small: string;
  let long: string;

  before(async () => {
    assertBuilt();
    root = await tempDir('magi-repo-map-exit-');
    small = path.join(root, 'small');
    long = path.join(root, 'long');
    await typescriptTree(small, 300, 2);
    await typescriptTree(long, 800, 150);
  });
  afterEach(killEverything);
  after(() => fsp.rm(root, { recursive: true, force: true }));

  it('a map run to the end', async () => {
    for (const args of [{}, { query: 'f1_1', maxTokens: 512 }]) {
      const run = await runDistTool('repo_map', args, small);
      assertExitedAfterPrinting(run);
      assert.equal(run.result?.status, 'success', describeRun(run));
    }
  });

  it('a map cancelled while it outlines (SIGINT, SIGTERM)', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const run = await runDistTool('repo_map', {}, long, { signal, signalAt: randomBetween(1_500, 2_500) });
      assertEndedAfterSignal(run);
      assertExitedAfterPrinting(run);
      assert.equal(run.result?.content, 'repo_map: cancelled.', describeRun(run));
    }
  });

  it('SIGTERM at a random time — before, during or after the call — ends it within 2 s', async () => {
    const runs: DistRun[] = [];
    runs.push(await runDistTool('repo_map', {}, small, { signalAt: randomBetween(0, 250) }));
    runs.push(await runDistTool('repo_map', {}, long, { signalAt: randomBetween(300, 3_000) }));
    runs.push(await runDistTool('repo_map', {}, small, { signalAt: 'printed', afterPrintMs: randomBetween(0, 20) }));
    for (const run of runs) assertEndedAfterSignal(run);
  });
});

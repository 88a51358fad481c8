import assert from 'node:assert/strict';
import { existsSync, promises as fsp } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from '../../../helpers/tree';
import { assertBuilt, assertEndedAfterSignal, assertExitedAfterPrinting, describeRun, killEverything, leftoverProcesses, randomBetween, runDistTool, type DistRun } from '../../../helpers/distCli';
import { CHROMIUM } from './pages';

/** Chromium's helpers may take a moment to follow their main process out. */
async function assertNothingLeft(run: DistRun): Promise<void> {
  for (const deadline = Date.now() + 2_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (leftoverProcesses(run.marker).length === 0) return;
  }
  assert.deepEqual(leftoverProcesses(run.marker), [], `processes of this run outlived it; ${describeRun(run)}`);
}

// Issue 16's audit of the browser: SIGTERM while Chromium was still starting cancelled the call
// and disposed the session, which found no browser to close yet; the launch then finished and the
// browser (with magi) ran on for good. `magi tool browser` runs here as a child of the built CLI.
describe('magi tool browser exits after every call and leaves no Chromium (dist/cli.js)', function () {
  this.timeout(60_000);
  let server: Server;
  let base: string;
  let cwd: string;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      // Said in the output, so a machine without Chromium does not pass these silently.
      console.log(`      (skipped: no Chromium at ${CHROMIUM})`);
      this.skip();
    }
    assertBuilt();
    cwd = await tempDir('magi-browser-exit-');
    // `/slow` never answers: an open that waits until it is cancelled.
    server = createServer((request, response) => {
      if (request.url !== '/slow') response.end('<title>Up</title><button>Go</button>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(killEverything);
  after(async () => {
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await fsp.rm(cwd, { recursive: true, force: true });
  });

  const open = (route: string, options?: Parameters<typeof runDistTool>[3]): Promise<DistRun> => runDistTool('browser', { command: `open ${base}${route}` }, cwd, options);

  it('an open that succeeds: the browser is closed and magi exits', async () => {
    const run = await open('/');
    assertExitedAfterPrinting(run);
    assert.equal(run.result?.status, 'success', describeRun(run));
    await assertNothingLeft(run);
  });

  it('SIGTERM while Chromium starts, and while a page loads', async () => {
    const starting = await open('/', { signalAt: randomBetween(300, 900) });
    const loading = await open('/slow', { signalAt: randomBetween(2_000, 2_500) });
    for (const run of [starting, loading]) {
      assertEndedAfterSignal(run);
      await assertNothingLeft(run);
    }
    assert.equal(loading.result?.content, 'browser: cancelled.', describeRun(loading));
  });

  it('SIGTERM at a random time — before, during or after the call — ends it within 2 s', async () => {
    const runs = [
      await open('/', { signalAt: randomBetween(0, 250) }),
      await open('/', { signalAt: randomBetween(250, 1_600) }),
      await open('/', { signalAt: 'printed', afterPrintMs: randomBetween(0, 100) }),
    ];
    for (const run of runs) {
      assertEndedAfterSignal(run);
      await assertNothingLeft(run);
    }
  });
});

import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { childEnvironment } from '../../../../src/core/process/env';
import { runCommand } from '../../../../src/core/process/run';
import { markedProcesses } from '../../helpers/procs';

/**
 * The 1,000 iterations. One start-and-cancel costs ~35 ms here (spawn, the /proc scans —
 * ~4 ms each in this sandbox — and the SIGTERM poll), so the loop takes ~35 s;
 * `MAGI_BASH_LOOP=100 npx mocha …` runs a shorter one while iterating locally.
 */
const ITERATIONS = Number(process.env.MAGI_BASH_LOOP ?? 1000);

describe('runCommand start-and-cancel', function () {
  this.timeout(120_000);

  it(`leaves no process behind after ${ITERATIONS} starts cancelled at once or within a few ms`, async () => {
    // An empty HOME: `bash -l` then sources no ~/.profile. Killing login shells mid-profile 1,000
    // times would otherwise interrupt whatever the profile runs — `pyenv rehash` here, which then
    // leaves its lock file behind and makes every later login shell wait on it.
    const home = mkdtempSync(path.join(os.tmpdir(), 'magi-home-'));
    after(() => rmSync(home, { recursive: true, force: true }));
    const env = { ...childEnvironment(process.env), HOME: home }; // carries MAGI_BASH_TEST_OWNER (procs.ts)
    const start = performance.now();
    let cancelled = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const controller = new AbortController();
      // Cancel before the spawn, right after it, or a few ms in (while bash starts or runs).
      const delay = i % 3 === 0 ? -1 : i % 3 === 1 ? 0 : (i % 7) * 2;
      if (delay < 0) controller.abort();
      else setTimeout(() => controller.abort(), delay);
      const outcome = await runCommand({
        command: 'sleep 100 & bash -c "sleep 100" & sleep 100',
        cwd: process.cwd(),
        env,
        timeoutMs: 30_000,
        signal: controller.signal,
        headBytes: 1024,
        tailBytes: 1024,
        graceMs: 100,
      });
      if (outcome.cancelled) cancelled++;
      assert.deepEqual(outcome.cleanup.survivors, []);
    }
    assert.equal(cancelled, ITERATIONS);
    assert.deepEqual(markedProcesses(), []);
    // Reported, not asserted: the loop's wall time.
    console.log(`      ${ITERATIONS} start-and-cancel runs in ${Math.round(performance.now() - start)} ms`);
  });
});

describe('runCommand', () => {
  it('reports a shell that cannot start instead of throwing', async () => {
    const outcome = await runCommand({ command: 'echo out', cwd: '/nonexistent-magi-dir', env: {}, timeoutMs: 5000, signal: new AbortController().signal, headBytes: 64, tailBytes: 64 });
    assert.match(outcome.spawnError ?? '', /ENOENT/);
    assert.equal(outcome.exitCode, null);
    assert.equal(outcome.output.bytesSeen, 0);
  });
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { INTERRUPT_GRACE_MS, INTERRUPTED_EXIT_CODE } from '../../../src/cli/interrupt';

const ROOT = path.resolve(__dirname, '../../..');
const MODULE = JSON.stringify(path.join(ROOT, 'src/cli/interrupt.ts'));

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the first signal to the exit. */
  afterSignal: number;
}

/**
 * Runs `body` (with `signal` from interruptSignal() in scope) in a child node, sends it SIGTERM once
 * it printed "ready" (and with `times` 2 again once it aborted), and reports how it ended.
 */
function interrupted(body: string, times = 1): Promise<Ended> {
  const script = `const signal = require(${MODULE}).interruptSignal();\nsignal.addEventListener('abort', () => console.log('aborted'));\n${body}`;
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  let signalled = 0;
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (signalled === 0 && stdout.includes('ready\n')) {
      signalled = Date.now();
      child.kill('SIGTERM');
    }
    // The second one once the first has been handled (two at once may be taken as one).
    if (times === 2 && stdout.includes('aborted\n')) child.kill('SIGTERM');
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, afterSignal: Date.now() - signalled });
    });
  });
}

/** A listening server nothing closes: the stand-in for a leaked handle. */
const LEAK = `require('node:net').createServer().listen(0, '127.0.0.1', () => console.log('ready'));`;

describe('magi interrupt guard', function () {
  this.timeout(30_000);

  it('cancels on the first signal and lets the process end by itself when nothing holds it', async () => {
    const ended = await interrupted(`const server = require('node:net').createServer().listen(0, '127.0.0.1', () => console.log('ready'));
signal.addEventListener('abort', () => server.close());`);
    assert.equal(ended.signal, null);
    assert.equal(ended.code, 0, ended.stderr);
    assert.equal(ended.stdout, 'ready\naborted\n');
    assert.equal(ended.stderr, '');
    assert.ok(ended.afterSignal < 1_000, `took ${ended.afterSignal} ms`);
  });

  it(`exits ${INTERRUPTED_EXIT_CODE} ${INTERRUPT_GRACE_MS / 1000} s after the signal when something still holds the process, naming it`, async () => {
    const ended = await interrupted(LEAK);
    assert.equal(ended.code, INTERRUPTED_EXIT_CODE);
    assert.equal(ended.stdout, 'ready\naborted\n');
    assert.match(ended.stderr, new RegExp(`^magi: still running ${INTERRUPT_GRACE_MS / 1000} s after SIGTERM \\(active: [^)]*TCPServerWrap[^)]*\\); exiting\n$`));
    assert.ok(ended.afterSignal >= INTERRUPT_GRACE_MS - 100 && ended.afterSignal < INTERRUPT_GRACE_MS + 2_000, `took ${ended.afterSignal} ms`);
  });

  it('a second signal ends it at once', async () => {
    const ended = await interrupted(LEAK, 2);
    assert.equal(ended.signal, 'SIGTERM');
    assert.ok(ended.afterSignal < 1_000, `took ${ended.afterSignal} ms`);
  });
});

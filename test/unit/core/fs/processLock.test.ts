import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireProcessLock } from '../../../../src/core/fs/processLock';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

describe('process locks', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-locks-test-'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const lockFiles = async (): Promise<string[]> => (await fsp.readdir(dir)).filter((name) => name.endsWith('.lock'));

  it('holds a key until released, and leaves no file behind', async () => {
    const first = await acquireProcessLock('/ws/a.txt', { dir });
    let got = false;
    const second = acquireProcessLock('/ws/a.txt', { dir }).then((lock) => {
      got = true;
      return lock.release();
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(got, false, 'the second holder must wait');
    const other = await acquireProcessLock('/ws/b.txt', { dir });
    await other.release();
    await first.release();
    await second;
    assert.equal(got, true);
    assert.deepEqual(await lockFiles(), []);
  });

  it('takes over a lock whose owner process is gone', async () => {
    const dead = spawnSync('true').pid;
    const held = await acquireProcessLock('/ws/a.txt', { dir });
    const [file] = await lockFiles();
    await held.release();
    await fsp.writeFile(path.join(dir, file ?? ''), `${dead}\n${os.hostname()}\nsometoken\n/ws/a.txt\n`);
    const lock = await acquireProcessLock('/ws/a.txt', { dir, timeoutMs: 2000 });
    await lock.release();
    assert.deepEqual(await fsp.readdir(dir), []);
  });

  it('waits for a live owner, then names it in a clear error; the owner keeps its lock', async () => {
    const owner = spawn('sleep', ['30']);
    try {
      const held = await acquireProcessLock('/ws/a.txt', { dir });
      const [file] = await lockFiles();
      await held.release();
      const content = `${owner.pid}\n${os.hostname()}\nlivetoken\n/ws/a.txt\n`;
      await fsp.writeFile(path.join(dir, file ?? ''), content);
      await assert.rejects(acquireProcessLock('/ws/a.txt', { dir, timeoutMs: 300, display: 'a.txt' }), (err: Error) => {
        assert.match(err.message, new RegExp(`^another Magi process \\(pid ${owner.pid}\\) has been editing a\\.txt for \\d+ s \\(it may be waiting for a review\\); nothing was written\\. Retry when it is done\\.$`));
        return true;
      });
      assert.equal(await fsp.readFile(path.join(dir, file ?? ''), 'utf8'), content);
    } finally {
      owner.kill();
    }
  });

  it('stops waiting when cancelled', async () => {
    const held = await acquireProcessLock('/ws/a.txt', { dir });
    const controller = new AbortController();
    const waiting = acquireProcessLock('/ws/a.txt', { dir, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(waiting, { name: 'AbortError' });
    await held.release();
  });

  it('serializes read-modify-write cycles of several processes (no lost update)', async () => {
    const counter = path.join(dir, 'counter.txt');
    await fsp.writeFile(counter, '0');
    const script = path.join(dir, 'bump.ts');
    await fsp.writeFile(
      script,
      [
        `import { promises as fsp } from 'node:fs';`,
        `import { acquireProcessLock } from ${JSON.stringify(path.join(ROOT, 'src', 'core', 'fs', 'processLock'))};`,
        `(async () => {`,
        `  for (let i = 0; i < 50; i++) {`,
        `    const lock = await acquireProcessLock('counter', { dir: ${JSON.stringify(dir)} });`,
        `    const n = Number(await fsp.readFile(${JSON.stringify(counter)}, 'utf8'));`,
        `    await new Promise((r) => setImmediate(r));`,
        `    await fsp.writeFile(${JSON.stringify(counter)}, String(n + 1));`,
        `    await lock.release();`,
        `  }`,
        `})();`,
      ].join('\n'),
    );
    const runs = [1, 2, 3].map(
      () =>
        new Promise<number | null>((resolve) => {
          const child = spawn(TSX, [script], { stdio: 'inherit' });
          child.on('close', resolve);
        }),
    );
    assert.deepEqual(await Promise.all(runs), [0, 0, 0]);
    assert.equal(await fsp.readFile(counter, 'utf8'), '150');
  });
});

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { recordInflight, sweepInflight } from '../../../../src/core/fs/inflight';
import { ToolRuntime } from '../../../../src/core/tools/runtime';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** A process that stages a write of `target` through NodeFilePort and stops just before the rename. */
async function stagedWriter(dir: string, target: string, stateDir?: string): Promise<ChildProcess> {
  const script = path.join(dir, `writer-${Math.random().toString(16).slice(2)}.ts`);
  await fsp.writeFile(
    script,
    [
      `import { NodeFilePort } from ${JSON.stringify(path.join(ROOT, 'src', 'core', 'fs', 'filePort'))};`,
      `const port = new NodeFilePort(${stateDir ? JSON.stringify(stateDir) : ''});`,
      `void port.writeFile(${JSON.stringify(target)}, Buffer.from('new'), { beforeCommit: () => { process.stdout.write('staged\\n'); return new Promise(() => {}); } });`,
      `setInterval(() => {}, 1000);`,
    ].join('\n'),
  );
  // node itself (not the tsx wrapper, which would leave its node child running when killed).
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('staged') && resolve());
    child.on('exit', (code) => reject(new Error(`writer exited with ${code}`)));
  });
  return child;
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const temps = async (folder: string): Promise<string[]> => (await fsp.readdir(folder)).filter((name) => name.endsWith('.tmp'));

describe('in-flight temp files', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-inflight-test-')));
    await fsp.mkdir(path.join(dir, 'ws'));
    await fsp.mkdir(path.join(dir, 'state'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('a write killed with SIGKILL leaves its temp file only until the next runtime starts', async () => {
    const target = path.join(dir, 'ws', 'a.txt');
    await fsp.writeFile(target, 'old');
    await killHard(await stagedWriter(dir, target));
    assert.equal((await temps(path.join(dir, 'ws'))).length, 1, 'the killed write left its temp file');
    await ToolRuntime.create({ root: path.join(dir, 'ws') });
    assert.deepEqual(await temps(path.join(dir, 'ws')), []);
    assert.equal(await fsp.readFile(target, 'utf8'), 'old');
  });

  it("keeps a live process's temp file, and sweeps it once that process is gone", async () => {
    const state = path.join(dir, 'state');
    const target = path.join(dir, 'ws', 'b.txt');
    const writer = await stagedWriter(dir, target, state);
    try {
      assert.equal(await sweepInflight(state), 0);
      assert.equal((await temps(path.join(dir, 'ws'))).length, 1);
    } finally {
      await killHard(writer);
    }
    assert.equal(await sweepInflight(state), 1);
    assert.deepEqual(await temps(path.join(dir, 'ws')), []);
    assert.deepEqual(await fsp.readdir(path.join(state, 'inflight')), []);
  });

  it('never removes a file that is not named like a temp file, whatever an entry says', async () => {
    const state = path.join(dir, 'state');
    const precious = path.join(dir, 'ws', 'precious.txt');
    await fsp.writeFile(precious, 'keep');
    await fsp.mkdir(path.join(state, 'inflight'), { recursive: true });
    await fsp.writeFile(path.join(state, 'inflight', '1-x.entry'), `999999999\n${os.hostname()}\n${precious}\n`);
    assert.equal(await sweepInflight(state), 0);
    assert.equal(await fsp.readFile(precious, 'utf8'), 'keep');
    assert.deepEqual(await fsp.readdir(path.join(state, 'inflight')), []);
  });

  it('forgets an entry once the write is done', async () => {
    const state = path.join(dir, 'state');
    const forget = await recordInflight(path.join(dir, 'ws', '.c.txt.magi-00ff.tmp'), state);
    assert.equal((await fsp.readdir(path.join(state, 'inflight'))).length, 1);
    await forget();
    assert.deepEqual(await fsp.readdir(path.join(state, 'inflight')), []);
  });
});

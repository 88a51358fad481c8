import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { runMagi, spawnMagi, type MagiRun } from './helpers/cli';

function magi(args: string[], stdin = ''): Promise<MagiRun> {
  return runMagi(args, { stdin });
}

/** Chromium main processes among the descendants of `pid` (their helpers are Chromium's children, not counted). */
function chromiumUnder(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' }).trim().split('\n').map((line) => line.trim().split(/\s+/));
  const found: number[] = [];
  const visit = (parent: number): void => {
    for (const [child, ppid, comm] of rows) {
      if (Number(ppid) !== parent) continue;
      if (comm === 'chromium') found.push(Number(child));
      else visit(Number(child));
    }
  };
  visit(pid);
  return found;
}

/** A `magi tools` process driven one request at a time, as an agent would. */
function conversation(cwd: string): { child: ChildProcessWithoutNullStreams; ask(request: object): Promise<Record<string, unknown>> } {
  const child = spawnMagi(['tools', '--cwd', cwd]);
  const replies = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    async ask(request) {
      child.stdin.write(JSON.stringify(request) + '\n');
      const next = await replies.next();
      assert.ok(!next.done, 'magi tools closed its output early');
      return JSON.parse(next.value) as Record<string, unknown>;
    },
  };
}

describe('magi CLI', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-cli-')));
    await fsp.writeFile(path.join(dir, 'a.txt'), 'alpha\nbeta\n');
  });
  afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

  it('magi tool prints the visible block', async () => {
    const { code, stdout } = await magi(['tool', 'read', '{"paths":["a.txt:2"]}', '--cwd', dir]);
    assert.equal(code, 0);
    assert.match(stdout, /^STATUS: success\nPATHS: a\.txt:2\n(?:[A-Z_]+: .*\n)*OUTPUT:\n\[a\.txt#[0-9A-F]{6}\]\n2:beta\n$/);
  });

  it('magi tool --json prints one JSON object; a tool failure still exits 0', async () => {
    const { code, stdout } = await magi(['tool', 'read', '{"paths":["missing.txt"]}', '--json', `--cwd=${dir}`]);
    assert.equal(code, 0);
    const result = JSON.parse(stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(result), ['tool', 'status', 'content', 'metadata']);
    assert.equal(result.status, 'error');
    assert.match(String(result.content), /missing\.txt does not exist/);
  });

  it('usage errors exit 2 with the usage on stderr', async () => {
    for (const args of [[], ['tool'], ['tool', 'read', '{bad json'], ['nope'], ['tool', 'read', '{}', '--cwd', path.join(dir, 'none')], ['tool', 'read', '--settings']]) {
      const { code, stderr } = await magi(args);
      assert.equal(code, 2, `magi ${args.join(' ')}`);
      assert.match(stderr, /^magi: .*\n\nUsage:/);
    }
  });

  it('applies a settings file in the older seed’s keys', async () => {
    const settings = path.join(dir, 'settings.json');
    await fsp.writeFile(settings, JSON.stringify({ tools: { read: { absolute_paths: false } } }));
    const { stdout } = await magi(['tool', 'read', JSON.stringify({ paths: [os.tmpdir()] }), '--cwd', dir, '--settings', settings, '--json']);
    assert.match(JSON.parse(stdout).content, /capabilities\.tools\.read\.absolute_paths is false/);
  });

  it('magi tools answers each line before reading the next, in one session', async () => {
    const { child, ask } = conversation(dir);
    try {
      const written = await ask({ tool: 'write', args: { path: 'b.txt', content: 'one\n' } });
      assert.equal(written.status, 'success');
      const read = await ask({ tool: 'read', args: { paths: ['b.txt'] } });
      assert.match(String(read.content), /^\[b\.txt#[0-9A-F]{6}\]\n1:one$/);
      const tag = /#([0-9A-F]{6})\]/.exec(String(read.content))?.[1];
      const edit = await ask({ tool: 'hash_edit', args: { input: `[b.txt#${tag}]\nINS.POST 1:\n+two` } });
      assert.equal(edit.status, 'success', String(edit.content));
      assert.equal(await fsp.readFile(path.join(dir, 'b.txt'), 'utf8'), 'one\ntwo\n');
      assert.ok(edit.display, 'the --json shape carries display data when present');
      const bad = await ask({ tool: 'read', args: { paths: ['b.txt'] }, extra: true });
      assert.match(String(bad.content), /unknown field extra/);
      const unknown = await ask({ tool: 'nope', args: {} });
      assert.match(String(unknown.content), /Unknown tool `nope`/);
    } finally {
      child.stdin.end();
    }
    assert.equal(await new Promise((resolve) => child.on('close', resolve)), 0);
  });

  it('magi tools ends on SIGTERM while it waits for input, closing the browser it started (exit 130)', async function () {
    this.timeout(60_000);
    const { child, ask } = conversation(dir);
    const refused = await ask({ tool: 'browser', args: { command: 'open data:text/html,x' } });
    assert.match(String(refused.content), /open takes http:\/\/ or https:\/\/ URLs only/, 'a refused URL starts nothing');
    const server = createServer((_request, response) => response.end('<title>Up</title>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const page = await ask({ tool: 'browser', args: { command: `open http://127.0.0.1:${(server.address() as AddressInfo).port}/` } });
      assert.equal(page.status, 'success', String(page.content));
      const browsers = chromiumUnder(child.pid ?? -1);
      assert.equal(browsers.length, 1, 'one Chromium under magi (tsx runs it in a child node)');
      child.kill('SIGTERM');
      assert.equal(await new Promise((resolve) => child.on('close', resolve)), 130);
      assert.throws(() => process.kill(Number(browsers[0]), 0), /ESRCH/, 'the browser is gone with magi');
    } finally {
      server.close();
    }
  });
});

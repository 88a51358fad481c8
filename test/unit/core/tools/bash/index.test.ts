import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';
import { markedProcesses, pidsIn, running, waitForPids } from '../../../helpers/procs';

const NESTED = `echo $$ >> pids; bash -c 'echo $$ >> pids; sleep 100 & echo $! >> pids; bash -c "echo \\$\\$ >> pids; sleep 100 & echo \\$! >> pids; wait" & wait'`;
const NESTED_PIDS = 5;

describe('bash tool', function () {
  this.timeout(30_000);
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await tempWorkspace();
  });
  afterEach(async () => {
    await ws.cleanup();
    assert.deepEqual(markedProcesses(), [], 'a bash run left a process behind');
  });

  it('runs a command and reports success with metadata', async () => {
    const r = await ws.run('bash', { command: 'echo out; echo err >&2', intent: 'check the output' });
    assert.equal(r.status, 'success');
    assert.equal(r.content, 'out\nerr\n[exit 0]');
    assert.equal(r.metadata.intent, 'check the output');
    assert.equal(r.metadata.command, 'echo out; echo err >&2');
    assert.equal(r.metadata.exit_code, 0);
    assert.equal(r.metadata.cwd, '.');
    assert.equal(r.metadata.bytes_seen, 8);
    assert.equal(r.metadata.truncated, false);
    assert.equal(r.metadata.cleanup, 'none left');
    assert.deepEqual(Object.keys(r.metadata).slice(0, 2), ['intent', 'command']);
  });

  it('answers to the aliases shell and cmd', async () => {
    for (const name of ['shell', 'cmd']) {
      const r = await ws.run(name, { command: 'pwd', intent: 'where am I' });
      assert.equal(r.content, `${ws.root}\n[exit 0]`);
    }
  });

  it('turns a non-zero exit into an error with the output and the exit code', async () => {
    const r = await ws.run('bash', { command: 'echo failing; exit 3', intent: 'fail' });
    assert.equal(r.status, 'error');
    assert.equal(r.content, 'failing\n[exit 3]');
    assert.equal(r.metadata.exit_code, 3);
    assert.equal(r.metadata.signal, null);
  });

  it('rejects an empty or blank intent, a blank command and a bad timeout', async () => {
    for (const intent of ['', '   ', undefined]) {
      const r = await ws.run('bash', { command: 'touch ran', intent });
      assert.equal(r.status, 'error');
      assert.match(r.content, /intent/);
    }
    assert.match((await ws.run('bash', { command: 'touch ran', intent: '   ' })).content, /must not be empty or blank/);
    assert.match((await ws.run('bash', { command: '  ', intent: 'x' })).content, /command must not be blank/);
    for (const timeout of [0, 301, 1.5]) assert.match((await ws.run('bash', { command: 'touch ran', intent: 'x', timeout })).content, /timeout/);
    assert.equal(existsSync(path.join(ws.root, 'ran')), false);
  });

  it('runs in cwd and refuses a missing or non-directory cwd before running', async () => {
    await ws.files({ 'sub/f.txt': 'x' });
    const ok = await ws.run('bash', { command: 'ls', intent: 'list', cwd: 'sub' });
    assert.equal(ok.content, 'f.txt\n[exit 0]');
    assert.equal(ok.metadata.cwd, 'sub');
    const missing = await ws.run('bash', { command: 'touch ran', intent: 'x', cwd: 'nope' });
    assert.equal(missing.status, 'error');
    assert.match(missing.content, /cwd nope does not exist/);
    const file = await ws.run('bash', { command: 'touch ran', intent: 'x', cwd: 'sub/f.txt' });
    assert.match(file.content, /is not a directory/);
    assert.match((await ws.run('bash', { command: 'touch ran', intent: 'x', cwd: '../..' })).content, /escapes the workspace root/);
    assert.equal(existsSync(path.join(ws.root, 'ran')), false);
  });

  it('refuses expansion characters when shell_expansion is false, before running anything', async () => {
    const strict = await tempWorkspace({ capabilities: { tools: { bash: { shell_expansion: false } } } });
    try {
      for (const command of ['touch ran; echo $HOME', 'touch ran ~', 'touch ran `id`', 'touch ran{1,2}']) {
        const r = await strict.run('bash', { command, intent: 'x' });
        assert.equal(r.status, 'error');
        assert.match(r.content, /capabilities\.tools\.bash\.shell_expansion/);
      }
      assert.equal(existsSync(path.join(strict.root, 'ran')), false);
      assert.equal((await strict.run('bash', { command: 'echo plain', intent: 'x' })).status, 'success');
    } finally {
      await strict.cleanup();
    }
  });

  it('strips credentials from the environment and passes the rest', async () => {
    process.env.OPENAI_API_KEY = 'sk-test';
    process.env.MAGI_TEST_PASSES = 'yes';
    try {
      const r = await ws.run('bash', { command: 'echo "[${OPENAI_API_KEY-unset}] [$MAGI_TEST_PASSES]"', intent: 'env' });
      assert.equal(r.content, '[unset] [yes]\n[exit 0]');
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.MAGI_TEST_PASSES;
    }
  });

  it('strips the names the runtime holds in secret storage', async () => {
    process.env.MAGI_TEST_SECRET = 'hidden';
    try {
      const runtime = await ToolRuntime.create({ root: ws.root, secretEnvNames: ['MAGI_TEST_SECRET'] });
      const { result } = await dispatchTool(createDefaultRegistry(), runtime, 'bash', { command: 'echo "[${MAGI_TEST_SECRET-unset}]"', intent: 'env' });
      assert.equal(result.content, '[unset]\n[exit 0]');
    } finally {
      delete process.env.MAGI_TEST_SECRET;
    }
  });

  it('refuses a cwd outside the root when capabilities.tools.bash.absolute_paths is false', async () => {
    const strict = await tempWorkspace({ 'capabilities.tools.bash.absolute_paths': false });
    try {
      const r = await strict.run('bash', { command: 'touch ran', intent: 'x', cwd: path.dirname(strict.root) });
      assert.equal(r.status, 'error');
      assert.match(r.content, /capabilities\.tools\.bash\.absolute_paths is false/);
      assert.equal((await ws.run('bash', { command: 'pwd', intent: 'x', cwd: path.dirname(ws.root) })).content, `${path.dirname(ws.root)}\n[exit 0]`);
      assert.equal(existsSync(path.join(path.dirname(strict.root), 'ran')), false);
    } finally {
      await strict.cleanup();
    }
  });

  it('shows binary and invalid UTF-8 output lossily and says so', async () => {
    const r = await ws.run('bash', { command: "printf '\\xff\\xfe\\x00abc'", intent: 'binary' });
    assert.equal(r.status, 'success');
    assert.equal(r.content, '\uFFFD\uFFFD\uFFFDabc\n[output held bytes that are not valid UTF-8 (or NUL); they are shown as U+FFFD]\n[exit 0]');
    assert.equal(r.metadata.binary, true);
  });

  it('kills a tree of nested shells and sleeps on timeout, with zero survivors', async () => {
    const r = await ws.run('bash', { command: NESTED, intent: 'hang', timeout: 1 });
    const pids = await pidsIn(path.join(ws.root, 'pids'));
    assert.equal(pids.length, NESTED_PIDS);
    assert.equal(r.status, 'error');
    assert.equal(r.metadata.timed_out, true);
    assert.equal(r.metadata.signal, 'SIGTERM');
    assert.match(r.content, /^\[timed out after 1 s; killed with SIGTERM; cleanup: killed \d+ processes; none left\]$/);
    assert.deepEqual(pids.filter(running), []);
  });

  it('kills the tree on cancellation, with zero survivors', async () => {
    const controller = new AbortController();
    const pending = ws.run('bash', { command: NESTED, intent: 'hang' }, { signal: controller.signal });
    const pids = await waitForPids(path.join(ws.root, 'pids'), NESTED_PIDS);
    controller.abort();
    const r = await pending;
    assert.equal(r.metadata.cancelled, true);
    assert.match(r.content, /^\[cancelled; killed with SIGTERM; cleanup: killed \d+ processes; none left\]$/);
    assert.deepEqual(pids.filter(running), []);
  });

  it('escalates to SIGKILL when the tree ignores SIGTERM', async () => {
    const r = await ws.run('bash', { command: "trap '' TERM; echo $$ >> pids; sleep 100 & echo $! >> pids; wait", intent: 'stubborn', timeout: 1 });
    const pids = await pidsIn(path.join(ws.root, 'pids'));
    assert.equal(r.metadata.signal, 'SIGKILL');
    assert.match(r.content, /^\[timed out after 1 s; killed with SIGKILL; cleanup: killed 2 processes; none left\]$/);
    assert.deepEqual(pids.filter(running), []);
  });

  it('kills setsid, nohup and double-forked children that left the tree', async () => {
    const command = `setsid sleep 100 & echo $! >> pids; nohup sleep 100 >/dev/null 2>&1 & echo $! >> pids; ( setsid bash -c 'trap "" TERM; sleep 100 & echo $! >> pids; echo $$ >> pids; wait' & ); sleep 100`;
    const r = await ws.run('bash', { command, intent: 'escape', timeout: 1 });
    const pids = await pidsIn(path.join(ws.root, 'pids'));
    assert.equal(pids.length, 4);
    assert.equal(r.metadata.timed_out, true);
    assert.equal(r.metadata.cleanup_warning, undefined);
    assert.deepEqual(pids.filter(running), []);
  });

  it('kills background jobs still running after a normal exit and reports them', async () => {
    const r = await ws.run('bash', { command: 'sleep 100 & echo $! > pids; echo done', intent: 'leave a job' });
    const pids = await pidsIn(path.join(ws.root, 'pids'));
    assert.equal(r.status, 'success');
    assert.equal(r.metadata.background_killed, 1);
    assert.equal(r.content, 'done\n[exit 0; killed 1 background process still running after the shell exited]');
    assert.deepEqual(pids.filter(running), []);
  });

  it('prints 1 GB within the output and memory bounds without being killed', async function () {
    this.timeout(120_000);
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
    const r = await ws.run('bash', { command: "head -c 1000000000 /dev/zero | tr '\\0' 'a'; echo; echo end", intent: 'flood', timeout: 120 });
    clearInterval(sampler);
    assert.equal(r.status, 'success');
    assert.ok(Buffer.byteLength(r.content) <= 64 * 1024, `content is ${Buffer.byteLength(r.content)} bytes`);
    assert.ok((r.metadata.bytes_seen as number) >= 1e9);
    assert.equal(r.metadata.truncated, true);
    assert.match(r.content, /^a+\n\[… \d+ bytes omitted …\]\na+\nend\n\[exit 0\]$/);
    assert.ok(peak - before < 100 * 1024 * 1024, `RSS grew by ${Math.round((peak - before) / 1048576)} MB`);
  });
});

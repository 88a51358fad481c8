import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ActivityEvent } from '../../../src/core/activity';
import { runMagi, spawnMagi, type MagiRun } from '../helpers/cli';
import { markedProcesses } from '../helpers/procs';
import { startScriptedProvider, type ScriptedProvider } from '../helpers/scriptedProvider';
import { tempDir, writeTree } from '../helpers/tree';

const KEY = 'sk-cli-test-0123456789abcdef';

describe('magi run', function () {
  this.timeout(30_000);
  let base: string;
  let root: string;
  let home: string;
  let server: ScriptedProvider | undefined;
  beforeEach(async () => {
    base = await tempDir('magi-run-');
    root = path.join(base, 'ws');
    home = path.join(base, 'home');
    await fsp.mkdir(home);
    await writeTree(root, { 'a.txt': 'alpha\n' });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await fsp.rm(base, { recursive: true, force: true });
  });

  const magi = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<MagiRun> =>
    runMagi(['run', ...args, '--cwd', root], { env: { PATH: process.env.PATH, HOME: home, MAGI_API_KEY: KEY, MAGI_MODEL: 'scripted', ...env } });

  it('prints the streamed answer and one line per tool call, keeps a session, exits 0', async () => {
    server = await startScriptedProvider([{ toolCalls: [{ name: 'read', arguments: { paths: ['a.txt'] } }], text: 'Let me look.' }, { text: 'It says alpha.' }]);
    const { code, stdout, stderr } = await magi(['what does a.txt say?', '--base-url', server.baseUrl]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^Let me look\.\n\[read\] a\.txt · success · \d+ ms\nIt says alpha\.\n$/);
    assert.equal(server.requests[0]?.headers.authorization, `Bearer ${KEY}`);
    const sessions = await fsp.readdir(path.join(root, '.magi', 'sessions'));
    assert.equal(sessions.length, 1);
    assert.match(stderr, new RegExp(`session .*${sessions[0]}`));
  });

  it('--json prints the activity events as JSON Lines, run_start first and run_end last', async () => {
    server = await startScriptedProvider([{ text: 'hi there' }]);
    const { code, stdout } = await magi(['greet', '--json', '--base-url', server.baseUrl, '--provider', 'openai']);
    assert.equal(code, 0);
    const events = stdout.trim().split('\n').map((l) => JSON.parse(l) as ActivityEvent);
    assert.equal(events[0]?.type, 'run_start');
    assert.deepEqual(events.at(-1), { ...events.at(-1), type: 'run_end', outcome: 'completed', finalText: 'hi there' });
    assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
    assert.equal(events.filter((e) => e.type === 'text_delta').map((e) => (e as { text: string }).text).join(''), 'hi there');
  });

  it('speaks the Anthropic format with --provider anthropic and resumes --session FILE', async () => {
    server = await startScriptedProvider([{ text: 'first' }, { text: 'second' }]);
    const session = path.join(base, 's.jsonl');
    const env = { MAGI_API_KEY: '', ANTHROPIC_API_KEY: KEY };
    assert.equal((await magi(['one', '--provider', 'anthropic', '--base-url', server.baseUrl, '--session', session], env)).code, 0);
    const second = await magi(['two', '--provider', 'anthropic', '--base-url', server.baseUrl, '--session', session], env);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(server.requests[1]?.headers['x-api-key'], KEY);
    const messages = (server.requests[1]?.body as { messages: { role: string }[] }).messages;
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
    const lines = (await fsp.readFile(session, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    assert.deepEqual(lines.map((l) => l.type), ['session_start', 'user', 'assistant', 'run_end', 'user', 'assistant', 'run_end']);
  });

  it('Ctrl-C cancels the running tool with its shell tree and exits 130', async () => {
    server = await startScriptedProvider([{ toolCalls: [{ name: 'bash', arguments: { command: 'sleep 60 & sleep 60; wait', intent: 'wait' } }] }]);
    const child = spawnMagi(['run', 'wait', '--json', '--cwd', root, '--base-url', server.baseUrl], { PATH: process.env.PATH, HOME: home, MAGI_API_KEY: KEY, MAGI_MODEL: 'scripted', MAGI_BASH_TEST_OWNER: process.env.MAGI_BASH_TEST_OWNER });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('"type":"tool_start"')) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 130, stdout);
    const events = stdout.trim().split('\n').map((l) => JSON.parse(l) as ActivityEvent);
    assert.deepEqual(events.filter((e) => e.type === 'cancelled').map((e) => (e as { tools: string[] }).tools), [['bash']]);
    // The shell's children carry this test's owner mark (MAGI_BASH_TEST_OWNER), so the scan sees exactly them.
    assert.deepEqual(markedProcesses(), [], 'no shell process outlived the run');
  });

  it('exits 1 on a provider failure, naming it without the key', async () => {
    server = await startScriptedProvider([{ status: 401, body: `{"error":{"message":"Incorrect API key provided: ${KEY}"}}` }]);
    const { code, stdout, stderr } = await magi(['hi', '--base-url', server.baseUrl]);
    assert.equal(code, 1);
    assert.match(stderr, /failed: .*401/);
    assert.ok(!stdout.includes(KEY) && !stderr.includes(KEY), 'the key is never printed');
  });

  it('exits 1 at the turn limit set in the settings file', async () => {
    server = await startScriptedProvider([{ toolCalls: [{ name: 'list_files', arguments: {} }] }]);
    const settings = path.join(base, 'settings.json');
    await fsp.writeFile(settings, JSON.stringify({ 'agent.max_turns': 1 }));
    const { code, stderr } = await magi(['loop', '--base-url', server.baseUrl, '--settings', settings]);
    assert.equal(code, 1);
    assert.match(stderr, /turn_limit: stopped after 1 turns/);
  });

  it('usage errors exit 2: no task, no model, no key for the public API, a bad setting', async () => {
    assert.equal((await magi([])).code, 2);
    const noModel = await magi(['hi'], { MAGI_MODEL: '' });
    assert.equal(noModel.code, 2);
    assert.match(noModel.stderr, /--model/);
    const noKey = await magi(['hi'], { MAGI_API_KEY: '', OPENAI_API_KEY: '' });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /OPENAI_API_KEY/);
    const settings = path.join(base, 'bad.json');
    await fsp.writeFile(settings, JSON.stringify({ agent: { max_turns: 0 } }));
    const bad = await magi(['hi', '--settings', settings, '--base-url', 'http://127.0.0.1:9']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /agent\.max_turns must be a whole number from 1/);
    const corrupt = path.join(base, 'corrupt.jsonl');
    await fsp.writeFile(corrupt, 'not json\n{"type":"user"}\n');
    const resumed = await magi(['hi', '--session', corrupt, '--base-url', 'http://127.0.0.1:9']);
    assert.equal(resumed.code, 2);
    assert.match(resumed.stderr, /corrupt\.jsonl/);
  });
});

import * as assert from 'node:assert/strict';
import { promises as fsp, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { startScriptedProvider, type RecordedRequest, type ScriptedProvider } from '../../unit/helpers/scriptedProvider';
import { root } from '../support/magi';

const SETTINGS = ['provider', 'baseUrl', 'model', 'capabilities.tools.bash.allow'] as const;

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('magi');
}

async function configure(values: Partial<Record<(typeof SETTINGS)[number], unknown>>): Promise<void> {
  for (const [key, value] of Object.entries(values)) await config().update(key, value, vscode.ConfigurationTarget.Global);
}

function runTask(task: string): Thenable<string> {
  return vscode.commands.executeCommand<string>('magi.runTask', task);
}

/** The messages of a recorded Chat Completions request. */
function messagesOf(request: RecordedRequest | undefined): Array<{ role: string; content?: string; tool_call_id?: string }> {
  return (request?.body as { messages: Array<{ role: string; content?: string }> }).messages;
}

/** Every file under `dir` (the session files, the output channel logs). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Pids of the bash runs' processes (the `MAGI_BASH_RUN=` marker in their environment) whose command line has `needle`. */
function bashProcesses(needle: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'latin1').replaceAll('\0', ' ');
      const state = /^State:\s+(\w)/m.exec(readFileSync(`/proc/${name}/status`, 'latin1'))?.[1];
      if (environ.includes('MAGI_BASH_RUN=') && cmdline.includes(needle) && state !== 'Z') pids.push(Number(name));
    } catch (err) {
      // A process that ended between the listing and the read, or one of another user: not ours.
      if (!['ENOENT', 'ESRCH', 'EACCES'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
  return pids;
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const value = probe();
    if (value) return value;
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('Magi: Run Task with the HTTP providers and VS Code\'s Language Model API', () => {
  let server: ScriptedProvider;

  beforeEach(async () => {
    server = await startScriptedProvider();
    await configure({ provider: 'openai', baseUrl: server.baseUrl, model: 'scripted', 'capabilities.tools.bash.allow': ['sleep'] });
  });

  afterEach(async () => {
    // A failed test may leave its task running; the next one would find Magi busy.
    await vscode.commands.executeCommand('magi.cancel');
    await vscode.commands.executeCommand('magi.setApiKey', 'openai', '');
    for (const key of SETTINGS) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it('runs a task against a local OpenAI-compatible server without a key and resolves to the answer', async () => {
    server.push({ toolCalls: [{ id: 'call_read', name: 'read', arguments: { paths: ['hello.txt'] } }] }, { text: 'The file greets Magi.' });
    const answer = await runTask('read hello.txt');
    assert.equal(answer, 'The file greets Magi.');
    assert.equal(server.requests.length, 2);
    for (const request of server.requests) assert.equal(request.headers.authorization, undefined);
    const result = messagesOf(server.requests[1]).find((m) => m.role === 'tool');
    assert.equal(result?.tool_call_id, 'call_read');
    assert.match(result?.content ?? '', /^\[hello\.txt#[0-9A-F]{6}\]\n1:Hello, Magi!\n/);
    const sessions = await filesUnder(join(root(), '.magi', 'sessions'));
    assert.ok(sessions.some((f) => f.endsWith('.jsonl')), `a session file under .magi/sessions: ${sessions.join(', ')}`);
  });

  it('sends the key stored through magi.setApiKey as a Bearer token and writes it nowhere', async () => {
    const key = `sk-magi-host-test-${process.pid}-secret`;
    assert.equal(await vscode.commands.executeCommand('magi.setApiKey', 'openai', key), 'stored');
    server.push({ text: 'Keyed answer.' });
    assert.equal(await runTask('say something'), 'Keyed answer.');
    assert.equal(server.requests[0]?.headers.authorization, `Bearer ${key}`);
    const sessions = await filesUnder(join(root(), '.magi'));
    assert.ok(sessions.length > 0);
    for (const file of sessions) assert.ok(!(await fsp.readFile(file, 'utf8')).includes(key), `${file} has no key`);
    // The output channel is written to a log file of the window; wait for the task's last line to reach it.
    const stateDir = dirname(root());
    const channelLog = await until('the Magi output channel log', () => {
      const logs = readdirRecursive(stateDir).filter((f) => /output_logging_[^/]+\/\d+-Magi\.log$/.test(f));
      return logs.find((f) => readFileSync(f, 'utf8').includes('say something'));
    });
    assert.ok(!readFileSync(channelLog, 'utf8').includes(key), 'the output channel has no key');
    assert.equal(await vscode.commands.executeCommand('magi.setApiKey', 'openai', ''), 'cleared');
  });

  it('applies a settings change to the next task', async () => {
    server.push({ text: 'first' }, { text: 'second' });
    assert.equal(await runTask('one'), 'first');
    await configure({ model: 'scripted-2' });
    assert.equal(await runTask('two'), 'second');
    assert.deepEqual(server.requests.map((r) => (r.body as { model: string }).model), ['scripted', 'scripted-2']);
    assert.equal(messagesOf(server.requests[1]).filter((m) => m.role === 'user').length, 1, 'each task is a fresh session');
  });

  it('magi.cancel stops a running bash command and ends the task as cancelled, leaving no process', async () => {
    const command = 'sleep 41.25';
    server.push({ toolCalls: [{ name: 'bash', arguments: { command, intent: 'wait for a long time' } }] }, { text: 'never reached' });
    const running = runTask('wait');
    const outcome = running.then(() => assert.fail('the task should not complete'), (err: unknown) => err);
    await until('the sleep process', () => bashProcesses(command).length > 0);
    const cancelledAt = Date.now();
    assert.equal(await vscode.commands.executeCommand('magi.cancel'), true);
    const err = await outcome;
    assert.ok(Date.now() - cancelledAt < 5_000, 'the task ends promptly');
    assert.ok(err instanceof Error);
    assert.match(err.message, /^Magi task cancelled/);
    assert.deepEqual(bashProcesses(command), []);
    assert.equal(server.requests.length, 1, 'no model turn after the cancel');
    assert.equal(await vscode.commands.executeCommand('magi.cancel'), false, 'nothing left to cancel');
  });

  it('refuses a second task while one runs', async () => {
    server.push({ text: 'slow answer', chunkSize: 1, delayMs: 100 });
    const first = runTask('slow');
    await until('the first request', () => server.requests.length > 0);
    await assert.rejects(Promise.resolve(runTask('second')), /^TaskBusyError: Magi is already running a task \(“slow”\)/);
    assert.equal(await first, 'slow answer');
  });

  it('says that no chat model is available for vscode-lm', async () => {
    await configure({ provider: 'vscode-lm', model: '' });
    await assert.rejects(Promise.resolve(runTask('hello')), (err: Error) => {
      assert.match(err.message, /^No chat model is available in VS Code\. Install and sign in to an extension that provides one \(such as GitHub Copilot Chat\), or set magi\.provider to openai or anthropic/);
      return true;
    });
    assert.equal(server.requests.length, 0);
  });

  it('asks for a key when the public API is configured without one', async () => {
    await configure({ provider: 'anthropic', baseUrl: '', model: 'claude-sonnet-4-5' });
    await assert.rejects(Promise.resolve(runTask('hello')), /^TaskSetupError: No Anthropic API key is stored: run Magi: Set API Key…/);
  });
});

function readdirRecursive(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f));
}

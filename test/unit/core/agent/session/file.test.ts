import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { SessionError, SessionFile, defaultSessionPath, loadSession, newSessionId, toolResultEvent } from '../../../../../src/core/agent/session';
import type { SessionEventInput } from '../../../../../src/core/agent/session';
import type { ToolResult } from '../../../../../src/core/tools/result';

const START = { id: 'abc', cwd: '/work/project', provider: 'openai', model: 'gpt-test', createdAt: 1_700_000_000_000 };

describe('session file', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'magi-session-'));
    file = path.join(dir, 'nested', 'dirs', 's.jsonl');
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function lines(): Promise<string[]> {
    const text = await fs.readFile(file, 'utf8');
    assert.ok(text.endsWith('\n'), 'the file ends with a newline');
    return text.slice(0, -1).split('\n');
  }

  it('round-trips every event type, creating parent directories with mode 0600', async () => {
    const events: SessionEventInput[] = [
      { type: 'user', text: 'fix the bug\nplease', at: 1 },
      { type: 'assistant', turn: 1, text: 'reading', toolCalls: [{ id: 'c1', name: 'read', arguments: '{"paths":["a.ts"]}' }], usage: { inputTokens: 10, outputTokens: 2 }, at: 2 },
      { type: 'tool_result', turn: 1, callId: 'c1', tool: 'read', status: 'success', content: 'raw', providerContent: 'short', metadata: { paths: ['a.ts'], lines: 3 }, at: 3 },
      { type: 'ttsr_injection', hidden: true, turn: 2, rule: 'force-push', reminder: 'do not', source: 'tool_arguments', at: 4 },
      { type: 'cancelled', turn: 2, tools: ['bash'], at: 5 },
      { type: 'run_end', outcome: 'cancelled', at: 6 },
    ];
    const session = await SessionFile.create(file, START);
    for (const event of events) await session.append(event);
    await session.close();

    const loaded = await loadSession(file);
    assert.equal(loaded.tornTail, false);
    assert.equal(loaded.skipped, 0);
    assert.deepEqual(loaded.start, { type: 'session_start', v: 1, ...START, at: START.createdAt });
    assert.deepEqual(loaded.events.slice(1), events);
    if (process.platform !== 'win32') assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
  });

  it('stamps `at` with the current time when the caller leaves it out', async () => {
    const session = await SessionFile.create(file, START);
    const before = Date.now();
    const written = await session.append({ type: 'user', text: 'hi' });
    await session.close();
    assert.ok(written.at >= before && written.at <= Date.now());
  });

  it('refuses to create over an existing file and leaves it untouched', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'precious\n');
    await assert.rejects(SessionFile.create(file, START), (err: unknown) => err instanceof SessionError && err.code === 'exists' && /already exists/.test(err.message));
    assert.equal(await fs.readFile(file, 'utf8'), 'precious\n');
  });

  it('keeps order and whole lines under many concurrent appends', async () => {
    const session = await SessionFile.create(file, START);
    const big = 'x'.repeat(64 * 1024);
    await Promise.all(Array.from({ length: 200 }, (_, i) => session.append({ type: 'user', text: `${i}:${i % 10 === 0 ? big : ''}`, at: i })));
    await session.close();
    const all = await lines();
    assert.equal(all.length, 201);
    const loaded = await loadSession(file);
    assert.deepEqual(
      loaded.events.slice(1).map((e) => (e.type === 'user' ? e.text.split(':')[0] : e.type)),
      Array.from({ length: 200 }, (_, i) => String(i)),
    );
  });

  it('never writes a display field, from a raw object or through toolResultEvent', async () => {
    const result: ToolResult = { status: 'success', content: 'edited', metadata: { path: 'a.ts' }, display: { diffs: [{ path: 'a.ts', diff: '-a\n+b' }] } };
    const session = await SessionFile.create(file, START);
    await session.append(toolResultEvent(1, 'c1', 'hash_edit', result));
    await session.append({ ...result, type: 'tool_result', turn: 1, callId: 'c2', tool: 'hash_edit' } as SessionEventInput);
    await session.close();
    const text = await fs.readFile(file, 'utf8');
    assert.ok(!text.includes('display') && !text.includes('diffs'), text);
    assert.equal((await loadSession(file)).events.length, 3);
  });

  it('refuses an invalid event without writing anything', async () => {
    const session = await SessionFile.create(file, START);
    await assert.rejects(session.append({ type: 'user' } as SessionEventInput), (err: unknown) => err instanceof SessionError && err.code === 'invalid_event');
    await session.close();
    assert.equal((await lines()).length, 1);
    await assert.rejects(session.append({ type: 'user', text: 'late' }), (err: unknown) => err instanceof SessionError && err.code === 'closed');
  });

  it('skips a torn last line on load, truncates it on resume, and appends after it', async () => {
    const session = await SessionFile.create(file, START);
    await session.append({ type: 'user', text: 'one', at: 1 });
    await session.close();
    const whole = await fs.readFile(file, 'utf8');
    await fs.appendFile(file, '{"type":"assistant","turn":1,"te');

    const loaded = await loadSession(file);
    assert.equal(loaded.tornTail, true);
    assert.equal(loaded.skipped, 1);
    assert.equal(loaded.events.length, 2);

    const resumed = await SessionFile.open(file);
    assert.equal(resumed.loaded.tornTail, true);
    assert.equal(await fs.readFile(file, 'utf8'), whole, 'the torn tail is gone before anything is appended');
    await resumed.session.append({ type: 'user', text: 'two', at: 2 });
    await resumed.session.close();

    const after = await loadSession(file);
    assert.equal(after.tornTail, false);
    assert.deepEqual(after.events.map((e) => (e.type === 'user' ? e.text : e.type)), ['session_start', 'one', 'two']);
  });

  it('treats a complete last line without a newline, or a final non-JSON line, as torn', async () => {
    const session = await SessionFile.create(file, START);
    await session.close();
    const whole = await fs.readFile(file, 'utf8');
    await fs.appendFile(file, '{"type":"user","text":"no newline","at":1}');
    assert.equal((await loadSession(file)).tornTail, true);
    await fs.writeFile(file, `${whole}\u0000\u0000garbage\n`);
    const loaded = await loadSession(file);
    assert.equal(loaded.tornTail, true);
    assert.equal(loaded.events.length, 1);
  });

  it('reports mid-file garbage as corruption naming the line', async () => {
    const session = await SessionFile.create(file, START);
    await session.append({ type: 'user', text: 'one', at: 1 });
    await session.close();
    const [first, second] = await lines();
    await fs.writeFile(file, `${first}\nnot json at all\n${second}\n`);
    await assert.rejects(loadSession(file), (err: unknown) => err instanceof SessionError && err.code === 'corrupt' && /s\.jsonl:2: not valid JSON/.test(err.message));
    await assert.rejects(SessionFile.open(file), /s\.jsonl:2/);
  });

  it('reports an unknown or garbled event with its line and field', async () => {
    const session = await SessionFile.create(file, START);
    await session.close();
    const [first] = await lines();
    await fs.writeFile(file, `${first}\n{"type":"telepathy","at":1}\n`);
    await assert.rejects(loadSession(file), (err: unknown) => err instanceof SessionError && /s\.jsonl:2: not a valid session event at type/.test(err.message));
    await fs.writeFile(file, `${first}\n{"type":"tool_result","at":1,"turn":1,"callId":"c","tool":"read","status":"maybe","content":"","metadata":{}}\n`);
    await assert.rejects(loadSession(file), /s\.jsonl:2: not a valid session event at status/);
  });

  it('refuses a file that is not exactly one session', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const start = '{"type":"session_start","at":1,"v":1,"id":"s","cwd":"/w","provider":"p","model":"m","createdAt":1}';
    await fs.writeFile(file, '{"type":"user","text":"hi","at":1}\n');
    await assert.rejects(loadSession(file), /s\.jsonl:1: the first event must be session_start/);
    await fs.writeFile(file, `${start}\n${start}\n`);
    await assert.rejects(loadSession(file), /s\.jsonl:2: session_start may only be the first event/);
    await fs.writeFile(file, '');
    await assert.rejects(loadSession(file), /no session_start event; the file is empty/);
  });

  it('names default session files by date and a url-safe random id', () => {
    const id = newSessionId();
    assert.match(id, /^[A-Za-z0-9_-]{16}$/);
    assert.notEqual(newSessionId(), id);
    const p = defaultSessionPath('/repo', id, new Date(Date.UTC(2026, 10, 30, 10, 43, 8, 123)));
    assert.equal(p, path.join('/repo', '.magi', 'sessions', `2026-11-30T10-43-08Z-${id}.jsonl`));
    assert.throws(() => defaultSessionPath('/repo', '../escape'), /not url-safe/);
  });
});

import assert from 'node:assert/strict';
import { ReminderTurn, TEXT_TAIL, loadReminderConfig } from '../../../../../src/core/agent/reminders';
import type { ReminderConfig } from '../../../../../src/core/agent/reminders';
import { Settings } from '../../../../../src/core/settings';

function config(rules: unknown[], maxRetries = 2): ReminderConfig {
  return loadReminderConfig(new Settings({ agent: { reminders: { enabled: true, max_retries: maxRetries, rules } } }));
}

const SECRET = { name: 'no-secret', pattern: 'rotate the keys? manually', reminder: 'Use the rotation script.', scope: 'text' };
const SLEEP = { name: 'no-sleep', pattern: 'sleep \\d{3,}', reminder: 'Do not sleep that long.', scope: 'tool_arguments' };

describe('ReminderMonitor', () => {
  it('finds a text match split across deltas', () => {
    const monitor = new ReminderTurn(config([SECRET])).startAttempt();
    const deltas = ['I will ro', 'tate the k', 'eys', ' manu', 'ally now'];
    const results = deltas.map((d) => monitor.onTextDelta(d));
    assert.deepEqual(results.slice(0, 4), [undefined, undefined, undefined, undefined]);
    assert.deepEqual(results[4], { rule: 'no-secret', reminder: 'Use the rotation script.', source: 'text' });
  });

  it('finds a match that began up to TEXT_TAIL characters earlier, and misses a longer one (documented)', () => {
    const rule = { ...SECRET, pattern: 'rotate z+ manually' };
    const stream = (gap: number) => {
      const monitor = new ReminderTurn(config([rule])).startAttempt();
      let hit;
      for (const ch of `rotate ${'z'.repeat(gap)} manually`) hit = monitor.onTextDelta(ch) ?? hit;
      return hit?.rule;
    };
    assert.equal(stream(TEXT_TAIL - 20), 'no-secret');
    assert.equal(stream(TEXT_TAIL + 20), undefined);
  });

  it('keeps text rules off tool arguments and tool rules off text', () => {
    const turn = new ReminderTurn(config([SECRET, SLEEP]));
    const monitor = turn.startAttempt();
    assert.equal(monitor.onTextDelta('then run sleep 600 to wait'), undefined);
    assert.equal(monitor.onToolCall({ arguments: JSON.stringify({ content: 'rotate the keys manually' }) }), undefined);
  });

  it('matches tool arguments raw and decoded, for any tool', () => {
    const turn = new ReminderTurn(config([SLEEP, { name: 'raw', pattern: '"timeout":\\s*0\\b', reminder: 'r', scope: 'tool_arguments' }]));
    assert.deepEqual(turn.startAttempt().onToolCall({ arguments: JSON.stringify({ command: 'make && sleep 900' }) }), { rule: 'no-sleep', reminder: 'Do not sleep that long.', source: 'tool_arguments' });
    assert.equal(new ReminderTurn(config([SLEEP])).startAttempt().onToolCall({ arguments: '{"files":[{"content":"x\\nsleep 1000"}]}' })?.rule, 'no-sleep');
    assert.equal(new ReminderTurn(config([{ name: 'raw', pattern: '"timeout":\\s*0\\b', reminder: 'r', scope: 'tool_arguments' }])).startAttempt().onToolCall({ arguments: '{"command":"ls","timeout": 0}' })?.rule, 'raw');
    assert.equal(new ReminderTurn(config([SLEEP])).startAttempt().onToolCall({ arguments: '{"command":"sleep 1000' })?.rule, 'no-sleep', 'malformed JSON is still scanned raw');
  });

  it('decodes JSON escapes so a rule sees the command the shell will run', () => {
    const quoted = { name: 'quoted', pattern: 'echo "hi"', reminder: 'r', scope: 'tool_arguments' };
    const monitor = new ReminderTurn(config([quoted])).startAttempt();
    assert.equal(monitor.onToolCall({ arguments: JSON.stringify({ command: 'echo "hi"' }) })?.rule, 'quoted');
  });

  it('fires a rule at most once per turn, across retries, and only once per attempt', () => {
    const turn = new ReminderTurn(config([SECRET, { ...SECRET, name: 'also', pattern: 'manually' }], 5));
    const first = turn.startAttempt();
    assert.equal(first.onTextDelta('rotate the keys manually')?.rule, 'no-secret');
    assert.equal(first.onTextDelta('manually'), undefined, 'the attempt is being aborted');
    assert.ok(turn.hasFired('no-secret'));

    const second = turn.startAttempt();
    assert.equal(second.onTextDelta('rotate the keys manually')?.rule, 'also');
    const third = turn.startAttempt();
    assert.equal(third.onTextDelta('rotate the keys manually'), undefined);
    assert.equal(turn.attempts, 3);
    assert.equal(turn.retries, 2);

    assert.equal(new ReminderTurn(config([SECRET], 5)).startAttempt().onTextDelta('rotate the key manually')?.rule, 'no-secret', 'a new turn starts fresh');
  });

  it('bounds retries per turn by max_retries, then stays dormant', () => {
    const rules = [1, 2, 3].map((n) => ({ name: `r${n}`, pattern: `word${n}`, reminder: 'r', scope: 'text' }));
    const turn = new ReminderTurn(config(rules, 2));
    assert.equal(turn.canRetry(), true);
    assert.equal(turn.startAttempt().onTextDelta('word1 word2 word3')?.rule, 'r1');
    assert.equal(turn.startAttempt().onTextDelta('word1 word2 word3')?.rule, 'r2');
    assert.equal(turn.canRetry(), false);
    assert.equal(turn.startAttempt().onTextDelta('word1 word2 word3'), undefined);

    const none = new ReminderTurn(config(rules, 0));
    assert.equal(none.canRetry(), false);
    assert.equal(none.startAttempt().onTextDelta('word1'), undefined);
  });

  it('never fires while disabled', () => {
    const disabled = loadReminderConfig(new Settings({ agent: { reminders: { rules: [SECRET] } } }));
    const monitor = new ReminderTurn(disabled).startAttempt();
    assert.equal(monitor.onTextDelta('rotate the keys manually'), undefined);
    assert.equal(monitor.onToolCall({ arguments: JSON.stringify({ command: 'git push --force' }) }), undefined);
  });

  it('fires built-ins on tool calls once enabled', () => {
    const turn = new ReminderTurn(config([]));
    assert.equal(turn.startAttempt().onToolCall({ arguments: JSON.stringify({ command: 'git push --force origin main' }) })?.rule, 'force-push');
  });

  it('keeps per-delta work bounded by the tail window on a long reply', () => {
    const monitor = new ReminderTurn(config([{ ...SECRET, pattern: '\\brotate\\s+(?:the\\s+)?keys?\\s+by\\s+hand\\b' }])).startAttempt();
    const started = process.hrtime.bigint();
    // 400 KB of reply in 20-character deltas, as providers stream it.
    for (let i = 0; i < 20_000; i++) assert.equal(monitor.onTextDelta('rotate keys by han. '), undefined);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms < 2_000, `20,000 deltas took ${ms} ms`);
  });
});

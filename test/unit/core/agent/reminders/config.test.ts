import assert from 'node:assert/strict';
import { BUILTIN_RULES, DEFAULT_MAX_RETRIES, ReminderConfigError, loadReminderConfig } from '../../../../../src/core/agent/reminders';
import { Settings } from '../../../../../src/core/settings';

const load = (tree: Record<string, unknown>) => loadReminderConfig(new Settings(tree));

function rejects(tree: Record<string, unknown>, message: RegExp, ruleIndex?: number): void {
  assert.throws(
    () => load(tree),
    (err: unknown) => {
      assert.ok(err instanceof ReminderConfigError, String(err));
      assert.match(err.message, message);
      assert.equal(err.ruleIndex, ruleIndex);
      return true;
    },
  );
}

describe('loadReminderConfig', () => {
  it('is disabled by default, with no rules and two retries', () => {
    assert.deepEqual(load({}), { enabled: false, rules: [], maxRetries: DEFAULT_MAX_RETRIES });
    assert.equal(DEFAULT_MAX_RETRIES, 2);
  });

  it('when enabled, puts user rules before the built-ins with defaults filled in', () => {
    const config = load({ agent: { reminders: { enabled: true, max_retries: 1, rules: [{ pattern: 'TODO\\(later\\)', reminder: 'Finish it now.' }, { name: 'no-sleep', pattern: 'sleep \\d+', reminder: 'Do not sleep.', scope: 'tool_arguments' }] } } });
    assert.equal(config.enabled, true);
    assert.equal(config.maxRetries, 1);
    assert.deepEqual(
      config.rules.map((r) => [r.name, r.scope, r.builtin]),
      [['rule-0', 'both', false], ['no-sleep', 'tool_arguments', false], ...BUILTIN_RULES.map((r) => [r.name, r.scope, true])],
    );
    assert.ok(config.rules[0]?.patterns[0]?.test('TODO(later)'));
  });

  it('reads the older ttsr.* keys, and lets agent.reminders.* win over them', () => {
    const config = load({ ttsr: { enabled: true, rules: [{ pattern: 'x{3}', reminder: 'r' }] } });
    assert.equal(config.enabled, true);
    assert.equal(config.rules[0]?.name, 'rule-0');
    assert.equal(load({ 'ttsr.enabled': true, 'agent.reminders.enabled': false }).enabled, false);
    assert.equal(load({ 'ttsr.max_retries': 0 }).maxRetries, 0);
  });

  it('validates user rules even while disabled', () => {
    rejects({ 'ttsr.rules': [{ pattern: '(', reminder: 'r' }] }, /agent\.reminders\.rules\[0\]: "pattern" is not a valid JavaScript regular expression: .*Unterminated group/, 0);
  });

  it('names the bad rule and says why', () => {
    const ok = { pattern: 'a', reminder: 'r' };
    const cases: [unknown, RegExp][] = [
      ['a', /rules\[1\]: must be an object .*got "a"/],
      [null, /rules\[1\]: must be an object .*got null/],
      [{ reminder: 'r' }, /rules\[1\]: "pattern" must be a non-empty string, got undefined/],
      [{ pattern: 42, reminder: 'r' }, /rules\[1\]: "pattern" must be a non-empty string, got number/],
      [{ pattern: '', reminder: 'r' }, /"pattern" must be a non-empty string/],
      [{ pattern: 'a'.repeat(1_001), reminder: 'r' }, /rules\[1\]: "pattern" is 1001 characters; the limit is 1000/],
      [{ pattern: 'a*', reminder: 'r' }, /rules\[1\]: "pattern" matches the empty string/],
      [{ pattern: 'a' }, /rules\[1\]: "reminder" must be a non-empty string, got undefined/],
      [{ pattern: 'a', reminder: '  ' }, /"reminder" must be a non-empty string/],
      [{ pattern: 'a', reminder: ['r'] }, /"reminder" must be a non-empty string, got an array/],
      [{ pattern: 'a', reminder: 'r'.repeat(4_001) }, /"reminder" is 4001 characters; the limit is 4000/],
      [{ pattern: 'a', reminder: 'r', scope: 'prose' }, /rules\[1\]: "scope" must be one of text, tool_arguments, both, got "prose"/],
      [{ pattern: 'a', reminder: 'r', name: 7 }, /"name" must be a non-empty string when set/],
      [{ pattern: 'a', reminder: 'r', name: 'force-push' }, /rules\[1\]: name "force-push" is already used by another rule/],
      [{ pattern: 'a', reminder: 'r', name: 'rule-0' }, /name "rule-0" is already used/],
      [{ pattern: 'a', reminder: 'r', flags: 'i' }, /rules\[1\]: unknown key "flags" \(allowed: name, pattern, reminder, scope\)/],
    ];
    for (const [bad, message] of cases) rejects({ 'agent.reminders.rules': [ok, bad] }, message, 1);
  });

  it('rejects bad enabled, max_retries and rules values', () => {
    rejects({ 'agent.reminders.enabled': 'yes' }, /agent\.reminders\.enabled must be true or false, got "yes"/);
    rejects({ 'agent.reminders.max_retries': -1 }, /max_retries must be an integer from 0 to 10, got number/);
    rejects({ 'agent.reminders.max_retries': 1.5 }, /max_retries must be an integer/);
    rejects({ 'agent.reminders.max_retries': 11 }, /max_retries must be an integer from 0 to 10/);
    rejects({ 'agent.reminders.rules': { pattern: 'a', reminder: 'r' } }, /agent\.reminders\.rules must be an array/);
  });
});

/**
 * Reads `agent.reminders.*` (older seed: `ttsr.*`, mapped by Settings) and validates all of it up
 * front, so a bad user rule is reported when the run starts rather than silently never firing.
 */
import type { Settings } from '../../settings';
import { BUILTIN_RULES } from './rules';
import type { ReminderRule, ReminderScope } from './rules';

export const REMINDERS_ENABLED_KEY = 'agent.reminders.enabled';
export const REMINDERS_RULES_KEY = 'agent.reminders.rules';
export const REMINDERS_MAX_RETRIES_KEY = 'agent.reminders.max_retries';

export const DEFAULT_MAX_RETRIES = 2;
/** Retries per turn beyond this would let a loop of reminders burn a run's budget. */
export const MAX_RETRIES_LIMIT = 10;
/** Longer user patterns are refused: they are slow to test on every streamed delta. */
export const MAX_PATTERN_CHARS = 1_000;
/** The reminder is injected into the conversation on every match; keep it a reminder, not a prompt. */
export const MAX_REMINDER_CHARS = 4_000;

const SCOPES: readonly ReminderScope[] = ['text', 'tool_arguments', 'both'];
const RULE_KEYS = ['name', 'pattern', 'reminder', 'scope'];

export interface ReminderConfig {
  enabled: boolean;
  /** User rules first, then the built-ins; empty when disabled. */
  rules: readonly ReminderRule[];
  /** Retries (reminder injections) allowed per turn. */
  maxRetries: number;
}

/** A setting under `agent.reminders` that cannot be used; `ruleIndex` names the bad user rule. */
export class ReminderConfigError extends Error {
  constructor(
    message: string,
    readonly ruleIndex?: number,
  ) {
    super(message);
    this.name = 'ReminderConfigError';
  }
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

function parseRule(value: unknown, index: number, taken: Set<string>): ReminderRule {
  const where = `${REMINDERS_RULES_KEY}[${index}]`;
  const fail = (why: string): never => {
    throw new ReminderConfigError(`${where}: ${why}`, index);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`must be an object { "pattern": "...", "reminder": "..." }, got ${describeValue(value)}`);
  const rule = value as Record<string, unknown>;
  const unknown = Object.keys(rule).filter((key) => !RULE_KEYS.includes(key));
  if (unknown.length > 0) fail(`unknown key ${unknown.map((k) => JSON.stringify(k)).join(', ')} (allowed: ${RULE_KEYS.join(', ')})`);

  const { pattern, reminder, name, scope } = rule;
  if (typeof pattern !== 'string' || pattern === '') fail(`"pattern" must be a non-empty string, got ${describeValue(pattern)}`);
  const source = pattern as string;
  if (source.length > MAX_PATTERN_CHARS) fail(`"pattern" is ${source.length} characters; the limit is ${MAX_PATTERN_CHARS}`);
  let regex: RegExp;
  try {
    regex = new RegExp(source);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return fail(`"pattern" is not a valid JavaScript regular expression: ${err.message}`);
  }
  if (regex.test('')) fail('"pattern" matches the empty string, so it would fire on every turn');

  if (typeof reminder !== 'string' || reminder.trim() === '') fail(`"reminder" must be a non-empty string, got ${describeValue(reminder)}`);
  const text = reminder as string;
  if (text.length > MAX_REMINDER_CHARS) fail(`"reminder" is ${text.length} characters; the limit is ${MAX_REMINDER_CHARS}`);

  if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) fail(`"name" must be a non-empty string when set, got ${describeValue(name)}`);
  const ruleName = (name as string | undefined) ?? `rule-${index}`;
  if (taken.has(ruleName)) fail(`name ${JSON.stringify(ruleName)} is already used by another rule; names must be unique`);
  taken.add(ruleName);

  if (scope !== undefined && !SCOPES.includes(scope as ReminderScope)) fail(`"scope" must be one of ${SCOPES.join(', ')}, got ${describeValue(scope)}`);
  return { name: ruleName, patterns: [regex], reminder: text, scope: (scope as ReminderScope | undefined) ?? 'both', builtin: false };
}

/** Reads and validates the reminder settings. Throws ReminderConfigError naming the bad key or rule. */
export function loadReminderConfig(settings: Settings): ReminderConfig {
  const enabled = settings.get(REMINDERS_ENABLED_KEY) ?? false;
  if (typeof enabled !== 'boolean') throw new ReminderConfigError(`${REMINDERS_ENABLED_KEY} must be true or false, got ${describeValue(enabled)}`);

  const maxRetries = settings.get(REMINDERS_MAX_RETRIES_KEY) ?? DEFAULT_MAX_RETRIES;
  if (typeof maxRetries !== 'number' || !Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > MAX_RETRIES_LIMIT) {
    throw new ReminderConfigError(`${REMINDERS_MAX_RETRIES_KEY} must be an integer from 0 to ${MAX_RETRIES_LIMIT}, got ${describeValue(maxRetries)}`);
  }

  const raw = settings.get(REMINDERS_RULES_KEY) ?? [];
  if (!Array.isArray(raw)) throw new ReminderConfigError(`${REMINDERS_RULES_KEY} must be an array of { "pattern": "...", "reminder": "..." } objects, got ${describeValue(raw)}`);
  const taken = new Set(BUILTIN_RULES.map((rule) => rule.name));
  // Validated even when disabled: turning TTSR on later must not surprise with an old mistake.
  const userRules = raw.map((value, index) => parseRule(value, index, taken));

  return { enabled, rules: enabled ? [...userRules, ...BUILTIN_RULES] : [], maxRetries };
}

/**
 * Watches one turn's stream for reminder rules. The loop makes one ReminderTurn per turn and asks it
 * for a ReminderMonitor per attempt (the first try and each retry); on a match it aborts the stream,
 * records a `ttsr_injection` event, injects the reminder and retries.
 *
 * Cost and safety. Rules run on every streamed delta, and a user's regex can backtrack
 * catastrophically (`(a+)+$`); JavaScript cannot interrupt a running `RegExp.test`. So no regex ever
 * sees more than SCAN_WINDOW characters: text is tested as the last TEXT_TAIL characters already seen
 * plus the new delta, long inputs in overlapping windows. A delta thus costs about
 * (TEXT_TAIL + delta) characters per linear rule whatever the reply's length (≈25 µs for a typical
 * rule), and a pattern that backtracks quadratically costs at most TEXT_TAIL² steps per delta rather
 * than the reply's length squared. No window makes an exponential pattern safe: that risk stays with
 * whoever writes the rule, which is why user patterns are capped at 1,000 characters and the
 * built-ins bound every repetition. The price of the windows: a match longer than TEXT_TAIL
 * characters, or one that needs context before the window (`^`, lookbehind), can be missed.
 */
import type { ToolCall } from '../messages';
import type { ReminderConfig } from './config';
import type { ReminderRule } from './rules';

/** Characters of earlier text kept so a match split across deltas is still found. */
export const TEXT_TAIL = 4 * 1024;
/** Most characters a single regex test sees. */
export const SCAN_WINDOW = 16 * 1024;
/** Characters of one tool-argument string scanned at most (head of the string); bounds a huge `write`. */
export const MAX_ARGUMENT_SCAN = 256 * 1024;

export type ReminderSource = 'text' | 'tool_arguments';

export interface ReminderMatch {
  rule: string;
  reminder: string;
  source: ReminderSource;
}

/** Overlapping slices of at most SCAN_WINDOW characters that together cover `text`. */
function windows(text: string): string[] {
  if (text.length <= SCAN_WINDOW) return [text];
  const out: string[] = [];
  const step = SCAN_WINDOW - TEXT_TAIL;
  for (let start = 0; start < text.length; start += step) {
    out.push(text.slice(start, start + SCAN_WINDOW));
    if (start + SCAN_WINDOW >= text.length) break;
  }
  return out;
}

/**
 * The strings a tool call's rules see: the raw arguments JSON (so rules can name keys such as
 * `"cwd"`) and every decoded string value (so `rm -rf "/"` inside a JSON-escaped `command` reads as
 * the shell will read it).
 */
function argumentTexts(argumentsJson: string): string[] {
  const texts = [argumentsJson.slice(0, MAX_ARGUMENT_SCAN)];
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch (err) {
    // Malformed arguments are still scanned raw; the loop reports them to the model separately.
    if (err instanceof SyntaxError) return texts;
    throw err;
  }
  // Iterative, so deeply nested arguments cannot overflow the stack.
  const stack: unknown[] = [parsed];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') texts.push(value.slice(0, MAX_ARGUMENT_SCAN));
    else if (Array.isArray(value)) stack.push(...value);
    else if (typeof value === 'object' && value !== null) stack.push(...Object.values(value));
  }
  return texts;
}

/**
 * Reminder state of one turn: which rules fired (each fires at most once per turn) and how many
 * retries were spent. Rules go dormant once `maxRetries` retries are spent, so the turn then runs on
 * uninterrupted.
 */
export class ReminderTurn {
  private readonly fired = new Set<string>();
  private retriesUsed = 0;
  private attemptCount = 0;

  constructor(private readonly config: ReminderConfig) {}

  /** Attempts started so far (1 after the first `startAttempt`). */
  get attempts(): number {
    return this.attemptCount;
  }

  get retries(): number {
    return this.retriesUsed;
  }

  /** Whether another match may still interrupt this turn. */
  canRetry(): boolean {
    return this.config.enabled && this.retriesUsed < this.config.maxRetries;
  }

  hasFired(rule: string): boolean {
    return this.fired.has(rule);
  }

  /** A monitor for the next attempt of this turn. */
  startAttempt(): ReminderMonitor {
    this.attemptCount++;
    return new ReminderMonitor(this);
  }

  /** For ReminderMonitor: the rules of `source`'s scope that may still fire; none once retries are spent. */
  eligible(source: ReminderSource): ReminderRule[] {
    if (!this.canRetry()) return [];
    return this.config.rules.filter((rule) => !this.fired.has(rule.name) && (rule.scope === 'both' || rule.scope === source));
  }

  /** For ReminderMonitor: records a match; the rule is spent for this turn and one retry is used. */
  record(rule: ReminderRule, source: ReminderSource): ReminderMatch {
    this.fired.add(rule.name);
    this.retriesUsed++;
    return { rule: rule.name, reminder: rule.reminder, source };
  }
}

/**
 * One attempt's view of the stream. Returns at most one match: after it the attempt is being
 * aborted, so later calls return undefined.
 */
export class ReminderMonitor {
  private tail = '';
  private matched = false;

  constructor(private readonly turn: ReminderTurn) {}

  /** Checks text-scoped rules against this attempt's assistant text, including `delta`. */
  onTextDelta(delta: string): ReminderMatch | undefined {
    if (this.matched) return undefined;
    const text = this.tail + delta;
    this.tail = text.slice(-TEXT_TAIL);
    return this.first('text', [text]);
  }

  /** Checks tool_arguments-scoped rules against a completed call's arguments (a ToolCall will do). */
  onToolCall(call: Pick<ToolCall, 'arguments'>): ReminderMatch | undefined {
    if (this.matched) return undefined;
    return this.first('tool_arguments', argumentTexts(call.arguments));
  }

  private first(source: ReminderSource, texts: string[]): ReminderMatch | undefined {
    const rules = this.turn.eligible(source);
    if (rules.length === 0) return undefined;
    const slices = texts.flatMap(windows);
    for (const rule of rules) {
      if (slices.some((slice) => rule.patterns.some((pattern) => pattern.test(slice)))) {
        this.matched = true;
        return this.turn.record(rule, source);
      }
    }
    return undefined;
  }
}

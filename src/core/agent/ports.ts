/**
 * What the loop needs from the session file and from token-triggered reminders, kept narrow so
 * the loop can run without either (a subagent without a session file, reminders switched off).
 */
import type { SessionEventInput } from './session';

/** Appends events durably (stamped with the time when `at` is absent); the loop awaits each append before it goes on. */
export interface SessionRecorder {
  append(event: SessionEventInput): Promise<unknown>;
}

/** A reminder rule that matched: its name and the text to inject. */
export interface FiredReminder {
  rule: string;
  reminder: string;
  source: 'text' | 'tool_arguments';
}

/** One attempt of a model turn, watched by the rules. */
export interface ReminderAttempt {
  onTextDelta(delta: string): FiredReminder | undefined;
  onToolCall(call: { name: string; arguments: string }): FiredReminder | undefined;
}

/** One model turn: which rules already fired, and whether another retry is allowed. */
export interface ReminderTurnPort {
  startAttempt(): ReminderAttempt;
  canRetry(): boolean;
}

export interface ReminderPolicy {
  startTurn(): ReminderTurnPort;
}

import type { Settings } from '../settings';
import type { ReminderPolicy } from './ports';
import { ReminderTurn, loadReminderConfig } from './reminders';

/**
 * The token-triggered reminders of `agent.reminders` (aliases `ttsr.*`), or undefined when they
 * are off (the default). Throws ReminderConfigError for a bad rule before any run starts.
 */
export function reminderPolicy(settings: Settings): ReminderPolicy | undefined {
  const config = loadReminderConfig(settings);
  if (!config.enabled) return undefined;
  return { startTurn: () => new ReminderTurn(config) };
}

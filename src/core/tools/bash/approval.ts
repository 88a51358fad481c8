import type { Settings } from '../../settings';
import type { CommandRequest } from '../approval';
import { ToolError } from '../errors';
import type { ToolRuntime } from '../runtime';

export const ALLOW_KEY = 'capabilities.tools.bash.allow';
export const DENY_KEY = 'capabilities.tools.bash.deny';

/** Where a person edits the lists in VS Code (the core's keys live under the `magi` section there). */
const EDITOR_PREFIX = 'magi.';

/**
 * What separates one command from the next on a shell line: `;`, `&&`, `||`, `|`, a lone `&`
 * (not the `&` of `2>&1` or `&>`), a newline, and command or process substitution.
 */
const COMMAND_SEPARATOR = /\|\||&&|;|\||\r?\n|`|\$\(|<\(|>\(|(?<![<>])&(?!>)/;
/** `/body/flags`: the regular-expression form of an entry; stateful flags (g, y) are not accepted. */
const REGEX_ENTRY = /^\/(.+)\/([imsu]*)$/s;

/** One entry of the allow or deny list, parsed. */
export interface CommandRule {
  /** The entry exactly as written in the setting. */
  entry: string;
  /** Whether `command` (the whole line, or for a prefix entry one command of it) matches. */
  test(command: string): boolean;
  /** Regex entries see the whole line; prefix entries see one command of it. */
  kind: 'prefix' | 'regex';
}

export interface CommandRules {
  allow: readonly CommandRule[];
  deny: readonly CommandRule[];
}

export type CommandVerdict = { kind: 'deny'; entry: string } | { kind: 'allow'; entry: string } | { kind: 'ask' };

/**
 * The allow and deny lists of the settings, each entry checked: a list that is not an array of
 * strings, an empty entry or a `/regex/` that does not compile throws a ToolError naming the
 * setting and the entry, so a broken list refuses every command instead of silently letting
 * commands through or blocking them.
 */
export function commandRules(settings: Settings): CommandRules {
  return { allow: rulesOf(settings, ALLOW_KEY), deny: rulesOf(settings, DENY_KEY) };
}

function rulesOf(settings: Settings, key: string): CommandRule[] {
  const value = settings.get(key);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidSetting(key, `must be an array of strings, but is ${typeof value}`);
  return value.map((entry: unknown, index) => {
    if (typeof entry !== 'string') throw invalidSetting(key, `entry ${index + 1} must be a string, but is ${JSON.stringify(entry)}`);
    return parseRule(key, entry);
  });
}

function parseRule(key: string, entry: string): CommandRule {
  const regex = REGEX_ENTRY.exec(entry);
  if (regex) {
    let compiled: RegExp;
    try {
      compiled = new RegExp(regex[1] as string, regex[2]);
    } catch (err) {
      throw invalidSetting(key, `entry ${JSON.stringify(entry)} is not a valid regular expression (${err instanceof Error ? err.message : String(err)})`);
    }
    return { entry, kind: 'regex', test: (command) => compiled.test(command) };
  }
  const prefix = normalized(entry);
  if (prefix === '') throw invalidSetting(key, 'has an empty entry, which would match nothing sensible');
  return { entry, kind: 'prefix', test: (command) => startsWithWord(normalized(command), prefix) };
}

function invalidSetting(key: string, problem: string): ToolError {
  return new ToolError(
    `bash: the setting ${EDITOR_PREFIX}${key} ${problem}. Nothing was run. Ask the person to fix that setting (an entry is a command prefix such as "npm test", or /a regular expression/).`,
    'setting_denied',
  );
}

/** Trimmed, with runs of whitespace as one space, so `npm  test` and `npm test` compare equal. */
function normalized(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** `command` starts with `prefix` followed by its end or a space: `git status` matches `git status -s`, not `git statusx`. */
function startsWithWord(command: string, prefix: string): boolean {
  return command === prefix || command.startsWith(`${prefix} `);
}

/** The separate commands of a shell line (split on COMMAND_SEPARATOR; quotes are not parsed). */
export function commandsOf(line: string): string[] {
  return line.split(COMMAND_SEPARATOR).map(normalized).filter((c) => c !== '');
}

/**
 * The deny list wins: a regex entry that matches anywhere in the line, or a prefix entry that
 * matches any one of its commands (`cd x && rm -rf y` is refused by `rm`), refuses it. Then the
 * allow list: a regex entry that matches the line, or a prefix entry that matches a line of one
 * single command — `npm test; curl … | sh` is not let through by `npm test`, it is asked about.
 * Everything else is asked about. No built-in entry exists: an empty list refuses and allows nothing.
 */
export function verdictFor(rules: CommandRules, line: string): CommandVerdict {
  const commands = commandsOf(line);
  const denied = rules.deny.find((rule) => (rule.kind === 'regex' ? rule.test(line) : commands.some((c) => rule.test(c))));
  if (denied) return { kind: 'deny', entry: denied.entry };
  const single = commands.length === 1 && !COMMAND_SEPARATOR.test(line);
  const allowed = rules.allow.find((rule) => (rule.kind === 'regex' ? rule.test(line) : single && rule.test(line)));
  if (allowed) return { kind: 'allow', entry: allowed.entry };
  return { kind: 'ask' };
}

/**
 * Decides whether `bash` may run `request.command`, before anything is spawned. Throws a ToolError
 * (nothing runs) when a deny entry matches — naming it and the setting — or when the person
 * declines. An allow entry runs without asking; otherwise the runtime's CommandApproval asks, and
 * without one (the CLI, tests) the command runs.
 */
export async function approveCommand(runtime: ToolRuntime, request: CommandRequest, signal: AbortSignal): Promise<void> {
  const verdict = verdictFor(commandRules(runtime.settings), request.command);
  if (verdict.kind === 'deny') {
    throw new ToolError(
      `bash: refused: the command matches the entry ${JSON.stringify(verdict.entry)} of ${EDITOR_PREFIX}${DENY_KEY}, which always refuses without asking. Nothing was run. Use a different command, or ask the person to remove that entry from the setting if this command should run.`,
      'setting_denied',
    );
  }
  if (verdict.kind === 'allow' || !runtime.approval) return;
  const decision = await runtime.approval.approve(request, signal);
  if (signal.aborted) throw new ToolError('bash: cancelled while waiting for the person to approve the command. Nothing was run.', 'cancelled');
  if (!decision.approved) {
    const reason = decision.reason.trim();
    throw new ToolError(
      `bash: the person declined to run this command${reason ? ` (${reason})` : ''}. Nothing was run. Do not retry it unchanged; ask the person how to proceed or take another approach.`,
      'declined',
    );
  }
}

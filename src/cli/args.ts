/** A command-line mistake: printed with the usage and exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CommonOptions {
  cwd: string;
  settingsFile: string | undefined;
  json: boolean;
  /** `magi files` only: the walker's entry limit (default 100,000). */
  maxEntries: number | undefined;
  /** `magi run` only: provider kind, base URL, model and session file. */
  provider: string | undefined;
  baseUrl: string | undefined;
  model: string | undefined;
  session: string | undefined;
}

/** Options that take a value, by flag (both `--flag VALUE` and `--flag=VALUE` are accepted). */
const VALUE_OPTIONS = {
  '--cwd': 'cwd',
  '--settings': 'settingsFile',
  '--provider': 'provider',
  '--base-url': 'baseUrl',
  '--model': 'model',
  '--session': 'session',
} as const satisfies Record<string, keyof CommonOptions>;

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  options: CommonOptions;
  help: boolean;
  version: boolean;
}

export const USAGE = `Usage:
  magi tool NAME 'JSON-ARGS' [--cwd DIR] [--settings FILE] [--json]
      Run one tool call and print its visible block (--json: one JSON object).
  magi tools [--cwd DIR] [--settings FILE]
      Read JSON Lines {"tool": NAME, "args": {...}} from stdin and run them in order in one
      session; print one JSON result per line as each call ends. Exits 130 when interrupted.
  magi files [--cwd DIR] [--max-entries N]
      Print the files the workspace walker finds (what find and grep search), one path
      relative to DIR a line, in byte order: .gitignore, .ignore, .git/info/exclude, the global
      excludes file and Perforce rules applied, hidden files skipped. The scan stops after N
      entries (default 100000, directories included) and 10 s; an incomplete scan says so on
      stderr and still exits 0.
  magi run "TASK" [--provider openai|anthropic] [--base-url URL] [--model M] [--session FILE]
           [--cwd DIR] [--settings FILE] [--json]
      Run the agent on TASK in DIR without prompting (what it may run or write follows the
      settings). The key comes from MAGI_API_KEY, else OPENAI_API_KEY / ANTHROPIC_API_KEY; the
      model from --model or MAGI_MODEL; the base URL defaults to the provider's public API
      (MAGI_BASE_URL overrides). --session FILE resumes that session when it exists and creates
      it otherwise (default: a new file under DIR/.magi/sessions/). Prints the streamed answer
      and one line per tool call (--json: the activity events as JSON Lines). Exits 0 when the
      task completes, 1 when it fails or hits the turn limit, 130 when interrupted.
  magi --help | --version

--cwd defaults to the current directory. The settings file is JSON in the newer seed's keys
(capabilities.tools.<tool>.absolute_paths, …; older tools.<tool>.… keys are aliases).
A tool failure is a result with status "error" (exit 0); usage errors exit 2.`;

function entryCount(text: string): number {
  if (!/^[1-9][0-9]*$/.test(text)) throw new UsageError(`--max-entries needs a positive whole number, not ${text}`);
  return Number(text);
}

/** Parses argv after the script name. Flags may appear anywhere; `--` ends flags. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options: CommonOptions = { cwd: process.cwd(), settingsFile: undefined, json: false, maxEntries: undefined, provider: undefined, baseUrl: undefined, model: undefined, session: undefined };
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag in VALUE_OPTIONS) options[VALUE_OPTIONS[flag as keyof typeof VALUE_OPTIONS]] = inline ?? value();
    else if (arg === '--json') options.json = true;
    else if (flag === '--max-entries') options.maxEntries = entryCount(inline ?? value());
    else if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--version' || arg === '-v') version = true;
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else positionals.push(arg);
  }
  const [command, ...rest] = positionals;
  return { command, positionals: rest, options, help, version };
}

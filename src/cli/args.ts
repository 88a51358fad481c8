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
}

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
      session; print one JSON result per line as each call ends.
  magi files [--cwd DIR] [--max-entries N]
      Print the files the workspace walker finds (what find and grep search), one path
      relative to DIR a line, in byte order: .gitignore, .ignore, .git/info/exclude, the global
      excludes file and Perforce rules applied, hidden files skipped. The scan stops after N
      entries (default 100000, directories included) and 10 s; an incomplete scan says so on
      stderr and still exits 0.
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
  const options: CommonOptions = { cwd: process.cwd(), settingsFile: undefined, json: false, maxEntries: undefined };
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
    } else if (arg === '--cwd') options.cwd = value();
    else if (arg.startsWith('--cwd=')) options.cwd = arg.slice('--cwd='.length);
    else if (arg === '--settings') options.settingsFile = value();
    else if (arg.startsWith('--settings=')) options.settingsFile = arg.slice('--settings='.length);
    else if (arg === '--json') options.json = true;
    else if (arg === '--max-entries' || arg.startsWith('--max-entries=')) options.maxEntries = entryCount(arg.startsWith('--max-entries=') ? arg.slice('--max-entries='.length) : value());
    else if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--version' || arg === '-v') version = true;
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else positionals.push(arg);
  }
  const [command, ...rest] = positionals;
  return { command, positionals: rest, options, help, version };
}

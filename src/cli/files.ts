import { ToolRuntime } from '../core/tools/runtime';
import { UsageError, type CommonOptions } from './args';

/** Writes and waits, so a large list is flushed before the process exits; a closed pipe (`| head`) ends quietly. */
function write(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (err) => {
      if (!err || (err as NodeJS.ErrnoException).code === 'EPIPE') resolve();
      else reject(err);
    });
  });
}

/**
 * `magi files`: the walker's file list for --cwd, one root-relative path a line in byte order —
 * this project's `rg --files`, plus the tracked files an ignore rule matches (as git lists them).
 * An incomplete scan still prints what it saw and says why on stderr, as does a git index that
 * could not be used.
 */
export async function runFiles(positionals: string[], options: CommonOptions, signal: AbortSignal): Promise<void> {
  if (positionals.length) throw new UsageError(`files: unexpected arguments: ${positionals.join(' ')}`);
  if (options.json || options.settingsFile !== undefined) throw new UsageError('files: takes only --cwd and --max-entries');
  let runtime: ToolRuntime;
  try {
    runtime = await ToolRuntime.create({ root: options.cwd, signal });
  } catch (err) {
    throw new UsageError(`--cwd ${options.cwd} is not a usable directory: ${(err as Error).message}`);
  }
  // A reader that goes away early (`magi files | head`) is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  const walk = await runtime.walk(runtime.root, signal, { maxEntries: options.maxEntries });
  if (walk.files.length) await write(walk.files.join('\n') + '\n');
  for (const warning of walk.warnings) process.stderr.write(`magi files: ${warning}\n`);
  const facts = walk.facts;
  if (!facts.scan_complete) {
    const why = [
      facts.entry_limit_reached ? `the entry limit was reached (${facts.walk_entries_omitted} entries seen but not visited; raise --max-entries)` : '',
      facts.timed_out ? 'the 10 s time limit was reached' : '',
      facts.walk_errors ? `${facts.walk_errors} directories could not be read` : '',
    ].filter((s) => s !== '');
    process.stderr.write(`magi files: incomplete scan after ${facts.entries_scanned} entries: ${why.join('; ')}\n`);
  }
}

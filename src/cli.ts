import { parseArgs, UsageError, USAGE } from './cli/args';
import { interruptSignal } from './cli/interrupt';
import { version } from '../package.json';

/** The headless `magi` command over the same core as the extension. */
async function main(argv: readonly string[]): Promise<number> {
  const signal = interruptSignal();
  try {
    const parsed = parseArgs(argv);
    if (parsed.help) return void process.stdout.write(USAGE + '\n'), 0;
    if (parsed.version) return void process.stdout.write(version + '\n'), 0;
    // Each command loads its modules when it runs, so that `magi files` does not pay for the tool
    // registry (zod and every tool) at start-up.
    switch (parsed.command) {
      case 'tool':
        await (await import('./cli/toolCommands.js')).runOneTool(parsed.positionals, parsed.options, signal);
        return 0;
      case 'tools':
        await (await import('./cli/toolCommands.js')).runToolStream(parsed.positionals, parsed.options, signal);
        return signal.aborted ? 130 : 0;
      case 'run':
        return await (await import('./cli/run.js')).runTask(parsed.positionals, parsed.options, signal);
      case 'files':
        await (await import('./cli/files.js')).runFiles(parsed.positionals, parsed.options, signal);
        return 0;
      case undefined:
        throw new UsageError('missing command');
      default:
        throw new UsageError(`unknown command ${parsed.command}`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`magi: ${err.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`magi: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);

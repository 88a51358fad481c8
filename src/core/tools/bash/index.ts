import { promises as fsp } from 'node:fs';
import { z } from 'zod';
import { childEnvironment } from '../../process/env';
import { describeCleanup } from '../../process/kill';
import { runCommand, type RunOutcome } from '../../process/run';
import { defineTool, unavailableWhenRestricted } from '../definition';
import { ToolError } from '../errors';
import { failure, success, type ToolMetadata } from '../result';
import { approveCommand } from './approval';
import { BASH_DESCRIPTION, DEFAULT_TIMEOUT_S, HEAD_BYTES, MAX_TIMEOUT_S, TAIL_BYTES } from './description';

export const SHELL_EXPANSION_KEY = 'capabilities.tools.bash.shell_expansion';
/** What `shell_expansion: false` refuses: parameter, tilde, command and brace expansion. */
const EXPANSION_CHARS = /[$~`{}]/;

const input = z.strictObject({
  command: z.string().min(1).refine((s) => s.trim() !== '', 'command must not be blank').describe('The shell command line'),
  intent: z
    .string()
    .trim()
    .min(1, 'intent must not be empty or blank: say in one short sentence why the command is needed')
    .describe('One short sentence: why this command is needed (shown above the command)'),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_S).optional().describe(`Seconds before the command is killed (1-${MAX_TIMEOUT_S}, default ${DEFAULT_TIMEOUT_S})`),
  cwd: z.string().min(1).optional().describe('Directory to run in; default the workspace root'),
});

export const bashTool = defineTool({
  name: 'bash',
  aliases: ['shell', 'cmd'],
  description: BASH_DESCRIPTION,
  // A command can change anything; run it in order with the other mutating calls of a turn.
  mutates: true,
  unavailable: unavailableWhenRestricted,
  input,
  async execute(args, ctx) {
    const { runtime, signal } = ctx;
    if (!runtime.settings.bool(SHELL_EXPANSION_KEY, true)) {
      const found = EXPANSION_CHARS.exec(args.command);
      if (found) {
        throw new ToolError(
          `bash: the command contains \`${found[0]}\` and shell expansion is disabled (${SHELL_EXPANSION_KEY} is false), so $, ~, backticks, { and } are refused. Write literal values and paths instead, or ask the user to enable that setting. Nothing was run.`,
          'setting_denied',
        );
      }
    }
    let cwd = runtime.root;
    let cwdDisplay = '.';
    if (args.cwd !== undefined) {
      const resolved = await runtime.resolve('bash', args.cwd, 'directory');
      const stat = await fsp.stat(resolved.absolute).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
        throw new ToolError(`bash: cwd ${resolved.display} cannot be used (${err.code ?? err.message}). Nothing was run.`, 'io');
      });
      if (!stat) throw new ToolError(`bash: cwd ${resolved.display} does not exist; create it first or pick an existing directory. Nothing was run.`, 'not_found');
      if (!stat.isDirectory()) throw new ToolError(`bash: cwd ${resolved.display} is not a directory. Nothing was run.`);
      cwd = resolved.absolute;
      cwdDisplay = resolved.display;
    }
    // After the preflight, so that a prompt is never shown for a command that could not run anyway.
    await approveCommand(runtime, { command: args.command, intent: args.intent, cwd }, signal);
    const timeoutS = args.timeout ?? DEFAULT_TIMEOUT_S;
    const outcome = await runCommand({
      command: args.command,
      cwd,
      env: childEnvironment(process.env, runtime.secretEnvNames),
      timeoutMs: timeoutS * 1000,
      signal,
      headBytes: HEAD_BYTES,
      tailBytes: TAIL_BYTES,
    });
    const metadata = metadataOf(args.intent, args.command, cwdDisplay, outcome);
    const content = contentOf(outcome, timeoutS, cwdDisplay);
    return outcome.exitCode === 0 && !outcome.timedOut && !outcome.cancelled ? success(content, metadata) : failure(content, metadata);
  },
});

function metadataOf(intent: string, command: string, cwd: string, o: RunOutcome): ToolMetadata {
  const metadata: ToolMetadata = {
    intent,
    command,
    cwd,
    exit_code: o.exitCode,
    signal: o.signal,
    duration_ms: o.durationMs,
    bytes_seen: o.output.bytesSeen,
    truncated: o.output.truncated,
    bytes_omitted: o.output.bytesOmitted,
    timed_out: o.timedOut,
    cancelled: o.cancelled,
    background_killed: o.backgroundKilled,
    cleanup: describeCleanup(o.cleanup),
  };
  if (o.output.binary) metadata.binary = true;
  if (o.cleanup.survivors.length > 0) {
    metadata.cleanup_warning = `${o.cleanup.survivors.length} process(es) of this command survived SIGKILL: ${o.cleanup.survivors.join(', ')}`;
  }
  return metadata;
}

/** The bounded output, then one bracketed line that says how the command ended. */
function contentOf(o: RunOutcome, timeoutS: number, cwd: string): string {
  const lines: string[] = [];
  if (o.output.text !== '') lines.push(o.output.text.endsWith('\n') ? o.output.text.slice(0, -1) : o.output.text);
  if (o.output.binary) lines.push('[output held bytes that are not valid UTF-8 (or NUL); they are shown as U+FFFD]');
  const killedWith = o.signal ? `killed with ${o.signal}` : 'killed';
  const cleanup = describeCleanup(o.cleanup);
  let end: string;
  if (o.spawnError !== undefined) end = `[could not start the shell in ${cwd}: ${o.spawnError}]`;
  else if (o.timedOut) end = `[timed out after ${timeoutS} s; ${killedWith}; cleanup: ${cleanup}]`;
  else if (o.cancelled) end = `[cancelled; ${killedWith}; cleanup: ${cleanup}]`;
  else if (o.exitCode === null) end = `[terminated by ${o.signal ?? 'an unknown cause'}]`;
  else end = `[exit ${o.exitCode}]`;
  if (o.backgroundKilled > 0) end = `${end.slice(0, -1)}; killed ${o.backgroundKilled} background process${o.backgroundKilled === 1 ? '' : 'es'} still running after the shell exited]`;
  if (o.cleanup.survivors.length > 0) end += `\n[warning: ${o.cleanup.survivors.length} process(es) could not be killed: ${o.cleanup.survivors.join(', ')}]`;
  lines.push(end);
  return lines.join('\n');
}

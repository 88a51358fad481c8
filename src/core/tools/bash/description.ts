import { CREDENTIAL_ENV_NAMES } from '../../process/env';

/** Output bytes kept from the start and from the end; the rest of 64 KiB is left for the markers. */
export const HEAD_BYTES = 32 * 1024 - 512;
export const TAIL_BYTES = 32 * 1024 - 512;
export const DEFAULT_TIMEOUT_S = 30;
export const MAX_TIMEOUT_S = 300;

export const BASH_DESCRIPTION = `Run a non-interactive shell command in the workspace (or in \`cwd\`) and return its output. Unix-like hosts run \`/bin/bash -lc <command>\`, Windows runs PowerShell (-NoProfile -NonInteractive). stdin is closed: a command that waits for input gets end-of-file.

Arguments: {"command": "npm test", "intent": "run the unit tests after the fix", "timeout": 120, "cwd": "packages/core"}
- intent (required): one short sentence saying why the command is needed; shown above the command.
- timeout: seconds, 1 to ${MAX_TIMEOUT_S}, default ${DEFAULT_TIMEOUT_S}.
- cwd: a directory; relative paths stay inside the workspace root.

Output: stdout and stderr interleaved in arrival order, at most 64 KiB: the first and last ~32 KiB are kept and the middle is replaced by "[… N bytes omitted …]" (redirect to a file and read or grep it to see everything). Invalid UTF-8 is shown as U+FFFD. The last line gives the exit code, or says the command timed out or was cancelled. A non-zero exit is an error result.
Processes: the command's whole process tree — background jobs (&), setsid/nohup and double-forked processes included — is killed on timeout or cancellation, and anything still running when the shell exits is killed too; nothing outlives the call, so do not start servers or daemons with this tool.
Environment: inherited, except the credentials ${CREDENTIAL_ENV_NAMES.join(', ')} and keys held in the editor's secret storage.
Approval: in VS Code the person is asked before a command runs unless it is on their allow list; a command on their deny list, or one they decline, is not run and comes back as an error — do not retry it unchanged.
This is not a sandbox: the command runs with your user's rights.`;

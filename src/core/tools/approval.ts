/**
 * Whether a `bash` command may run. The host asks the person (showing the intent above the
 * command) unless the command matches `capabilities.tools.bash.allow`; a match of
 * `capabilities.tools.bash.deny` always refuses, without asking. The CLI never prompts: it allows
 * what the deny list does not refuse. No built-in rule blocks or rewrites a command.
 */
export interface CommandRequest {
  command: string;
  intent: string;
  /** Absolute working directory. */
  cwd: string;
}

export type ApprovalDecision = { approved: true } | { approved: false; reason: string };

export interface CommandApproval {
  approve(request: CommandRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

import { ToolError } from './errors';
import { REJECTED_BY_USER, type EditProposal } from './review';
import type { ToolRuntime } from './runtime';

/**
 * Asks the runtime's reviewer (if any) about a proposal. Call it after every check passed, while
 * holding the files' locks and before the first byte is written. Returns when the edit may apply;
 * throws a `declined` ToolError whose message starts with "rejected by the user" when the person
 * rejects it, or the abort reason when the call was cancelled during the review.
 */
export async function requireApproval(runtime: ToolRuntime, proposal: EditProposal, signal: AbortSignal): Promise<void> {
  if (!runtime.review) return;
  const decision = await runtime.review.review(proposal, signal);
  signal.throwIfAborted();
  if (decision === 'accept') return;
  const outcome = proposal.files.map((file) => (file.before === null ? `${file.display} was not created` : `${file.display} is unchanged`)).join(', ');
  throw new ToolError(
    `${REJECTED_BY_USER}: the ${proposal.tool} was not applied; ${outcome}. Do not retry the same change; ask the person what they want instead.`,
    'declined',
  );
}

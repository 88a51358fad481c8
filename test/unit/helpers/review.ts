import type { EditProposal, EditReview, ReviewDecision } from '../../../src/core/tools/review';

/**
 * A reviewer that answers every proposal with a fixed decision and keeps what it was shown, plus
 * whether the file on disk still held its old bytes at the moment it was asked (`onReview`).
 */
export class ScriptedReview implements EditReview {
  readonly proposals: EditProposal[] = [];

  constructor(
    private readonly decision: ReviewDecision,
    private readonly onReview: (proposal: EditProposal) => Promise<void> = async () => {},
  ) {}

  async review(proposal: EditProposal): Promise<ReviewDecision> {
    this.proposals.push(proposal);
    await this.onReview(proposal);
    return this.decision;
  }
}

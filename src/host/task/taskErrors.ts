import type { RunOutcome } from '../../core/activity';

/** A task that did not complete: `outcome` is the run's (`failed`, `cancelled`, `turn_limit`). */
export class TaskFailedError extends Error {
  override readonly name = 'TaskFailedError';
  constructor(message: string, readonly outcome: Exclude<RunOutcome, 'completed'>) {
    super(message);
  }
}

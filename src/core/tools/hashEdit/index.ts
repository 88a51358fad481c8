import { z } from 'zod';
import { defineTool, unavailableWhenRestricted } from '../definition';
import { withEditDiagnostics } from '../language/afterEdit';
import { commitAll } from './commit';
import { HASH_EDIT_DESCRIPTION } from './description';
import { formatResult } from './output';
import { parseInput } from './parser';
import { proposalOf } from './proposal';
import { requireApproval } from '../reviewGate';
import { prepareSection, resolveTargets, type Prepared } from './section';

export { HASH_EDIT_DESCRIPTION } from './description';

const hashEditInput = z.strictObject({
  input: z.string().min(1, 'must not be empty').describe('One or more [PATH#TAG] sections with SWAP/DEL/INS/BLK/MV/REM ops and +TEXT body rows.'),
});

/**
 * `hash_edit`: line-anchored edits of existing files, checked against the session's read
 * snapshots. Phases: parse the whole input; resolve every path; then, holding the mutation locks
 * of all files involved (MV destinations included), validate every section, ask the reviewer (if any), and only then commit.
 */
export const hashEditTool = defineTool({
  name: 'hash_edit',
  aliases: [],
  description: HASH_EDIT_DESCRIPTION,
  mutates: true,
  unavailable: unavailableWhenRestricted,
  input: hashEditInput,
  async execute(args, ctx) {
    const sections = parseInput(args.input);
    const targets = await resolveTargets(sections, ctx.runtime);
    const places = targets.flatMap((t) => (t.dest ? [t.resolved, t.dest] : [t.resolved]));
    const keys = places.map((p) => p.canonical);
    const display = (key: string): string => places.find((p) => p.canonical === key)?.display ?? key;
    const prepared: Prepared[] = [];
    const result = await ctx.runtime.locks.withLocks(keys, async () => {
      for (const target of targets) {
        ctx.signal.throwIfAborted();
        prepared.push(await prepareSection(target, ctx.runtime, ctx.signal));
      }
      ctx.signal.throwIfAborted();
      await requireApproval(ctx.runtime, proposalOf(prepared), ctx.signal);
      await commitAll(prepared, ctx.runtime, ctx.signal);
      return formatResult(prepared);
    }, { signal: ctx.signal, display });
    // Outside the locks: waiting for the language service must not hold up other edits.
    return withEditDiagnostics(result, ctx.runtime, editedPaths(prepared), ctx.signal);
  },
});

/** The files whose content an edit changed or moved (removed files have no diagnostics left). */
function editedPaths(prepared: readonly Prepared[]): string[] {
  return prepared.flatMap((item) => (item.kind === 'edit' ? [item.target.resolved.absolute] : item.kind === 'move' ? [item.dest.absolute] : []));
}

import type { EditProposal, ProposedFile } from '../review';
import { serializeText } from '../textDoc';
import type { Prepared } from './section';

/**
 * The reviewer's view of validated sections: each file's current text and the text the edit leaves.
 * A move keeps the content (its tag was fresh, so the snapshot is the current text) and names the
 * destination; a removal leaves no text.
 */
export function proposalOf(items: readonly Prepared[]): EditProposal {
  return { tool: 'hash_edit', files: items.map(proposedFile) };
}

function proposedFile(item: Prepared): ProposedFile {
  const { absolute: path, display } = item.target.resolved;
  switch (item.kind) {
    case 'edit':
      return { path, display, before: serializeText(item.before), after: item.newText };
    case 'move':
      return { path, display, before: item.snapshot.text, after: item.snapshot.text, movedTo: item.dest.absolute };
    case 'remove':
      return { path, display, before: item.text, after: null };
  }
}

import * as path from 'node:path';
import type { FilePort } from '../../core/fs/filePort';
import type { EditProposal, ProposedFile } from '../../core/tools/review';
import { sameBytes } from '../files/roundTrip';

/** One applied edit of review mode `after`: what it proposed, and each file's bytes before it. */
export interface AppliedEdit {
  id: number;
  proposal: EditProposal;
  /** The bytes each file held before the edit (null for a file the edit created), by proposal order. */
  originals: (Uint8Array | null)[];
}

export interface RevertOutcome {
  reverted: boolean;
  message: string;
}

/** How many applied edits stay revertable; older ones are forgotten. */
const KEPT_EDITS = 50;

/**
 * The edits applied in review mode `after`, newest last, kept in memory for `magi.revertEdit`.
 * An edit is recorded when it is proposed (the reviewer is asked just before the tool writes): if
 * the write then failed, the files do not hold what it would have written and revert says so.
 */
export class EditHistory {
  private readonly edits: AppliedEdit[] = [];
  private nextId = 1;

  constructor(private readonly files: FilePort) {}

  /** Records a proposal about to be applied, with its files' current bytes (the editor's unsaved text, if any). */
  async record(proposal: EditProposal, signal: AbortSignal): Promise<AppliedEdit> {
    const originals = await Promise.all(proposal.files.map((file) => (file.before === null ? null : this.files.readFile(file.path, signal))));
    const edit: AppliedEdit = { id: this.nextId++, proposal, originals };
    this.edits.push(edit);
    this.edits.splice(0, Math.max(0, this.edits.length - KEPT_EDITS));
    return edit;
  }

  list(): readonly AppliedEdit[] {
    return this.edits;
  }

  /**
   * Restores the files of the edit `id` (default: the newest) when every one still holds what the
   * edit wrote; otherwise changes nothing and says which file changed since.
   */
  async revert(id?: number): Promise<RevertOutcome> {
    const edit = id === undefined ? this.edits[this.edits.length - 1] : this.edits.find((e) => e.id === id);
    if (!edit) {
      return { reverted: false, message: id === undefined ? 'There is no applied Magi edit to revert.' : `There is no applied Magi edit with id ${id} (only the last ${KEPT_EDITS} are kept).` };
    }
    const names = edit.proposal.files.map((file) => file.display).join(', ');
    for (const file of edit.proposal.files) {
      const changed = await this.changedSince(file);
      if (changed) return { reverted: false, message: `Cannot revert the ${edit.proposal.tool} of ${names}: ${changed} Nothing was reverted.` };
    }
    for (const [i, file] of edit.proposal.files.entries()) await this.restore(file, edit.originals[i] ?? null);
    this.edits.splice(this.edits.indexOf(edit), 1);
    return { reverted: true, message: `Reverted the ${edit.proposal.tool} of ${names}.` };
  }

  /** Why the file no longer holds what the edit wrote, or undefined when it does. */
  private async changedSince(file: ProposedFile): Promise<string | undefined> {
    const written = file.movedTo ?? file.path;
    const shown = path.basename(written);
    if (file.movedTo !== undefined && (await this.holds(file.path)) !== undefined) return `${file.display} exists again.`;
    if (file.after === null) return (await this.holds(file.path)) === undefined ? undefined : `${file.display} exists again.`;
    const current = await this.holds(written);
    if (current === undefined) return `${shown} no longer exists.`;
    return sameBytes(current, Buffer.from(file.after, 'utf8')) ? undefined : `${shown} changed after the edit (or the edit did not apply).`;
  }

  private async restore(file: ProposedFile, original: Uint8Array | null): Promise<void> {
    // A move keeps the content, so moving the file back restores it.
    if (file.movedTo !== undefined) await this.files.moveFile(file.movedTo, file.path);
    else if (original === null) await this.files.removeFile(file.path);
    else await this.files.writeFile(file.path, original, {});
  }

  private async holds(absPath: string): Promise<Uint8Array | undefined> {
    try {
      return await this.files.readFile(absPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
}

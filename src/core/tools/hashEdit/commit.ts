import * as path from 'node:path';
import { recheckBeforeWrite } from '../../fs/containment';
import { makeFolders, removeFolders } from '../../fs/folders';
import { ToolError, messageOf } from '../errors';
import type { ToolRuntime } from '../runtime';
import { parseText, serializeText } from '../textDoc';
import { paddedRange } from './recovery';
import type { Prepared } from './section';

/**
 * The only step that changes files: runs after every section validated, in section order, through
 * the FilePort, and records the snapshots that make the new tags usable. The caller holds the
 * mutation locks of every path involved.
 */

function describe(item: Prepared): string {
  const from = item.target.resolved.display;
  return item.kind === 'move' ? `${from} (moved to ${item.dest.display})` : item.kind === 'remove' ? `${from} (removed)` : from;
}

async function commitOne(item: Prepared, runtime: ToolRuntime, signal: AbortSignal): Promise<void> {
  const source = item.target.resolved;
  switch (item.kind) {
    case 'edit':
      await runtime.files.writeFile(source.absolute, item.bytes, {
        beforeCommit: async () => {
          await recheckBeforeWrite('hash_edit', source);
          await unchangedSinceRead(item, runtime, signal);
        },
        signal,
        within: source.within,
      });
      runtime.snapshots.record(source.canonical, item.newTag, item.newText, item.visible, item.lineage);
      return;
    case 'move': {
      // Parents of the destination are created like write creates them: one at a time, never
      // through a symlink, each inside the root (fs/folders.ts); the port checks where the move lands.
      const dest = item.dest;
      const made = await makeFolders(path.dirname(dest.absolute), { tool: 'hash_edit', display: dest.display, within: dest.within });
      try {
        await recheckBeforeWrite('hash_edit', dest);
        await recheckBeforeWrite('hash_edit', source);
        signal.throwIfAborted();
        await runtime.files.moveFile(source.absolute, dest.absolute, { fromWithin: source.within, toWithin: dest.within });
      } catch (err) {
        await removeFolders(made);
        throw err;
      }
      runtime.snapshots.forget(source.canonical);
      // The content is unchanged, so what the model saw under the tag is still true at the new path.
      runtime.snapshots.record(dest.canonical, item.snapshot.tag, item.snapshot.text, item.snapshot.visible);
      return;
    }
    case 'remove':
      await recheckBeforeWrite('hash_edit', source);
      signal.throwIfAborted();
      await runtime.files.removeFile(source.absolute, { within: source.within });
      runtime.snapshots.forget(source.canonical);
      return;
  }
}

/**
 * The edit was computed from the file as it was read under the lock; a writer that does not take
 * Magi's locks (an editor, git, a build) may have changed it since, and replacing the file now would
 * silently drop that change.
 */
async function unchangedSinceRead(item: Extract<Prepared, { kind: 'edit' }>, runtime: ToolRuntime, signal: AbortSignal): Promise<void> {
  const now = await runtime.files.readFile(item.target.resolved.absolute, signal);
  if (Buffer.from(serializeText(item.before), 'utf8').equals(now)) return;
  const display = item.target.resolved.display;
  const lines = parseText(Buffer.from(now).toString('utf8')).lines.length;
  const first = Math.min(...item.hunks.map((h) => h.oldStart));
  const last = Math.max(...item.hunks.map((h) => h.oldStart + Math.max(0, h.oldCount - 1)));
  const range = paddedRange(first, last, lines);
  throw new ToolError(
    `hash_edit: ${display} changed while the edit was being made (another program wrote it); nothing was written. Re-read it (read ${display}:${range.start}-${range.end}) and retry with the new tag.`,
    'stale_tag',
  );
}

/**
 * Commits every prepared section. A failure before the first change propagates unchanged; a
 * failure after some files changed says which ones, so the model re-reads them.
 */
export async function commitAll(items: readonly Prepared[], runtime: ToolRuntime, signal: AbortSignal): Promise<void> {
  const done: string[] = [];
  for (const item of items) {
    try {
      await commitOne(item, runtime, signal);
    } catch (err) {
      if (done.length === 0) throw err;
      throw new ToolError(
        `hash_edit: stopped at ${item.target.resolved.display} (${messageOf(err)}). These files were already changed: ${done.join(', ')}; re-read them before editing again.`,
        err instanceof ToolError ? err.code : 'io',
      );
    }
    done.push(describe(item));
  }
}

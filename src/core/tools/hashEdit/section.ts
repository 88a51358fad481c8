import { promises as fsp } from 'node:fs';
import type { ResolvedPath } from '../../fs/containment';
import { ToolError } from '../errors';
import type { ToolRuntime } from '../runtime';
import type { Lineage, ReadSnapshot } from '../snapshots';
import { MAX_FILE_BYTES, contentTag, decodeUtf8, parseText, serializeText, type TextDoc } from '../textDoc';
import { applyEdits, mapVisible, type Hunk } from './apply';
import { blockOptionsFor } from './blocks';
import type { LineOp, Section } from './parser';
import { planEdits } from './plan';
import { mapSnapshot, paddedRange, rebaseEdits, stillVisible } from './recovery';
import { checkSuspects } from './suspects';
import { checkTag, checkVisible, namedRange, staleError } from './tags';
import { composeMaps } from './lineMap';
import { errnoOf as errno } from '../../fs/paths';

/**
 * Validation of one section, with nothing written: path, file type, size, tag, visibility,
 * overlaps, blocks and the size of the result. The outcome is everything the commit step needs.
 */

export interface Target {
  section: Section;
  resolved: ResolvedPath;
  /** The MV destination, when the section moves the file. */
  dest?: ResolvedPath;
}

export type Prepared =
  | {
      kind: 'edit';
      target: Target;
      /** The file as edited against, and as it will be written: for the transcript and the diff. */
      before: TextDoc;
      after: TextDoc;
      newText: string;
      bytes: Uint8Array;
      newTag: string;
      visible: number[];
      hunks: Hunk[];
      recovered: boolean;
      /** Where each line of the tagged version went, so the tag stays usable after this edit. */
      lineage: Lineage;
      emptyLastRowKept: boolean;
    }
  | { kind: 'move'; target: Target; dest: ResolvedPath; snapshot: ReadSnapshot }
  /** `text`: the file's current content, for the review of the removal. */
  | { kind: 'remove'; target: Target; text: string };

/** Adds the section's input line to a containment error, keeping its code. */
async function resolveFor(runtime: ToolRuntime, requested: string, section: Section): Promise<ResolvedPath> {
  try {
    return await runtime.resolve('hash_edit', requested, 'write');
  } catch (err) {
    if (err instanceof ToolError) throw new ToolError(`${err.message} (section at input line ${section.inputLine})`, err.code);
    throw err;
  }
}

/**
 * Applies containment to every section path and MV destination, and refuses two sections (or a
 * section and an MV destination) that name one file. Nothing is read or written.
 */
export async function resolveTargets(sections: readonly Section[], runtime: ToolRuntime): Promise<Target[]> {
  const owners = new Map<string, Section>();
  const claim = (resolved: ResolvedPath, section: Section): void => {
    const other = owners.get(resolved.canonical);
    if (other) {
      throw new ToolError(
        `hash_edit: the sections at input lines ${other.inputLine} and ${section.inputLine} both name ${resolved.display}; put all edits of one file into one section.`,
      );
    }
    owners.set(resolved.canonical, section);
  };
  const targets: Target[] = [];
  for (const section of sections) {
    const resolved = await resolveFor(runtime, section.path, section);
    claim(resolved, section);
    const mv = section.ops[0]?.kind === 'MV' ? section.ops[0] : undefined;
    const dest = mv ? await resolveFor(runtime, mv.dest, section) : undefined;
    if (dest) claim(dest, section);
    targets.push(dest ? { section, resolved, dest } : { section, resolved });
  }
  return targets;
}

/** The file's current text: it must exist, be a regular file, fit the cap and be UTF-8. */
async function readCurrent(runtime: ToolRuntime, resolved: ResolvedPath, signal: AbortSignal): Promise<string> {
  let stat;
  try {
    stat = await fsp.lstat(resolved.absolute);
  } catch (err) {
    if (errno(err) !== 'ENOENT' && errno(err) !== 'ENOTDIR') throw err;
    throw new ToolError(`hash_edit: ${resolved.display} does not exist; use find to locate the file (hash_edit only edits existing files; use write only when you mean to create a new file).`, 'not_found');
  }
  if (!stat.isFile()) {
    const what = stat.isDirectory() ? 'a directory' : 'not a regular file';
    throw new ToolError(`hash_edit: ${resolved.display} is ${what}; hash_edit only edits, moves and removes regular files.`, 'invalid_input');
  }
  const tooLarge = (): ToolError => new ToolError(`hash_edit: ${resolved.display} is larger than ${MAX_FILE_BYTES} bytes; hash_edit only edits files up to 1 MiB.`, 'too_large');
  if (stat.size > MAX_FILE_BYTES) throw tooLarge();
  const bytes = await runtime.files.readFile(resolved.absolute, signal);
  if (bytes.length > MAX_FILE_BYTES) throw tooLarge();
  return decodeUtf8(bytes, resolved.display);
}

/** MV never overwrites: the destination must not exist (a dangling symlink counts as existing). */
async function checkDestinationFree(dest: ResolvedPath, section: Section): Promise<void> {
  try {
    await fsp.lstat(dest.absolute);
  } catch (err) {
    if (errno(err) === 'ENOENT') return;
    if (errno(err) === 'ENOTDIR') {
      throw new ToolError(`hash_edit: [${section.path}] MV destination ${dest.display} has a parent that is not a directory; choose another destination.`, 'conflict');
    }
    throw err;
  }
  throw new ToolError(`hash_edit: [${section.path}] MV destination ${dest.display} already exists; MV never overwrites. Choose a free path, or REM the other file first.`, 'conflict');
}

/** Validates one section against the current file; throws ToolError and writes nothing. */
export async function prepareSection(target: Target, runtime: ToolRuntime, signal: AbortSignal): Promise<Prepared> {
  const { section, resolved } = target;
  const display = resolved.display;
  const text = await readCurrent(runtime, resolved, signal);
  signal.throwIfAborted();
  const tag = checkTag(runtime.snapshots, resolved.canonical, section, display, text, runtime.root);
  const first = section.ops[0];
  const current = parseText(text);

  if (first?.kind === 'MV' || first?.kind === 'REM') {
    // Whole-file ops act on content the model may not have seen, so they need the current tag.
    if (!tag.fresh || !tag.snapshot) throw staleError(section, display, `${first.kind} needs the newest tag of the unchanged file`, { start: 1, end: 1 });
    if (first.kind === 'REM') return { kind: 'remove', target, text };
    if (!target.dest) throw new Error('hash_edit: MV section without a resolved destination');
    await checkDestinationFree(target.dest, section);
    return { kind: 'move', target, dest: target.dest, snapshot: tag.snapshot };
  }

  if (!tag.snapshot) {
    const named = namedRange(section) ?? { start: 1, end: 1 };
    throw staleError(section, display, 'that read is too old to compare against', paddedRange(named.start, named.end, current.lines.length));
  }
  const lineOps = section.ops.filter((op): op is LineOp => op.kind !== 'MV' && op.kind !== 'REM');
  const block = blockOptionsFor(resolved.absolute);
  // Plan on what the model saw: its line numbers and visibility refer to that snapshot.
  const seenDoc = tag.fresh ? current : parseText(tag.snapshot.text);
  const seen = planEdits(lineOps, seenDoc.lines, { path: section.path, block });
  checkVisible(seen, tag.snapshot.visible, section, display);
  checkSuspects(seen, seenDoc.lines, tag.snapshot.visible, section, resolved.canonical, runtime.snapshots);
  const mapping = tag.fresh ? undefined : mapSnapshot(runtime.snapshots, resolved.canonical, tag.snapshot, seenDoc, current, text);
  const edits = mapping ? rebaseEdits(seen, mapping, current, block, section, display) : seen;
  const previouslyVisible = mapping ? stillVisible(tag.snapshot, mapping) : tag.snapshot.visible;

  const applied = applyEdits(current, edits);
  const newText = serializeText(applied.doc);
  const bytes = Buffer.from(newText, 'utf8');
  if (bytes.length > MAX_FILE_BYTES) {
    throw new ToolError(`hash_edit: [${section.path}] the edited file would be ${bytes.length} bytes, over the ${MAX_FILE_BYTES}-byte (1 MiB) limit; nothing was written. Make the file smaller or split it.`, 'too_large');
  }
  return {
    kind: 'edit',
    target,
    before: current,
    after: applied.doc,
    newText,
    bytes,
    newTag: contentTag(newText),
    visible: mapVisible(applied, previouslyVisible),
    hunks: applied.hunks,
    recovered: !tag.fresh,
    lineage: { tag: tag.snapshot.tag, map: mapping ? composeMaps(mapping.map, applied.oldToNew) : applied.oldToNew },
    emptyLastRowKept: applied.emptyLastRowKept,
  };
}

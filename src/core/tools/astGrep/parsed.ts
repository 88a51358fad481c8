import { parse, type SgRoot } from '@ast-grep/napi';
import { treeComplexity } from './complexity';
import { napiLanguage } from './languages';
import type { SkippedFiles, TrackedReader } from './skipped';
import type { Checkpoint, TargetFile } from './targets';

export interface ParsedFile {
  file: TargetFile;
  text: string;
  root: SgRoot;
}

export interface ParseOptions {
  reader: TrackedReader;
  skipped: SkippedFiles;
  checkpoint: Checkpoint;
  /**
   * Before a file is read: false to leave it out (the caller counts why), or a test of its raw
   * bytes (a file failing it is neither decoded nor parsed), or true to parse it whatever it holds.
   */
  admit?: (file: TargetFile) => boolean | ((bytes: Buffer) => boolean);
}

/** Whether the shared deadline stopped the files' parsing; set by parseInOrder. */
export interface ParseProgress {
  deadlineHit: boolean;
}

/**
 * The files that pass the read and tree checks, parsed, in the given order; stops at the deadline
 * (progress.deadlineHit) and throws on cancellation. Parsing is synchronous: napi's parseAsync
 * measured more than twice as slow per file here (a thread-pool round trip per parse, about
 * 0.7 ms), and even three or eight files ahead it stayed slower than parsing in turn. The event loop
 * gets a turn every 8 ms (Checkpoint.breathe); one parse of a file at the 256 KiB limit is the
 * longest it waits.
 */
export async function* parseInOrder(files: readonly TargetFile[], options: ParseOptions, progress: ParseProgress): AsyncGenerator<ParsedFile> {
  const { reader, skipped, checkpoint, admit } = options;
  for (const file of files) {
    if (progress.deadlineHit || checkpoint.expired()) {
      progress.deadlineHit = true;
      return;
    }
    await checkpoint.breathe();
    const admitted = admit === undefined ? true : admit(file);
    if (admitted === false) continue;
    const text = admitted === true ? reader.read(file) : reader.read(file, admitted);
    if (text === undefined) continue;
    const complexity = treeComplexity(text);
    if (!complexity.ok) {
      skipped.add(file.display, 'too_complex', complexity.reason);
      continue;
    }
    checkpoint.cancelled();
    yield { file, text, root: parse(napiLanguage(file.language), text) };
  }
}

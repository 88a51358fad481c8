import { parseAsync, type SgRoot } from '@ast-grep/napi';
import { treeComplexity } from './complexity';
import { napiLanguage } from './languages';
import type { SkippedFiles, TrackedReader } from './skipped';
import type { Checkpoint, TargetFile } from './targets';

export interface ParsedFile {
  file: TargetFile;
  text: string;
  root: SgRoot;
}

/** Files parsed ahead of the one being matched or outlined. */
const LOOKAHEAD = 3;

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
 * The files that pass the read and tree checks, parsed, in the given order. Parsing runs on
 * libuv's thread pool (napi's parseAsync) a few files ahead, so reading and parsing the next files
 * overlap with whatever the caller does with this one, and the event loop stays free while a large
 * file is parsed. Stops at the deadline (progress.deadlineHit) and throws on cancellation. A caller
 * that stops early leaves at most LOOKAHEAD parses to finish in the background.
 */
export async function* parseInOrder(files: readonly TargetFile[], options: ParseOptions, progress: ParseProgress): AsyncGenerator<ParsedFile> {
  const { reader, skipped, checkpoint, admit } = options;
  const pending: Promise<ParsedFile>[] = [];
  let next = 0;

  const schedule = (): void => {
    while (pending.length < LOOKAHEAD && next < files.length && !progress.deadlineHit) {
      if (checkpoint.expired()) {
        progress.deadlineHit = true;
        return;
      }
      const file = files[next++] as TargetFile;
      const admitted = admit === undefined ? true : admit(file);
      if (admitted === false) continue;
      const text = admitted === true ? reader.read(file) : reader.read(file, admitted);
      if (text === undefined) continue;
      const complexity = treeComplexity(text);
      if (!complexity.ok) {
        skipped.add(file.display, 'too_complex', complexity.reason);
        continue;
      }
      const parsed = parseAsync(napiLanguage(file.language), text).then((root) => ({ file, text, root }));
      // Awaited in order below; this handler only keeps an abandoned parse from being unhandled.
      parsed.catch(() => undefined);
      pending.push(parsed);
    }
  };

  for (;;) {
    schedule();
    const head = pending.shift();
    if (head === undefined) return;
    const parsed = await head;
    checkpoint.cancelled();
    yield parsed;
    await checkpoint.breathe();
  }
}

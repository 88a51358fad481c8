import { treeComplexity } from './complexity';
import { SourceReader, type SkipReason } from './source';
import type { TargetFile } from './targets';

/** How many paths each note and metadata list names. */
const LISTED = 20;

const REASON_TEXT: Record<SkipReason, string> = {
  too_large: 'larger than the per-file limit',
  not_utf8: 'not valid UTF-8',
  unreadable: 'unreadable',
  not_regular: 'not a regular file',
  too_complex: 'syntax tree over the limits',
  read_cap: "past the call's read limit",
};

/** The files one call skipped, by reason, for `files_skipped` and the notes. */
export class SkippedFiles {
  private readonly byReason = new Map<SkipReason, { paths: string[]; count: number; detail: string }>();
  private total = 0;
  /** `path: reason` of the first LISTED skipped files, for metadata. */
  readonly listed: string[] = [];

  get count(): number {
    return this.total;
  }

  add(display: string, reason: SkipReason, detail: string): void {
    this.total++;
    if (this.listed.length < LISTED) this.listed.push(`${display}: ${reason}`);
    let entry = this.byReason.get(reason);
    if (entry === undefined) {
      entry = { paths: [], count: 0, detail };
      this.byReason.set(reason, entry);
    }
    entry.count++;
    if (entry.paths.length < LISTED) entry.paths.push(display);
  }

  /** One note per reason, naming up to LISTED paths. */
  notes(): string[] {
    return [...this.byReason].map(([reason, { paths, count, detail }]) => {
      const more = count > paths.length ? ` and ${count - paths.length} more` : '';
      return `[skipped ${count} file(s) ${REASON_TEXT[reason]} (e.g. ${detail}): ${paths.join(', ')}${more}]`;
    });
  }
}

/** A SourceReader that records every skipped file. */
export class TrackedReader {
  private readonly reader: SourceReader;

  constructor(private readonly skipped: SkippedFiles, reader = new SourceReader()) {
    this.reader = reader;
  }

  get bytesRead(): number {
    return this.reader.bytesRead;
  }

  /** The file's text, or undefined when it was skipped (and recorded) or `keep` refused its bytes. */
  read(file: TargetFile, keep?: (bytes: Buffer) => boolean): string | undefined {
    const result = keep === undefined ? this.reader.read(file.absolute) : this.reader.read(file.absolute, keep);
    if (result === null) return undefined;
    if (result.ok) return result.text;
    this.skipped.add(file.display, result.reason, result.detail);
    return undefined;
  }

  /** The file's text when it may be parsed: read as `read` does, and within the tree limits (else recorded as too complex). */
  readParsable(file: TargetFile, keep?: (bytes: Buffer) => boolean): string | undefined {
    const text = this.read(file, keep);
    if (text === undefined) return undefined;
    const complexity = treeComplexity(text);
    if (complexity.ok) return text;
    this.skipped.add(file.display, 'too_complex', complexity.reason);
    return undefined;
  }
}

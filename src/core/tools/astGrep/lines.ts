/** Line and byte arithmetic over one file's text, for match rows and rewrite previews. */
export class SourceLines {
  private readonly starts: number[] = [0];
  private byteCursor = { index: 0, byte: 0 };

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** Index just past the last character of a 0-based line, before its `\n` (and `\r`). */
  private lineEnd(line: number): number {
    const next = this.starts[line + 1];
    if (next === undefined) return this.text.length;
    return this.text.charCodeAt(next - 2) === 13 ? next - 2 : next - 1;
  }

  lineStart(line: number): number {
    return this.starts[line] ?? this.text.length;
  }

  /** A 0-based line's text without its line break. */
  line(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  /** Text of the lines from `startLine`'s start up to `index`, and from `index` to `endLine`'s end. */
  before(line: number, index: number): string {
    return this.text.slice(this.lineStart(line), index);
  }

  after(index: number, line: number): string {
    return this.text.slice(index, Math.max(index, this.lineEnd(line)));
  }

  /**
   * The UTF-8 byte offset of a UTF-16 index. Matches arrive in ascending order, so the count
   * continues from the previous call rather than starting over.
   */
  byteOffset(index: number): number {
    if (index < this.byteCursor.index) this.byteCursor = { index: 0, byte: 0 };
    const byte = this.byteCursor.byte + Buffer.byteLength(this.text.slice(this.byteCursor.index, index), 'utf8');
    this.byteCursor = { index, byte };
    return byte;
  }
}

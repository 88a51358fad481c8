/** Room kept for the notes that say where output was cut. */
const NOTE_RESERVE = 512;

/**
 * Accumulates output lines under a UTF-8 byte cap. Lines are added whole or not at all; once a
 * line does not fit the budget is exhausted and only notes (from the reserve) can still be added.
 */
export class OutputBudget {
  private readonly lines: string[] = [];
  private used = 0;
  private cut = false;

  constructor(private readonly capBytes: number) {}

  /** Adds a line if it fits; returns false (and exhausts the budget) if it does not. */
  add(line: string): boolean {
    if (this.cut) return false;
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (this.used + size > this.capBytes - NOTE_RESERVE) {
      this.cut = true;
      return false;
    }
    this.lines.push(line);
    this.used += size;
    return true;
  }

  /**
   * Adds several lines as one record: all of them if they fit, else none (and the budget is then
   * exhausted), so a cut never splits a record.
   */
  addRecord(lines: readonly string[]): boolean {
    if (this.cut) return false;
    let size = 0;
    for (const line of lines) size += Buffer.byteLength(line, 'utf8') + 1;
    if (this.used + size > this.capBytes - NOTE_RESERVE) {
      this.cut = true;
      return false;
    }
    this.lines.push(...lines);
    this.used += size;
    return true;
  }

  /** Adds a short note from the reserve, so the reader learns what was left out. */
  note(line: string): void {
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (this.used + size > this.capBytes) return;
    this.lines.push(line);
    this.used += size;
  }

  get exhausted(): boolean {
    return this.cut;
  }

  /** True when anything was left out because of the cap. */
  get truncated(): boolean {
    return this.cut;
  }

  text(): string {
    return this.lines.join('\n');
  }
}

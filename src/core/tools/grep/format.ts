import { OutputBudget } from '../read/budget';
import type { Label } from './labels';
import type { FileHits } from './protocol';

export interface PageRequest {
  mode: 'raw' | 'ranked';
  offset: number;
  limit: number;
  context: number;
  /** Raw: files in path order. Ranked: files best first. */
  files: readonly FileHits[];
  /** Display path of a file by its index in the call's list. */
  pathOf: (index: number) => string;
  budget: OutputBudget;
}

export interface Page {
  /** Primary lines shown. */
  returned: number;
  /** Primary lines available in `files` (raw: lookahead included). */
  available: number;
  /** The output cap stopped the page before `limit` primary lines. */
  outputCut: boolean;
  /** Ranked: shown files that have more matching lines than they show: `path: shown of total`. */
  perFile: string[];
}

interface Row {
  line: number;
  text: string;
  kind: 'primary' | 'match' | 'context';
  label?: Label;
}

/** One page of primary lines: [file position in `files`, line position in that file]. */
function pageEntries(files: readonly FileHits[], offset: number, limit: number): { slice: [number, number][]; available: number } {
  const slice: [number, number][] = [];
  let seen = 0;
  files.forEach((f, fi) => {
    for (let k = 0; k < f.lines.length; k++, seen++) if (seen >= offset && seen < offset + limit) slice.push([fi, k]);
  });
  return { slice, available: seen };
}

/** A file's rows for the shown primaries: context within reach, other matching lines in reach as matches. */
function fileRows(f: FileHits, shown: Set<number>, context: number): Row[] {
  const near = (line: number): boolean => {
    for (let d = -context; d <= context; d++) if (shown.has(line + d)) return true;
    return false;
  };
  const rows: Row[] = [];
  f.lines.forEach((line, k) => {
    if (shown.has(line)) rows.push({ line, text: f.texts[k]!, kind: 'primary', label: f.labels[k] });
    else if (context > 0 && near(line)) rows.push({ line, text: f.texts[k]!, kind: 'match' });
  });
  if (context > 0) {
    f.ctxLines.forEach((line, k) => {
      if (near(line)) rows.push({ line, text: f.ctxTexts[k]!, kind: f.ctxMatch[k] ? 'match' : 'context' });
    });
  }
  return rows.sort((a, b) => a.line - b.line);
}

/** Splits a file's rows into records, one per primary: its leading context, itself, its trailing context. */
function records(rows: readonly Row[], context: number): Row[][] {
  const primaries = rows.filter((r) => r.kind === 'primary').map((r) => r.line);
  const out: Row[][] = primaries.map(() => []);
  let p = 0;
  for (const row of rows) {
    while (p + 1 < primaries.length && primaries[p + 1]! <= row.line) p++;
    // Rows after the last primary in reach belong to it; the others lead into the next one.
    const owner = row.line >= primaries[p]! && row.line - primaries[p]! <= context ? p : row.line < primaries[p]! ? p : p + 1;
    out[Math.min(owner, out.length - 1)]!.push(row);
  }
  return out;
}

function rawRow(path: string, row: Row): string {
  return row.kind === 'context' ? `${path}-${row.line}-${row.text}` : `${path}:${row.line}:${row.text}`;
}

function rankedRow(row: Row): string {
  if (row.kind === 'primary') return `[${row.label ?? 'match'}] ${row.line}:${row.text}`;
  return row.kind === 'context' ? `${row.line}-${row.text}` : `${row.line}:${row.text}`;
}

/**
 * Writes one page into the budget, a record at a time (a primary line with its context, the file
 * header and notes riding with the record they belong to), so a cut never leaves half a record.
 */
export function writePage(req: PageRequest): Page {
  const { budget, context } = req;
  const { slice, available } = pageEntries(req.files, req.offset, req.limit);
  const page: Page = { returned: 0, available, outputCut: false, perFile: [] };
  let lastLine = -1;
  let firstGroup = true;
  for (let i = 0; i < slice.length; ) {
    const fi = slice[i]![0];
    let j = i;
    while (j < slice.length && slice[j]![0] === fi) j++;
    const f = req.files[fi]!;
    const shownKs = slice.slice(i, j).map(([, k]) => k);
    const path = req.pathOf(f.index);
    const groups = records(fileRows(f, new Set(shownKs.map((k) => f.lines[k]!)), context), context);
    const endsFile = shownKs[shownKs.length - 1] === f.lines.length - 1;
    lastLine = -1;
    for (let g = 0; g < groups.length; g++) {
      const rows = groups[g]!;
      const lines: string[] = [];
      if (req.mode === 'ranked' && g === 0) {
        if (!firstGroup) lines.push('');
        lines.push(`## ${path}`);
        if (f.prefixOnly) lines.push('[only the first 4 MiB of this file was searched]');
      } else if (context > 0 && (lastLine === -1 ? !firstGroup : rows[0]!.line !== lastLine + 1)) {
        lines.push('--');
      }
      for (const row of rows) lines.push(req.mode === 'raw' ? rawRow(path, row) : rankedRow(row));
      const omitted = f.count - f.lines.length;
      if (req.mode === 'ranked' && g === groups.length - 1 && endsFile && omitted > 0) {
        lines.push(`[${omitted} more matching line${omitted === 1 ? '' : 's'} in this file not shown; grep it alone with mode "raw" to see them]`);
      }
      if (!budget.addRecord(lines)) {
        page.outputCut = true;
        return page;
      }
      firstGroup = false;
      page.returned++;
      lastLine = rows[rows.length - 1]!.line;
    }
    if (req.mode === 'ranked' && f.count > f.lines.length) page.perFile.push(`${path}: ${f.lines.length} of ${f.count} shown`);
    i = j;
  }
  return page;
}

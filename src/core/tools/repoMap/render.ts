import type { OutlineSymbol } from '../astGrep/outline/types';
import { MAX_SIGNATURE_CHARS, MAX_TOKENS } from './limits';
import type { RankedFile } from './rank';

/** Tokens of a text as the map estimates them: ceil(UTF-8 bytes / 4). */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}

/** A member competes for room at this fraction of its own score: members are shown briefly. */
const MEMBER_WEIGHT = 0.5;

export interface RenderedMap {
  text: string;
  filesShown: number;
  symbolsShown: number;
  /** Symbols that could be shown (imports are never). */
  symbolsTotal: number;
  truncated: boolean;
  tokens: number;
}

interface Candidate {
  file: number;
  symbol: OutlineSymbol;
  /** The parent's candidate for a member. */
  parent: Candidate | undefined;
  score: number;
  row: string;
}

function clip(signature: string): string {
  const flat = signature.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_SIGNATURE_CHARS ? flat : `${flat.slice(0, MAX_SIGNATURE_CHARS - 1)}…`;
}

const rowOf = (symbol: OutlineSymbol, indent: string): string => `${indent}${symbol.range.start.line}: ${clip(symbol.signature || symbol.name)}`;
const lineBytes = (line: string): number => Buffer.byteLength(line, 'utf8') + 1;

function headerOf(files: number, filesTotal: number, symbols: number, symbolsTotal: number): string {
  return `repo map: ${files} of ${filesTotal} files, ${symbols} of ${symbolsTotal} symbols, ranked by cross-file references (approximate); tokens ~ ceil(UTF-8 bytes / 4)`;
}

function cutNoteOf(maxTokens: number, filesMore: number, symbolsMore: number): string {
  return `[cut at the ${maxTokens}-token budget: ${filesMore} more files and ${symbolsMore} more symbols not shown; raise maxTokens (up to ${MAX_TOKENS}), narrow path, or add a query]`;
}

/**
 * Writes the map within `maxTokens`: symbols (members at MEMBER_WEIGHT of their score, a member
 * bringing its parent) are taken best first, each with its file's `path:` header on first use,
 * until the next one would pass the budget; the header line, `notes` and the cut note are
 * reserved for first, so the estimate of the whole text never exceeds `maxTokens`. Files are shown
 * in rank order, their symbols in line order with members indented under their parent.
 */
export function renderMap(files: readonly RankedFile[], maxTokens: number, notes: readonly string[]): RenderedMap {
  const candidates: Candidate[] = [];
  let symbolsTotal = 0;
  files.forEach((file, position) => {
    for (const ranked of file.symbols) {
      const parent: Candidate = { file: position, symbol: ranked.symbol, parent: undefined, score: ranked.score, row: rowOf(ranked.symbol, '  ') };
      candidates.push(parent);
      for (const member of ranked.members) {
        candidates.push({ file: position, symbol: member.symbol, parent, score: member.score * MEMBER_WEIGHT, row: rowOf(member.symbol, '    ') });
      }
      symbolsTotal += 1 + ranked.members.length;
    }
  });
  candidates.sort((a, b) => b.score - a.score || a.file - b.file || a.symbol.range.start.line - b.symbol.range.start.line);

  const budget = maxTokens * 4;
  let reserve = lineBytes(headerOf(files.length, files.length, symbolsTotal, symbolsTotal)) + lineBytes(cutNoteOf(maxTokens, files.length, symbolsTotal));
  const noteBytes = notes.reduce((sum, note) => sum + lineBytes(note), 0);
  const keptNotes = reserve + noteBytes <= budget ? notes : [];
  reserve += keptNotes === notes ? noteBytes : 0;

  const taken = new Set<Candidate>();
  const shownSymbols = new Set<OutlineSymbol>();
  const openFiles = new Set<number>();
  let used = reserve;
  let truncated = false;
  for (const candidate of candidates) {
    if (taken.has(candidate)) continue;
    const rows = candidate.parent !== undefined && !taken.has(candidate.parent) ? [candidate.parent, candidate] : [candidate];
    let cost = rows.reduce((sum, c) => sum + lineBytes(c.row), 0);
    if (!openFiles.has(candidate.file)) cost += lineBytes(`${(files[candidate.file] as RankedFile).display}:`);
    if (used + cost > budget) {
      truncated = true;
      break;
    }
    used += cost;
    openFiles.add(candidate.file);
    for (const row of rows) {
      taken.add(row);
      shownSymbols.add(row.symbol);
    }
  }

  const body: string[] = [];
  files.forEach((file, position) => {
    if (!openFiles.has(position)) return;
    body.push(`${file.display}:`);
    const shown = file.symbols.filter((s) => shownSymbols.has(s.symbol)).sort((a, b) => a.symbol.range.start.line - b.symbol.range.start.line);
    for (const ranked of shown) {
      body.push(rowOf(ranked.symbol, '  '));
      const members = ranked.members.filter((m) => shownSymbols.has(m.symbol)).sort((a, b) => a.symbol.range.start.line - b.symbol.range.start.line);
      for (const member of members) body.push(rowOf(member.symbol, '    '));
    }
  });
  const lines = [headerOf(openFiles.size, files.length, taken.size, symbolsTotal), ...body, ...keptNotes];
  if (truncated) lines.push(cutNoteOf(maxTokens, files.length - openFiles.size, symbolsTotal - taken.size));
  const text = lines.join('\n');
  return { text, filesShown: openFiles.size, symbolsShown: taken.size, symbolsTotal, truncated, tokens: estimateTokens(text) };
}

/**
 * The frontmatter of skill and agent definitions: a `---` block at the top of a Markdown file with
 * `name`, `description` and optionally `tools`. Only the YAML forms those fields need are accepted
 * (plain, quoted and block scalars; comma, inline and bulleted lists), and strictly, so that a file
 * another YAML reader would take differently is an error here rather than a silent difference.
 * Other keys are skipped without being interpreted: definitions written for other agents carry
 * fields (license, metadata …) that are none of our business.
 */

/** The fields a definition may set; the rest of the file is the body. */
export interface Frontmatter {
  name?: string;
  description?: string;
  tools?: string[];
  /** The Markdown after the closing `---`, as written. */
  body: string;
}

/** A frontmatter that cannot be read; the message names the file and, when there is one, the field. */
export class FrontmatterError extends Error {
  constructor(
    readonly file: string,
    readonly field: string | undefined,
    detail: string,
  ) {
    super(`${file}: ${field === undefined ? 'frontmatter' : `frontmatter field "${field}"`}: ${detail}`);
    this.name = 'FrontmatterError';
  }
}

const FENCE = /^---[ \t]*$/;
const KEY = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/;
const SCALAR_FIELDS = new Set(['name', 'description']);

/** One top-level key with its inline value and the indented lines that follow it. */
interface Entry {
  key: string;
  inline: string;
  block: string[];
}

/** Splits `text` into its frontmatter fields and body; throws FrontmatterError naming `file`. */
export function parseFrontmatter(text: string, file: string): Frontmatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) throw new FrontmatterError(file, undefined, 'the file must start with a `---` line opening the frontmatter block.');
  const close = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (close === -1) throw new FrontmatterError(file, undefined, 'no closing `---` line ends the frontmatter block.');

  const result: Frontmatter = { body: lines.slice(close + 1).join('\n') };
  for (const entry of entriesOf(lines.slice(1, close), file)) {
    if (SCALAR_FIELDS.has(entry.key)) result[entry.key as 'name' | 'description'] = scalarOf(entry, file);
    else if (entry.key === 'tools') result.tools = listOf(entry, file);
  }
  return result;
}

function entriesOf(lines: string[], file: string): Entry[] {
  const entries: Entry[] = [];
  for (const line of lines) {
    const last = entries[entries.length - 1];
    if (/^[ \t]/.test(line) && line.trim() !== '') {
      if (last === undefined) throw new FrontmatterError(file, undefined, `an indented line comes before any key: "${line.trim()}".`);
      last.block.push(line);
      continue;
    }
    if (line.trim() === '') {
      // Blank lines matter only inside a block scalar; elsewhere they separate nothing.
      last?.block.push('');
      continue;
    }
    if (line.startsWith('#')) continue;
    // YAML lets a block list sit at its key's own indentation (`tools:` then `- read`).
    if (/^-[ \t]/.test(line) && last !== undefined && last.inline === '') {
      last.block.push(line);
      continue;
    }
    const m = KEY.exec(line);
    if (!m) throw new FrontmatterError(file, undefined, `expected "key: value", got "${line}".`);
    const key = m[1] as string;
    if (entries.some((e) => e.key === key)) throw new FrontmatterError(file, key, 'is given twice.');
    entries.push({ key, inline: (m[2] ?? '').trim(), block: [] });
  }
  for (const entry of entries) while (entry.block[entry.block.length - 1] === '') entry.block.pop();
  return entries;
}

function scalarOf(entry: Entry, file: string): string {
  const { key, inline, block } = entry;
  if (/^[|>][+-]?$/.test(inline)) return blockScalar(inline, block);
  if (block.length > 0) throw new FrontmatterError(file, key, 'continues on indented lines; write it on one line, quote it, or use a `|` or `>` block.');
  if (inline === '') throw new FrontmatterError(file, key, 'is empty.');
  return singleScalar(inline, key, file);
}

/** A `|` (lines kept) or `>` (lines folded into one) block; its indentation is that of its first line. */
function blockScalar(indicator: string, block: string[]): string {
  const indent = /^[ \t]*/.exec(block.find((l) => l !== '') ?? '')?.[0].length ?? 0;
  const lines = block.map((l) => l.slice(indent));
  if (indicator.startsWith('|')) return lines.join('\n');
  return lines.map((l) => (l === '' ? '\n' : l)).join(' ').replace(/ ?\n ?/g, '\n');
}

/** A plain, single-quoted or double-quoted scalar on one line. */
function singleScalar(raw: string, key: string, file: string): string {
  if (raw.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'(?:[ \t]+#.*)?$/.exec(raw);
    if (!m) throw new FrontmatterError(file, key, 'has an unterminated single-quoted value (write a quote inside as \'\').');
    return (m[1] as string).replace(/''/g, "'");
  }
  if (raw.startsWith('"')) {
    const m = /^"((?:[^"\\]|\\.)*)"(?:[ \t]+#.*)?$/.exec(raw);
    if (!m) throw new FrontmatterError(file, key, 'has an unterminated double-quoted value.');
    return (m[1] as string).replace(/\\(.)/g, (_, c: string) => {
      const escaped = ({ n: '\n', t: '\t', '"': '"', '\\': '\\', '/': '/' } as Record<string, string>)[c];
      if (escaped === undefined) throw new FrontmatterError(file, key, `uses the unsupported escape \\${c}.`);
      return escaped;
    });
  }
  const value = raw.replace(/[ \t]+#.*$/, '');
  if (/^[[\]{}&*!|>%@`]/.test(value) || value.startsWith('- ')) {
    throw new FrontmatterError(file, key, `starts with "${value[0]}", which YAML reads as syntax; put the value in quotes.`);
  }
  if (value.includes(': ')) throw new FrontmatterError(file, key, 'contains ": ", which YAML reads as a nested key; put the value in quotes.');
  return value;
}

/** `a, b`, `[a, "b"]` or a block of `- a` lines; items are scalars, never empty. */
function listOf(entry: Entry, file: string): string[] {
  const { key, inline, block } = entry;
  if (inline !== '' && block.length > 0) throw new FrontmatterError(file, key, 'has both an inline value and indented lines; use one form.');
  if (inline === '') {
    return block.filter((l) => l !== '').map((line) => {
      const m = /^[ \t]*-[ \t]+(.+)$/.exec(line);
      if (!m) throw new FrontmatterError(file, key, `expected a "- item" line, got "${line.trim()}".`);
      return singleScalar((m[1] as string).trim(), key, file);
    });
  }
  let items = inline;
  if (items.startsWith('[')) {
    const m = /^\[(.*)\](?:[ \t]+#.*)?$/.exec(items);
    if (!m) throw new FrontmatterError(file, key, 'has an unterminated [ list.');
    items = m[1] as string;
    if (items.trim() === '') return [];
  }
  return splitItems(items, key, file).map((item) => {
    if (item === '') throw new FrontmatterError(file, key, 'has an empty list item.');
    return singleScalar(item, key, file);
  });
}

/** Splits on commas outside quotes. */
function splitItems(text: string, key: string, file: string): string[] {
  const items: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === ',') {
      items.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (quote !== undefined) throw new FrontmatterError(file, key, 'has an unterminated quoted list item.');
  items.push(current.trim());
  return items;
}

/**
 * `query` matching: the query and each name or path are split into lowercase words at
 * non-alphanumerics, snake_case underscores and camelCase humps ("parseHTTPRequest" → parse, http,
 * request). A name or path matches when one of its words equals a query word, or — for query words
 * of MIN_SUBSTRING_CHARS or more — its lowercase text contains one ("hashedit" finds hashEdit).
 */

const MIN_TERM_CHARS = 2;
const MIN_SUBSTRING_CHARS = 4;

/** The lowercase words of an identifier, path or free text. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/** The distinct query words worth matching (one-character words are dropped). */
export function queryTerms(query: string | undefined): string[] {
  if (query === undefined) return [];
  return [...new Set(wordsOf(query).filter((w) => w.length >= MIN_TERM_CHARS))];
}

/** Whether a name or path matches any of the terms (see the module comment). */
export function matchesTerms(text: string, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const words = wordsOf(text);
  const lower = text.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return terms.some((term) => (term.length >= MIN_SUBSTRING_CHARS ? lower.includes(term) : words.includes(term)));
}

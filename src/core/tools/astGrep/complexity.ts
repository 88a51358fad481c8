import { MAX_TREE_DEPTH, MAX_TREE_NODES } from './limits';

/**
 * Whether a file's syntax tree would pass the tree limits (MAX_TREE_NODES nodes, MAX_TREE_DEPTH
 * deep), judged from its text before it is parsed. @ast-grep/napi exposes no node count, and
 * counting by visiting nodes from JavaScript costs about 4.5 µs a node — ten times the parse — so
 * the tree is measured by what makes it: every lexical token (a run of word characters, one
 * punctuation character) is at least one leaf, and every open bracket one level of nesting.
 * Parsing is what the limit protects, so it is decided before parsing.
 */
export type Complexity = { ok: true } | { ok: false; reason: string };

/** Character classes of the scan: 0 space, 1 word (letters, digits, `_`, `$`, anything non-ASCII), 2 punctuation. */
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  CLASS[c] = /\s/.test(ch) || c < 32 ? 0 : /[A-Za-z0-9_$]/.test(ch) ? 1 : 2;
}

export function treeComplexity(text: string, maxNodes = MAX_TREE_NODES, maxDepth = MAX_TREE_DEPTH): Complexity {
  let depth = 0;
  let deepest = 0;
  let tokens = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const kind = c < 128 ? (CLASS[c] as number) : 1;
    if (kind === 1) {
      if (!inWord && ++tokens > maxNodes) break;
      inWord = true;
      continue;
    }
    inWord = false;
    if (kind === 0) continue;
    if (++tokens > maxNodes) break;
    if (c === 40 || c === 91 || c === 123) {
      if (++depth > deepest) deepest = depth;
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) {
      depth--;
    }
  }
  // The tree is at least one level deeper than the brackets: the root.
  if (deepest + 1 > maxDepth) return { ok: false, reason: `nests ${deepest} brackets deep (tree depth limit ${maxDepth})` };
  if (tokens > maxNodes) return { ok: false, reason: `has more than ${maxNodes} tokens (tree node limit ${maxNodes})` };
  return { ok: true };
}

import { parse, type NapiConfig, type SgNode } from '@ast-grep/napi';
import { expandoOf, napiLanguage, type LanguageId } from './languages';
import { MAX_PATTERN_NODES } from './limits';

/** A pattern ready for one language. */
export interface CompiledPattern {
  language: LanguageId;
  rule: NapiConfig;
  /**
   * Words every match contains: the pattern's named leaves that are not metavariables. A file
   * lacking one of them cannot match, so it is not decoded nor parsed.
   */
  requiredWords: string[];
  /** Whether a file's bytes hold every required word. */
  mayMatch: (bytes: Buffer) => boolean;
}

/** Why a pattern does not compile for a language; the message is meant for the model. */
export class PatternError extends Error {
  constructor(readonly language: LanguageId, message: string) {
    super(message);
    this.name = 'PatternError';
  }
}

const WORD = /^[\p{L}_][\p{L}\p{N}_]+$/u;

/** Every node of a (small, bounded) pattern tree, pre-order. */
function nodesOf(root: SgNode, cap: number): SgNode[] {
  const out: SgNode[] = [];
  const stack = [root];
  while (stack.length > 0 && out.length <= cap) {
    const node = stack.pop() as SgNode;
    out.push(node);
    const children = node.children();
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as SgNode);
  }
  return out;
}

/**
 * The first ERROR node that makes the pattern unusable, or undefined. ast-grep matches with the
 * node under the chain of single-child wrappers at the top (a bare Rust expression sits in an
 * ERROR wrapper at file level), and accepts a lone metavariable where the grammar wants something
 * else (`match $X { $$$A }`): neither is an error, as the CLI agrees. Any other ERROR is.
 */
function firstRealError(root: SgNode, expando: string): SgNode | undefined {
  let top = root;
  for (let children = top.children(); children.length === 1; children = top.children()) top = children[0] as SgNode;
  const escaped = expando.replace(/[$]/g, '\\$&');
  const loneMetavariable = new RegExp(`^(?:${escaped}${escaped}${escaped}|${escaped})[A-Z_][A-Z0-9_]*$`);
  return nodesOf(top, MAX_PATTERN_NODES).find((node) => node.kind() === 'ERROR' && !loneMetavariable.test(node.text().trim()));
}

/**
 * Compiles `pattern` for `language` the way ast-grep does — a `$` metavariable is first written
 * with the language's expando character where `$` cannot start an identifier — and refuses what
 * ast-grep would only warn about: a pattern whose tree holds an ERROR node, or more than
 * MAX_PATTERN_NODES nodes, or (ast-grep's own error) several top-level nodes.
 */
export function compilePattern(pattern: string, language: LanguageId): CompiledPattern {
  const lang = napiLanguage(language);
  const expando = expandoOf(language);
  const source = expando === '$' ? pattern : pattern.replace(/\$/g, expando);
  const tree = parse(lang, source).root();
  const nodes = nodesOf(tree, MAX_PATTERN_NODES);
  if (nodes.length > MAX_PATTERN_NODES) {
    throw new PatternError(language, `the pattern has more than ${MAX_PATTERN_NODES} syntax nodes in ${language}; search for a smaller piece of code.`);
  }
  const broken = firstRealError(tree, expando);
  if (broken !== undefined) {
    throw new PatternError(language, `the pattern does not parse as ${language} code (a syntax error at ${JSON.stringify(broken.text().slice(0, 40))}); write a complete ${language} expression, statement or declaration, with $NAME for the parts that vary.`);
  }
  const rule: NapiConfig = { rule: { pattern } };
  try {
    // Compiling against an empty tree surfaces ast-grep's own pattern errors now, not per file.
    parse(lang, '').root().findAll(rule);
  } catch (err) {
    throw new PatternError(language, `the pattern is not valid for ${language}: ${(err as Error).message.replace(/\s*\n\s*\|->/g, ': ')}`);
  }
  const requiredWords = new Set<string>();
  for (const node of nodes) {
    if (!node.isNamedLeaf() || String(node.kind()).includes('comment')) continue;
    const text = node.text();
    if (WORD.test(text) && !text.includes(expando)) requiredWords.add(text);
  }
  const needles = [...requiredWords].map((word) => Buffer.from(word, 'utf8'));
  return { language, rule, requiredWords: [...requiredWords], mayMatch: (bytes) => needles.every((needle) => bytes.includes(needle)) };
}

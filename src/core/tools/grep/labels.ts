/**
 * Ranked mode's primary labels, guessed from the matched line alone (no parsing): `import` for
 * lines that bring names in, `def-like` for lines that look like a declaration, `match` otherwise.
 */
export type Label = 'def-like' | 'import' | 'match';

const IMPORT = new RegExp(
  [
    String.raw`^import\b`, // JS/TS, Python, Java, Kotlin, Go, Swift, Scala
    String.raw`^export\s+(?:\*|\{[^}]*\}|type\s+\{[^}]*\})\s*from\b`, // re-exports
    String.raw`^from\s+\S+\s+import\b`, // Python
    String.raw`^(?:pub(?:\([^)]*\))?\s+)?use\s+[\w:{]`, // Rust, PHP
    String.raw`^extern\s+crate\b`,
    String.raw`^#\s*(?:include|import)\b`, // C, C++, Objective-C
    String.raw`^using\s+[\w.]+\s*;`, // C#
    String.raw`^(?:require|require_relative|load)\b[\s(]`, // Ruby, Lua, JS
    String.raw`^(?:const|let|var)\s+[^=]+=\s*(?:await\s+)?(?:require|import)\s*\(`, // CommonJS
    String.raw`^@import\b`, // CSS, Sass
  ].join('|'),
);

const MODIFIERS = String.raw`(?:(?:export|default|declare|public|private|protected|internal|static|final|abstract|sealed|open|override|readonly|async|unsafe|extern|inline|virtual|const|data|inner|lateinit|suspend|tailrec|operator|pub(?:\([^)]*\))?|partial)\s+)*`;

const DEF_LIKE = new RegExp(
  [
    // Declaration keywords of JS/TS, Rust, Python, Go, Kotlin, Swift, Ruby, Elixir, C#, Java, Scala, shells.
    String.raw`^${MODIFIERS}(?:function\*?|class|interface|type|enum|namespace|module|const|let|var|val|def|defp|fn|func|fun|struct|union|trait|impl|mod|static|macro_rules!|protocol|extension|object|record|typedef|package|sub|proc)\b`,
    // A method or function signature: `name(params) {` or `name(params): T {`, not a control statement.
    String.raw`^${MODIFIERS}(?:get\s+|set\s+|\*\s*)?(?!(?:if|for|while|switch|catch|return|else|do|try|with|await|new|typeof|delete|throw|case)\b)[\w$]+\s*(?:<[^>]*>)?\s*\([^)]*\)\s*(?::\s*[^={;]+)?\s*\{\s*$`,
    // Java/C#/C/C++ style: `Type name(params) {` or a field `Type name = …;` after a modifier.
    String.raw`^(?:(?:public|private|protected|internal|static|final|abstract|virtual|override)\s+)+[\w$<>\[\],.? ]+\s+[\w$]+\s*[({=;]`,
    String.raw`^#\s*define\s`,
    // Object/assignment definitions: `name: function`, `name = (…) =>`, `exports.name =`.
    String.raw`^(?:module\.)?exports\.[\w$]+\s*=`,
    String.raw`^[\w$]+\s*[:=]\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)`,
  ].join('|'),
);

/** Only the start of a line decides its label, which also bounds the work on minified lines. */
const LABEL_PREFIX_CHARS = 300;

/** The label of a matched line (leading whitespace ignored). */
export function labelOf(line: string): Label {
  const text = line.trimStart().slice(0, LABEL_PREFIX_CHARS);
  if (IMPORT.test(text)) return 'import';
  if (DEF_LIKE.test(text)) return 'def-like';
  return 'match';
}

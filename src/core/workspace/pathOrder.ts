/**
 * Byte order of UTF-8 paths, which is code point order. JavaScript compares UTF-16 code units,
 * which agrees except between a surrogate (an astral character) and U+E000–U+FFFF, so the fast
 * comparison is kept and only that pair is corrected.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) return fixup(x) - fixup(y);
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Moves surrogates above U+E000–U+FFFF, where their code points are. */
function fixup(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  return unit + 0x2000;
}

/** True when plain `<` on these strings may disagree with byte order. */
export function needsByteCompare(keys: readonly string[]): boolean {
  return /[\ud800-\uffff]/.test(keys.join(''));
}

/**
 * Compares a listing entry's sort key — `name`, or `name/` for a directory — with a file name,
 * in byte order, without building the key (binary searches run on every walk).
 */
export function compareEntry(name: string, isDir: boolean, target: string): number {
  const n = Math.min(name.length, target.length);
  for (let i = 0; i < n; i++) {
    const x = name.charCodeAt(i);
    const y = target.charCodeAt(i);
    if (x !== y) return x >= 0xd800 && y >= 0xd800 ? fixup(x) - fixup(y) : x - y;
  }
  if (name.length > n) return 1;
  if (!isDir) return name.length === target.length ? 0 : -1;
  // `name/` against the target: the slash meets the target's next character, if any.
  return name.length === target.length ? 1 : 0x2f - target.charCodeAt(n);
}

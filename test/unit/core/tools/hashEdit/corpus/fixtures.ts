import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Rng } from './random';
import { LANGS, generateSource, type Lang } from './sources';

/**
 * The files attempts edit: generated sources of seven languages plus three of the project's own
 * files (read from `projectRoot` when the run starts), each in one of seven variants.
 */

export type Variant = 'plain' | 'crlf' | 'bom' | 'nofinal' | 'tabs' | 'longline' | 'unicode';
export const VARIANTS: readonly Variant[] = ['plain', 'crlf', 'bom', 'nofinal', 'tabs', 'longline', 'unicode'];

export interface Base {
  /** File name the attempt's copy gets (its extension picks the block mode). */
  name: string;
  lang: Lang;
  /** LF text with a final newline. */
  text: string;
  origin: string;
}

export interface Fixture extends Base {
  variant: Variant;
}

const EXT: Record<Lang, string> = { ts: 'ts', js: 'js', json: 'json', md: 'md', py: 'py', css: 'css', yaml: 'yaml' };
const BASENAME: Record<Lang, string> = { ts: 'store', js: 'routes', json: 'config', md: 'guide', py: 'repository', css: 'theme', yaml: 'ci' };
const PROJECT_FILES: readonly { rel: string; lang: Lang }[] = [
  { rel: 'src/core/tools/hashEdit/plan.ts', lang: 'ts' },
  { rel: 'package.json', lang: 'json' },
  { rel: 'README.md', lang: 'md' },
];
/** Files longer than this are read with an explicit range (a plain read shows 400 lines). */
export const PLAIN_READ_LINES = 400;

/** Generated bases per language, then the project files that exist under `projectRoot`. */
export function basePool(seed: number, projectRoot: string | undefined, perLang = 3): Base[] {
  const pool: Base[] = [];
  for (const lang of LANGS) {
    for (let i = 0; i < perLang; i++) {
      pool.push({ name: `${BASENAME[lang]}${i}.${EXT[lang]}`, lang, text: generateSource(lang, Rng.fork(seed, `source:${lang}:${i}`)), origin: 'generated' });
    }
  }
  for (const file of projectRoot === undefined ? [] : PROJECT_FILES) {
    let text: string;
    try {
      text = readFileSync(path.join(projectRoot ?? '.', file.rel), 'utf8').replace(/\r\n/g, '\n');
    } catch {
      continue;
    }
    pool.push({ name: path.basename(file.rel), lang: file.lang, text: text.endsWith('\n') ? text : text + '\n', origin: `repo:${file.rel}` });
  }
  return pool;
}

const UNICODE = ['café ☕', '日本語のテキスト', '🚀 launch 🎉', 'nai\u0308ve e\u0301te\u0301', 'Ω≈ç√∫', '한국어 문장', '👩‍💻 dev', 'Zoë Ð ß'];

/** Puts unicode into string literals (or, in Markdown, prose) on about every fifth line. */
function unicodeize(text: string, lang: Lang, rng: Rng): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.trim() === '' || !rng.chance(0.2)) return line;
      const sample = rng.pick(UNICODE);
      const quoted = /(["'])([^"'\\]*)\1/.exec(line);
      if (quoted) return line.slice(0, quoted.index + 1) + sample + ' ' + line.slice(quoted.index + 1);
      return lang === 'md' ? `${line} ${sample}` : line;
    })
    .join('\n');
}

/** Leading indentation units (the smallest indent in the file) become tabs. */
function tabify(text: string): string {
  const widths = text.split('\n').map((l) => /^ */.exec(l)?.[0].length ?? 0).filter((w) => w > 0);
  const unit = Math.min(...widths, 8);
  return text.replace(/^ +/gm, (lead) => '\t'.repeat(Math.floor(lead.length / unit)) + ' '.repeat(lead.length % unit));
}

/** One line of exactly 4,000 characters, shaped as the language would hold a long literal. */
function longLine(lang: Lang, rng: Rng): string {
  const wrap: Record<Lang, [string, string]> = {
    ts: ['const BLOB = "', '";'],
    js: ['const BLOB = "', '";'],
    json: ['  "blob": "', '",'],
    py: ['BLOB = "', '"'],
    css: ['/* ', ' */'],
    yaml: ['blob: "', '"'],
    md: ['', ''],
  };
  const [head, tail] = wrap[lang];
  const words = Array.from({ length: 420 }, () => rng.pick(['abcdefghi', '012345678', 'QWERTYUIO', 'zyxwvutsr'])).join(' ');
  return head + words.slice(0, 4000 - head.length - tail.length) + tail;
}

export function variantText(base: Base, variant: Variant, rng: Rng): string {
  const text = base.text;
  switch (variant) {
    case 'plain':
      return text;
    case 'crlf':
      return text.replace(/\n/g, '\r\n');
    case 'bom':
      return '\uFEFF' + text;
    case 'nofinal':
      return text.replace(/\n+$/, '');
    case 'tabs':
      return tabify(text);
    case 'longline': {
      const lines = text.split('\n');
      lines.splice(1, 0, longLine(base.lang, rng));
      return lines.join('\n');
    }
    case 'unicode':
      return unicodeize(text, base.lang, rng);
  }
}

/** YAML may not be indented with tabs; it gets the plain text instead. */
export function pickFixture(pool: readonly Base[], rng: Rng, langs?: readonly Lang[]): Fixture {
  const choices = langs ? pool.filter((b) => langs.includes(b.lang)) : pool;
  const base = rng.pick(choices);
  let variant = rng.pick(VARIANTS);
  if (variant === 'tabs' && base.lang === 'yaml') variant = 'plain';
  return { ...base, variant, text: variantText(base, variant, rng) };
}

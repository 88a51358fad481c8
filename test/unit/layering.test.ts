import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(abs)));
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(entry.name)) out.push(abs);
  }
  return out;
}

/** Module specifiers of static imports, re-exports, require() and dynamic import(). */
function specifiers(source: string): string[] {
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
  return [...source.matchAll(re)].map((m) => m[1] as string);
}

describe('layering', () => {
  it('src/core never imports vscode nor src/host (nor anything outside src/core)', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(path.join(ROOT, 'src', 'core'))) {
      for (const spec of specifiers(await fsp.readFile(file, 'utf8'))) {
        const escapes = spec.startsWith('.') && !path.resolve(path.dirname(file), spec).startsWith(path.join(ROOT, 'src', 'core'));
        if (spec === 'vscode' || spec.startsWith('vscode/') || escapes) offenders.push(`${path.relative(ROOT, file)} -> ${spec}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('the check itself sees every import form', () => {
    assert.deepEqual(specifiers(`import * as v from 'vscode';\nexport { x } from "../host/a";\nconst r = require('vscode');\nawait import('vscode');`), ['vscode', '../host/a', 'vscode', 'vscode']);
  });
});

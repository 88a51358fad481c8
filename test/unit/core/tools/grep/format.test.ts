import assert from 'node:assert/strict';
import { writePage, type PageRequest } from '../../../../../src/core/tools/grep/format';
import type { Label } from '../../../../../src/core/tools/grep/labels';
import type { FileHits } from '../../../../../src/core/tools/grep/protocol';
import { OutputBudget } from '../../../../../src/core/tools/read/budget';

/** A file's hits as a worker returns them, from its text: `hits` are 1-based line numbers. */
function hitsOf(index: number, text: string, hits: number[], context = 0, labels: Label[] = [], count = hits.length): FileHits {
  const lines = text.split('\n');
  const ctx = new Set<number>();
  for (const h of hits) for (let d = -context; d <= context; d++) if (d !== 0 && h + d >= 1 && h + d <= lines.length && !hits.includes(h + d)) ctx.add(h + d);
  const ctxLines = [...ctx].sort((a, b) => a - b);
  return {
    index, count, exact: true, defs: 0, imports: 0, prefixOnly: false,
    lines: hits, labels, texts: hits.map((h) => lines[h - 1]!),
    ctxLines, ctxTexts: ctxLines.map((l) => lines[l - 1]!), ctxMatch: ctxLines.map((l) => lines[l - 1]!.includes('hit')),
  };
}

const paths = ['src/a.ts', 'src/b.ts', 'src/c.ts'];

function page(over: Partial<PageRequest> & Pick<PageRequest, 'files'>, cap = 64 * 1024): { text: string; returned: number; cut: boolean; perFile: string[] } {
  const budget = new OutputBudget(cap);
  const p = writePage({ mode: 'raw', offset: 0, limit: 100, context: 0, pathOf: (i) => paths[i]!, budget, ...over });
  return { text: budget.text(), returned: p.returned, cut: p.outputCut, perFile: p.perFile };
}

const text10 = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');

describe('grep output', () => {
  it('raw: path:line:text rows', () => {
    const out = page({ files: [hitsOf(0, 'a hit\nb\nhit c', [1, 3]), hitsOf(1, 'hit', [1])] });
    assert.equal(out.text, 'src/a.ts:1:a hit\nsrc/a.ts:3:hit c\nsrc/b.ts:1:hit');
    assert.equal(out.returned, 3);
  });

  it('raw context: path-line-text rows once each, -- between groups that do not touch', () => {
    const f = hitsOf(0, text10, [3, 5, 10], 1);
    const out = page({ files: [f, hitsOf(1, text10, [2], 1)], context: 1 });
    assert.equal(
      out.text,
      [
        'src/a.ts-2-line 2', 'src/a.ts:3:line 3', 'src/a.ts-4-line 4', 'src/a.ts:5:line 5', 'src/a.ts-6-line 6',
        '--', 'src/a.ts-9-line 9', 'src/a.ts:10:line 10',
        '--', 'src/b.ts-1-line 1', 'src/b.ts:2:line 2', 'src/b.ts-3-line 3',
      ].join('\n'),
    );
  });

  it('a context line that matches too reads as a match, never as context', () => {
    const text = 'hit 1\nplain\nhit 3\nplain';
    const f = hitsOf(0, text, [1], 2);
    const out = page({ files: [f], context: 2 });
    assert.equal(out.text, 'src/a.ts:1:hit 1\nsrc/a.ts-2-plain\nsrc/a.ts:3:hit 3');
    assert.equal(out.returned, 1);
  });

  it('offset and limit count primary lines across files; context does not count', () => {
    const files = [hitsOf(0, text10, [1, 2, 3]), hitsOf(1, text10, [4, 5])];
    assert.equal(page({ files, offset: 2, limit: 2 }).text, 'src/a.ts:3:line 3\nsrc/b.ts:4:line 4');
    const withContext = page({ files: [hitsOf(0, text10, [1, 2, 3, 7], 1)], offset: 2, limit: 1, context: 1 });
    // Line 2 is a match outside the page: shown as a match row in the context of line 3.
    assert.equal(withContext.text, 'src/a.ts:2:line 2\nsrc/a.ts:3:line 3\nsrc/a.ts-4-line 4');
    assert.equal(withContext.returned, 1);
  });

  it('ranked: a ## header per file, labelled primary rows, a note for the lines not shown', () => {
    const a = hitsOf(0, 'export function run() {\n  x();\n  run();\n}', [1, 3], 1, ['def-like', 'match'], 7);
    const b = hitsOf(2, "import { run } from './a';", [1], 0, ['import']);
    const out = page({ mode: 'ranked', files: [a, b], context: 1 });
    assert.equal(
      out.text,
      [
        '## src/a.ts', '[def-like] 1:export function run() {', '2-  x();', '[match] 3:  run();', '4-}',
        '[5 more matching lines in this file not shown; grep it alone with mode "raw" to see them]',
        '', '## src/c.ts', "[import] 1:import { run } from './a';",
      ].join('\n'),
    );
    assert.deepEqual(out.perFile, ['src/a.ts: 2 of 7 shown']);
  });

  it('ranked paging repeats the header of a file split across pages, and separates far rows with --', () => {
    const a = hitsOf(0, text10, [1, 2, 9], 0, ['match', 'match', 'match']);
    assert.equal(page({ mode: 'ranked', files: [a], offset: 1 }).text, '## src/a.ts\n[match] 2:line 2\n[match] 9:line 9');
    const withContext = page({ mode: 'ranked', files: [hitsOf(0, text10, [2, 9], 1, ['match', 'match'])], context: 1 });
    assert.equal(withContext.text, '## src/a.ts\n1-line 1\n[match] 2:line 2\n3-line 3\n--\n8-line 8\n[match] 9:line 9\n10-line 10');
  });

  it('the 64 KiB cap takes whole records only: a primary line never loses its context', () => {
    const long = (i: number): string => `${i} ${'x'.repeat(400)}`;
    const text = Array.from({ length: 2000 }, (_, i) => long(i + 1)).join('\n');
    const hits = Array.from({ length: 400 }, (_, i) => 5 * i + 3);
    for (const mode of ['raw', 'ranked'] as const) {
      const labels: Label[] = mode === 'ranked' ? hits.map(() => 'match') : [];
      const out = page({ mode, files: [hitsOf(0, text, hits, 1, labels)], context: 1, limit: 1000 });
      assert.equal(out.cut, true);
      assert.ok(Buffer.byteLength(out.text) <= 64 * 1024 - 512);
      const rows = out.text.split('\n').filter((r) => r !== '--' && !r.startsWith('##'));
      // Every record is context, primary, context: three rows per primary line.
      assert.equal(rows.length, out.returned * 3);
      assert.ok(out.returned > 40 && out.returned < 60, `${out.returned} records`);
    }
  });
});

import assert from 'node:assert/strict';
import type { OutlineSymbol } from '../../../../../src/core/tools/astGrep/outline/types';
import type { RankedFile, RankedSymbol } from '../../../../../src/core/tools/repoMap/rank';
import { estimateTokens, renderMap } from '../../../../../src/core/tools/repoMap/render';
import { symbol } from './symbols';

function ranked(sym: OutlineSymbol, score: number, memberScores: number[] = []): RankedSymbol {
  return { symbol: sym, score, referencedBy: 0, members: sym.members.map((m, i) => ({ symbol: m, score: memberScores[i] ?? 0 })) };
}

function file(display: string, symbols: RankedSymbol[]): RankedFile {
  const sorted = [...symbols].sort((a, b) => b.score - a.score);
  return { index: 0, display, score: sorted[0]?.score ?? 0, rank: 1, recent: false, queryMatch: false, symbols: sorted };
}

/** `files` files of `perFile` functions with long signatures, scores falling in file order. */
function manyFiles(files: number, perFile: number): RankedFile[] {
  return Array.from({ length: files }, (_, f) =>
    file(`src/module${f}/file${f}.ts`, Array.from({ length: perFile }, (_, s) => ranked(symbol(`function${f}_${s}`, s * 10 + 1, { signature: `export function function${f}_${s}(argument: string, options: Options = {}): Promise<Result>` }), 1000 - f * perFile - s))),
  );
}

describe('repo_map rendering', () => {
  it('shows files in rank order, symbols in line order with members indented under their parent', () => {
    const server = symbol('Server', 3, { type: 'class', signature: 'export class Server', members: [symbol('listen', 4, { signature: 'listen(port: number): void' }), symbol('close', 8, { signature: 'close(): void' })] });
    const map = renderMap([
      file('src/server.ts', [ranked(symbol('helper', 20), 5), ranked(server, 9, [3, 2])]),
      file('src/main.ts', [ranked(symbol('main', 1, { signature: 'function main()' }), 4)]),
    ], 1024, ['[skipped 1 files: 1 vendored]']);
    assert.equal(map.text, [
      'repo map: 2 of 2 files, 5 of 5 symbols, ranked by cross-file references (approximate); tokens ~ ceil(UTF-8 bytes / 4)',
      'src/server.ts:',
      '  3: export class Server',
      '    4: listen(port: number): void',
      '    8: close(): void',
      '  20: function helper()',
      'src/main.ts:',
      '  1: function main()',
      '[skipped 1 files: 1 vendored]',
    ].join('\n'));
    assert.equal(map.truncated, false);
    assert.equal(map.tokens, estimateTokens(map.text));
  });

  it('estimates tokens as ceil(UTF-8 bytes / 4)', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('é'), 1);
    assert.equal(estimateTokens('ééé'), 2);
  });

  for (const maxTokens of [512, 700, 1024, 4096, 20_000]) {
    it(`never exceeds a budget of ${maxTokens} tokens, and says it cut`, () => {
      const map = renderMap(manyFiles(200, 20), maxTokens, ['[partial: the 30 s deadline passed; later files are missing or ranked without their references]']);
      assert.ok(estimateTokens(map.text) <= maxTokens, `${estimateTokens(map.text)} > ${maxTokens}`);
      assert.ok(estimateTokens(map.text) > maxTokens - 60, 'the budget is used, not wasted');
      assert.equal(map.truncated, true);
      assert.match(map.text, new RegExp(`\\[cut at the ${maxTokens}-token budget: \\d+ more files and \\d+ more symbols not shown; raise maxTokens`));
      assert.match(map.text, /\[partial: /);
      assert.match(map.text.split('\n')[1] ?? '', /^src\/module0\/file0\.ts:$/);
      assert.match(map.text, /^ {2}1: export function function0_0\(/m);
    });
  }

  it('shows exactly the best-scored symbols, across files, and stops at the first that does not fit', () => {
    // Scores interleave the files: file f's symbol s scores 100 - (s * 3 + f).
    const files = [0, 1, 2].map((f) => file(`f${f}.ts`, Array.from({ length: 30 }, (_, s) => ranked(symbol(`sym_${f}_${s}`, s + 1, { signature: `function sym_${f}_${s}(${'p'.repeat(s % 2 === 0 ? 10 : 120)})` }), 100 - (s * 3 + f)))));
    const map = renderMap(files, 512, []);
    const shown = [...map.text.matchAll(/sym_(\d)_(\d+)\(/g)].map((m) => Number(m[2]) * 3 + Number(m[1])).sort((a, b) => a - b);
    assert.ok(shown.length > 3 && shown.length < 90);
    assert.deepEqual(shown, shown.map((_, i) => i), 'a prefix of the score order, nothing skipped');
    assert.equal(map.symbolsShown, shown.length);
    assert.equal(map.filesShown, 3);
  });

  it('clips long signatures to 160 characters with an ellipsis', () => {
    const map = renderMap([file('a.ts', [ranked(symbol('long', 1, { signature: `function long(${'a: string, '.repeat(40)})` }), 1)])], 512, []);
    const row = map.text.split('\n')[2] ?? '';
    assert.equal(row.length, '  1: '.length + 160);
    assert.ok(row.endsWith('…'));
  });

  it('drops the notes rather than pass the budget when they alone would not fit', () => {
    const map = renderMap(manyFiles(3, 3), 512, ['[' + 'n'.repeat(3000) + ']']);
    assert.ok(estimateTokens(map.text) <= 512);
    assert.doesNotMatch(map.text, /nnnn/);
  });

  it('renders an empty map as the header alone', () => {
    const map = renderMap([], 512, ['[no Rust, Python, TypeScript, TSX or Go files to map here; give another path]']);
    assert.equal(map.text, 'repo map: 0 of 0 files, 0 of 0 symbols, ranked by cross-file references (approximate); tokens ~ ceil(UTF-8 bytes / 4)\n[no Rust, Python, TypeScript, TSX or Go files to map here; give another path]');
    assert.equal(map.truncated, false);
  });
});

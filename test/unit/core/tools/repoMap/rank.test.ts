import assert from 'node:assert/strict';
import type { LanguageId } from '../../../../../src/core/tools/astGrep/languages';
import type { OutlineSymbol } from '../../../../../src/core/tools/astGrep/outline/types';
import { nameWeight, pageRank, rankFiles, recentFiles } from '../../../../../src/core/tools/repoMap/rank';
import { countReferences, definersOf } from '../../../../../src/core/tools/repoMap/references';
import { symbol } from './symbols';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 0, 31);

interface File {
  display: string;
  language: LanguageId;
  text: string;
  mtimeMs: number;
  symbols: OutlineSymbol[];
}

const ts = (display: string, text: string, symbols: OutlineSymbol[] = [], mtimeMs = NOW - 30 * DAY): File => ({ display, language: 'typescript', text, mtimeMs, symbols });

function rank(files: File[], terms: string[] = []) {
  const refs = countReferences(files, definersOf(files), 1_000_000, () => true);
  return rankFiles(files, refs, terms, NOW);
}

describe('repo_map ranking', () => {
  it('PageRank gives the most linked-to file the highest rank, with mean 1', () => {
    const out = [new Map([[2, 1]]), new Map([[2, 1]]), new Map<number, number>(), new Map([[0, 1]])];
    const ranks = pageRank(out, [1, 1, 1, 1]);
    assert.equal(ranks.indexOf(Math.max(...ranks)), 2);
    assert.ok(Math.abs(ranks.reduce((a, b) => a + b, 0) - 4) < 1e-9);
  });

  it('teleports towards files with a larger personal weight', () => {
    const empty = [new Map<number, number>(), new Map<number, number>()];
    const [a, b] = pageRank(empty, [1, 3]);
    assert.ok((b as number) > (a as number));
  });

  it('weighs compound names fully, one-word types by length, plain lowercase words least', () => {
    assert.equal(nameWeight('loadConfig'), 1);
    assert.equal(nameWeight('load_cfg'), 1);
    assert.equal(nameWeight('Checkpoint'), 1);
    assert.equal(nameWeight('Point'), 0.5);
    assert.equal(nameWeight('COMMA'), 0.5);
    assert.equal(nameWeight('generator'), 0.25);
    assert.equal(nameWeight('text'), 0.1);
  });

  it('ranks a definition named by many other files first', () => {
    const ranked = rank([
      ts('src/alpha.ts', 'export function aloneFunction() {}', [symbol('aloneFunction', 1)]),
      ts('src/config.ts', '', [symbol('unusedThing', 1), symbol('loadConfig', 5)]),
      ts('src/one.ts', 'loadConfig()', [symbol('oneThing', 1)]),
      ts('src/two.ts', 'loadConfig() loadConfig()', [symbol('twoThing', 1)]),
      ts('src/three.ts', 'loadConfig() oneThing()', [symbol('threeThing', 1)]),
    ]);
    assert.equal(ranked[0]?.display, 'src/config.ts');
    assert.equal(ranked[0]?.symbols[0]?.symbol.name, 'loadConfig');
    assert.equal(ranked[0]?.symbols[0]?.referencedBy, 3);
    assert.equal(ranked[1]?.display, 'src/one.ts');
  });

  it('boosts files and symbols matching the query over better-referenced ones', () => {
    const files = [
      ts('src/config.ts', '', [symbol('loadConfig', 1)]),
      ts('src/one.ts', 'loadConfig()', []),
      ts('src/two.ts', 'loadConfig()', []),
      ts('src/widgets.ts', '', [symbol('renderPanel', 1), symbol('drawWidget', 9)]),
    ];
    assert.equal(rank(files)[0]?.display, 'src/config.ts');
    const byQuery = rank(files, ['widget']);
    assert.equal(byQuery[0]?.display, 'src/widgets.ts');
    assert.equal(byQuery[0]?.symbols[0]?.symbol.name, 'drawWidget');
    assert.equal(byQuery[0]?.queryMatch, true);
  });

  it('boosts recently touched files, but not a checkout where all files share one time', () => {
    const old = NOW - 30 * DAY;
    const files = [ts('a.ts', '', [symbol('alphaThing', 1)], old), ts('b.ts', '', [symbol('betaThing', 1)], old), ts('c.ts', '', [symbol('gammaThing', 1)], old)];
    assert.deepEqual(rank(files).map((f) => f.display), ['a.ts', 'b.ts', 'c.ts']);
    (files[2] as File).mtimeMs = NOW - DAY;
    const ranked = rank(files);
    assert.deepEqual(ranked.map((f) => f.display), ['c.ts', 'a.ts', 'b.ts']);
    assert.equal(ranked[0]?.recent, true);
    assert.deepEqual([...recentFiles([{ mtimeMs: NOW }, { mtimeMs: NOW }, { mtimeMs: NOW }], NOW)], []);
    assert.deepEqual([...recentFiles([{ mtimeMs: NOW - 8 * DAY }, { mtimeMs: NOW - 9 * DAY }, { mtimeMs: NOW - 10 * DAY }], NOW)], [], 'older than 7 days');
  });

  it('keeps at most 16 recent files, the newest', () => {
    const files = Array.from({ length: 40 }, (_, i) => ({ mtimeMs: NOW - i * 60_000 }));
    const recent = recentFiles(files, NOW);
    assert.equal(recent.size, 16);
    assert.ok(recent.has(0) && recent.has(15) && !recent.has(16));
  });

  it('ranks exported symbols over unexported ones of the same file, and leaves imports out', () => {
    const [file] = rank([ts('a.ts', '', [symbol('react', 1, { imported: true, type: 'import' }), symbol('innerWork', 2, { exported: false }), symbol('outerWork', 3)])]);
    assert.deepEqual(file?.symbols.map((s) => s.symbol.name), ['outerWork', 'innerWork']);
  });

  it('scores members and lifts a parent by its best-referenced member', () => {
    const [server] = rank([
      ts('server.ts', '', [symbol('Server', 1, { type: 'class', members: [symbol('handleRequest', 2, { type: 'method' }), symbol('close', 3, { type: 'method' })] }), symbol('otherThing', 9)]),
      ts('a.ts', 'handleRequest()', []),
      ts('b.ts', 'handleRequest()', []),
    ]);
    assert.equal(server?.symbols[0]?.symbol.name, 'Server');
    assert.equal(server?.symbols[0]?.referencedBy, 1);
    assert.deepEqual(server?.symbols[0]?.members.map((m) => m.symbol.name), ['handleRequest', 'close']);
  });
});

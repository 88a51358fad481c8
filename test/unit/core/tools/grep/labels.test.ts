import assert from 'node:assert/strict';
import { pickRanked, rankCompare } from '../../../../../src/core/tools/grep/batch';
import { labelOf, type Label } from '../../../../../src/core/tools/grep/labels';
import type { FileHits } from '../../../../../src/core/tools/grep/protocol';

describe('grep labels and ranking', () => {
  const cases: [string, Label][] = [
    ['export function run(options: Options): void {', 'def-like'],
    ['  async function* items() {', 'def-like'],
    ['export default class Runner extends Base {', 'def-like'],
    ['interface RunOptions {', 'def-like'],
    ['export type Mode = "raw" | "ranked";', 'def-like'],
    ['const MAX = 10;', 'def-like'],
    ['pub(crate) async fn run(&self) -> Result<()> {', 'def-like'],
    ['impl Runner for Worker {', 'def-like'],
    ['struct Config {', 'def-like'],
    ['def run(self):', 'def-like'],
    ['func (r *Runner) Run() error {', 'def-like'],
    ['  private static run(x: number): void {', 'def-like'],
    ['  run(): void {', 'def-like'],
    ['public static void main(String[] args) {', 'def-like'],
    ['#define RUN 1', 'def-like'],
    ['run = (x) => x + 1', 'def-like'],
    ["import { run } from './run';", 'import'],
    ['from os import path', 'import'],
    ['use std::io::Read;', 'import'],
    ['#include <stdio.h>', 'import'],
    ["const fs = require('node:fs');", 'import'],
    ["export { run } from './run';", 'import'],
    ['  run();', 'match'],
    ['  if (run(x)) {', 'match'],
    ['  return run(x);', 'match'],
    ['// run the thing', 'match'],
  ];
  for (const [line, label] of cases) {
    it(`${JSON.stringify(line)} is [${label}]`, () => assert.equal(labelOf(line), label));
  }

  it('labels a huge minified line quickly', () => {
    const started = Date.now();
    labelOf(`${'a = b + c; '.repeat(100_000)}`);
    labelOf(`public ${'x '.repeat(100_000)}`);
    assert.ok(Date.now() - started < 500);
  });

  it('shows def-like lines first, then matches, then imports, in line order', () => {
    const labels: Label[] = ['import', 'match', 'def-like', 'match', 'match', 'def-like', 'match', 'match'];
    assert.deepEqual(pickRanked(labels, 5), [1, 2, 3, 4, 5]);
    assert.deepEqual(pickRanked(['import', 'import', 'match'], 2), [0, 2]);
  });

  it('ranks files by def-like hits, then non-import hits, then hits, then path order', () => {
    const f = (index: number, count: number, defs: number, imports: number): FileHits => ({ index, count, defs, imports, exact: true, prefixOnly: false, lines: [], labels: [], texts: [], ctxLines: [], ctxTexts: [], ctxMatch: [] });
    const files = [f(0, 9, 0, 0), f(1, 1, 1, 0), f(2, 5, 0, 4), f(3, 2, 0, 0), f(4, 9, 0, 0), f(5, 3, 2, 0)];
    assert.deepEqual(files.sort(rankCompare).map((x) => x.index), [5, 1, 0, 4, 3, 2]);
  });
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { alignLines, composeMaps, identityMap } from '../../../../../src/core/tools/hashEdit/lineMap';
import { outsideChange } from './outsideChange';

const mapOf = (before: string[], after: string[]): number[] => [...alignLines(before, after).map].slice(1);

describe('hash_edit line map', () => {
  it('maps an unchanged file onto itself', () => {
    assert.deepEqual(mapOf(['a', '', '}', ''], ['a', '', '}', '']), [1, 2, 3, 4]);
  });

  it('follows lines past an insertion above them, even onto blank lines that repeat', () => {
    // The repro: two lines prepended; old line 4 (blank) must be new line 6, not 4.
    assert.deepEqual(mapOf(['one', '', 'two', '', 'three'], ['x', 'y', 'one', '', 'two', '', 'three']), [3, 4, 5, 6, 7]);
  });

  it('leaves a repeated line unmapped when an identical line was added beside it', () => {
    const alignment = alignLines(['a', '', 'b'], ['a', '', '', 'b']);
    assert.equal(alignment.map[2], 0);
    assert.equal(alignment.why(2), 'ambiguous');
    assert.equal(alignment.map[1], 1);
    assert.equal(alignment.map[3], 4);
  });

  it('says a changed line is changed', () => {
    const alignment = alignLines(['a', 'b', 'c'], ['a', 'B', 'c']);
    assert.deepEqual([...alignment.map].slice(1), [1, 0, 3]);
    assert.equal(alignment.why(2), 'changed');
  });

  it('aligns around a block that moved past unique lines', () => {
    const before = ['import a;', 'fn one() {', '}', 'fn two() {', '}', 'end'];
    const after = ['import a;', 'fn two() {', '}', 'fn one() {', '}', 'end'];
    const map = mapOf(before, after);
    assert.equal(map[0], 1);
    assert.equal(map[5], 6);
    // Whatever it keeps of the two functions, a kept line maps onto the same text.
    map.forEach((at, k) => assert.ok(at === 0 || after[at - 1] === before[k]));
  });

  it('composes maps and keeps unmapped lines unmapped', () => {
    const first = Int32Array.from([0, 2, 0, 3]);
    const second = Int32Array.from([0, 1, 5, 0]);
    assert.deepEqual([...composeMaps(first, second)], [0, 5, 0, 0]);
    assert.deepEqual([...composeMaps(identityMap(3), first)], [...first]);
  });

  it('never maps a line anywhere but where it really went (random changes among repeated lines), and maps most of them', () => {
    let surviving = 0;
    let mapped = 0;
    fc.assert(
      fc.property(outsideChange, ({ before, after, truth }) => {
        const { map } = alignLines(before, after);
        for (let k = 1; k <= before.length; k++) {
          const at = map[k] ?? 0;
          if (truth[k - 1]) surviving++;
          if (at) mapped++;
          if (at) assert.equal(at, truth[k - 1], `old line ${k} (${JSON.stringify(before[k - 1])}) mapped to ${at}, really at ${truth[k - 1]}\n${JSON.stringify({ before, after })}`);
        }
      }),
      { numRuns: 3000 },
    );
    assert.ok(mapped / surviving > 0.85, `only ${mapped} of ${surviving} surviving lines mapped`);
  });

  it('maps every line of a file whose lines are all distinct when only insertions happened', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 5 }), (values, spots) => {
        const before = values.map((v) => `line ${v}`);
        const after = [...before];
        spots.forEach((spot, i) => after.splice(spot % (after.length + 1), 0, `inserted ${i}`));
        const map = mapOf(before, after);
        map.forEach((at, k) => assert.equal(after[at - 1], before[k]));
      }),
    );
  });
});

import assert from 'node:assert/strict';
import { ToolError } from '../../../../../src/core/tools/errors';
import { parseInput, type LineOp } from '../../../../../src/core/tools/hashEdit/parser';
import { planEdits, type PlanContext } from '../../../../../src/core/tools/hashEdit/plan';

const CTX: PlanContext = { path: 'f.ts', block: { mode: 'bracket', rustChars: false } };
const LINES = ['a', 'b', 'c', 'd', 'e', 'f() {', '  g', '}', 'h', 'i'];

function ops(body: string): LineOp[] {
  return (parseInput(`[f.ts#AA]\n${body}`)[0]?.ops ?? []) as LineOp[];
}

function plan(body: string, lines: readonly string[] = LINES): { from: number; to: number; anchored: unknown; keep: number | null }[] {
  return planEdits(ops(body), lines, CTX).map((e) => ({ from: e.from, to: e.to, anchored: e.anchored, keep: e.keep }));
}

function planError(body: string, lines: readonly string[] = LINES): string {
  try {
    planEdits(ops(body), lines, CTX);
  } catch (err) {
    assert.ok(err instanceof ToolError);
    return err.message;
  }
  assert.fail('expected a planning error');
}

describe('hash_edit plan', () => {
  it('maps each op to a replaced range or an insert gap with its anchored lines', () => {
    assert.deepEqual(plan('SWAP 2.=3:\n+x'), [{ from: 1, to: 3, anchored: { start: 2, end: 3 }, keep: null }]);
    assert.deepEqual(plan('DEL 4'), [{ from: 3, to: 4, anchored: { start: 4, end: 4 }, keep: null }]);
    assert.deepEqual(plan('INS.PRE 2:\n+x'), [{ from: 1, to: 1, anchored: { start: 2, end: 2 }, keep: 2 }]);
    assert.deepEqual(plan('INS.POST 2:\n+x'), [{ from: 2, to: 2, anchored: { start: 2, end: 2 }, keep: 2 }]);
    assert.deepEqual(plan('INS.HEAD:\n+x'), [{ from: 0, to: 0, anchored: null, keep: null }]);
    assert.deepEqual(plan('INS.TAIL:\n+x'), [{ from: 10, to: 10, anchored: null, keep: null }]);
    assert.deepEqual(plan('SWAP.BLK 6:\n+x'), [{ from: 5, to: 8, anchored: { start: 6, end: 8 }, keep: null }]);
    assert.deepEqual(plan('DEL.BLK 6'), [{ from: 5, to: 8, anchored: { start: 6, end: 8 }, keep: null }]);
    assert.deepEqual(plan('INS.BLK.POST 6:\n+x'), [{ from: 8, to: 8, anchored: { start: 6, end: 8 }, keep: 8 }]);
  });

  it('returns edits in apply order: by position, an insert before a replacement at the same place', () => {
    const edits = plan('DEL 5\nINS.POST 4:\n+x\nINS.HEAD:\n+y\nSWAP 1:\n+z');
    assert.deepEqual(edits.map((e) => [e.from, e.to]), [[0, 0], [0, 1], [4, 4], [4, 5]]);
  });

  it('refuses lines past the end, naming the line count', () => {
    assert.match(planError('SWAP 9.=11:\n+x'), /\[f\.ts\] input line 2 \(SWAP 9\.=11\): line 11 is past the end of the file, which has 10 lines/);
    assert.match(planError('INS.POST 1:\n+x', []), /which has 0 lines/);
  });

  it('refuses block ops on lines that do not start a block', () => {
    assert.match(planError('DEL.BLK 1'), /input line 2 \(DEL\.BLK 1\): line 1 does not start a block; use SWAP\/DEL with an explicit range/);
  });

  it('refuses overlapping ranges, also a block overlapping a range', () => {
    assert.match(planError('SWAP 2.=4:\n+x\nDEL 4.=5'), /SWAP 2\.=4 \(input line 2, changes lines 2-4\) and DEL 4\.=5 \(input line 4, changes lines 4-5\) overlap/);
    assert.match(planError('DEL 1.=9\nDEL 3'), /overlap/);
    assert.match(planError('DEL.BLK 6\nSWAP 7:\n+x'), /overlap/);
  });

  it('allows adjacent ranges', () => {
    assert.equal(plan('DEL 2.=3\nSWAP 4:\n+x\nDEL 1').length, 3);
  });

  it('refuses two inserts at one position: same anchor, POST N with PRE N+1, HEAD with PRE 1, TAIL with POST last', () => {
    assert.match(planError('INS.POST 3:\n+x\nINS.POST 3:\n+y'), /both insert at the same position/);
    assert.match(planError('INS.POST 3:\n+x\nINS.PRE 4:\n+y'), /both insert at the same position/);
    assert.match(planError('INS.HEAD:\n+x\nINS.PRE 1:\n+y'), /both insert at the same position/);
    assert.match(planError('INS.TAIL:\n+x\nINS.POST 10:\n+y'), /both insert at the same position/);
    assert.match(planError('INS.BLK.POST 6:\n+x\nINS.PRE 9:\n+y'), /both insert at the same position/);
    assert.match(planError('INS.HEAD:\n+x\nINS.TAIL:\n+y', []), /both insert at the same position/);
  });

  it('allows INS.PRE N and INS.POST N (different positions)', () => {
    assert.equal(plan('INS.PRE 3:\n+x\nINS.POST 3:\n+y').length, 2);
  });

  it("refuses an insert whose anchor line another op replaces, but not one beside a range", () => {
    assert.match(planError('DEL 3.=5\nINS.POST 4:\n+x'), /anchored to line 4, which the other op replaces/);
    assert.match(planError('SWAP 3:\n+y\nINS.PRE 3:\n+x'), /anchored to line 3/);
    assert.match(planError('DEL 3\nINS.POST 3:\n+x'), /anchored to line 3/);
    assert.equal(plan('DEL 3\nINS.PRE 4:\n+x\nINS.POST 2:\n+y').length, 3);
  });
});

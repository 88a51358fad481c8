import fc from 'fast-check';

/**
 * A random outside change with its truth: which current line each old line became (0 = removed or
 * changed). Inserted lines are fresh text or copies of lines already there (blank lines, `}`); cases
 * where a written line repeats the text of a removed one are dropped: a removal plus an identical
 * insertion elsewhere is a move, which no diff can tell from the other lines moving.
 */
export interface OutsideChange {
  before: string[];
  after: string[];
  truth: number[];
}

const repeated = fc.constantFrom('', '}', '});', 'end', '  x();', 'a', 'b');

export const outsideChange = fc
  .record({
    before: fc.array(fc.oneof(repeated, fc.string({ unit: fc.constantFrom('p', 'q', 'r', 's'), minLength: 1, maxLength: 4 })), { minLength: 1, maxLength: 30 }),
    steps: fc.array(fc.record({ at: fc.nat(), kind: fc.integer({ min: 0, max: 2 }), count: fc.integer({ min: 1, max: 3 }), pick: fc.nat() }), { maxLength: 4 }),
  })
  .map(({ before, steps }): OutsideChange => {
    // Each current line remembers which old line it is (0 for a line written by the change).
    let lines = before.map((text, i) => ({ text, old: i + 1 }));
    let fresh = 0;
    for (const step of steps) {
      const at = step.at % (lines.length + 1);
      if (step.kind === 0 || lines.length === 0) {
        const inserted = Array.from({ length: step.count }, (_, k) => {
          const copy = lines[(step.pick + k) % Math.max(1, lines.length)];
          return { text: step.pick % 2 === 0 && copy ? copy.text : `new ${++fresh}`, old: 0 };
        });
        lines = [...lines.slice(0, at), ...inserted, ...lines.slice(at)];
      } else if (step.kind === 1) {
        lines = [...lines.slice(0, at), ...lines.slice(at + step.count)];
      } else {
        lines = lines.map((line, i) => (i === at ? { text: `changed ${++fresh}`, old: 0 } : line));
      }
    }
    const truth = before.map(() => 0);
    lines.forEach((line, i) => {
      if (line.old) truth[line.old - 1] = i + 1;
    });
    return { before, after: lines.map((line) => line.text), truth };
  })
  // No written line may repeat the text of a removed one (that would be a move).
  .filter(({ before, after, truth }) => after.every((text, i) => truth.includes(i + 1) || !before.some((old, k) => old === text && truth[k] === 0)));


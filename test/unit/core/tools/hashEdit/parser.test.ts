import assert from 'node:assert/strict';
import { ToolError } from '../../../../../src/core/tools/errors';
import { MAX_OPS, MAX_SECTIONS, opLabel, parseInput } from '../../../../../src/core/tools/hashEdit/parser';

function parseError(input: string): ToolError {
  try {
    parseInput(input);
  } catch (err) {
    assert.ok(err instanceof ToolError, `expected ToolError, got ${String(err)}`);
    assert.equal(err.code, 'invalid_input');
    return err;
  }
  assert.fail('expected a parse error');
}

describe('hash_edit parser', () => {
  it('parses every op with its arguments and input line', () => {
    const [section, ...rest] = parseInput(
      ['[src/a.ts#abc123]', 'SWAP 3.=5:', '+x', 'SWAP 7:', '+y', 'DEL 9.=10', 'DEL 12', 'INS.PRE 14:', '+p', 'INS.POST 15:', '+q', 'INS.HEAD:', '+h', 'INS.TAIL:', '+t', 'SWAP.BLK 20:', '+s', 'DEL.BLK 30', 'INS.BLK.POST 40:', '+b'].join('\n'),
    );
    assert.equal(rest.length, 0);
    assert.ok(section);
    assert.equal(section.path, 'src/a.ts');
    assert.equal(section.tag, 'ABC123');
    assert.deepEqual(section.ops, [
      { kind: 'SWAP', start: 3, end: 5, body: ['x'], inputLine: 2 },
      { kind: 'SWAP', start: 7, end: 7, body: ['y'], inputLine: 4 },
      { kind: 'DEL', start: 9, end: 10, inputLine: 6 },
      { kind: 'DEL', start: 12, end: 12, inputLine: 7 },
      { kind: 'INS.PRE', line: 14, body: ['p'], inputLine: 8 },
      { kind: 'INS.POST', line: 15, body: ['q'], inputLine: 10 },
      { kind: 'INS.HEAD', body: ['h'], inputLine: 12 },
      { kind: 'INS.TAIL', body: ['t'], inputLine: 14 },
      { kind: 'SWAP.BLK', line: 20, body: ['s'], inputLine: 16 },
      { kind: 'DEL.BLK', line: 30, inputLine: 18 },
      { kind: 'INS.BLK.POST', line: 40, body: ['b'], inputLine: 19 },
    ]);
  });

  it('parses MV and REM as whole-file ops', () => {
    const sections = parseInput('[a.txt#AA]\nMV dir/b.txt\n[c.txt#BB]\nREM');
    assert.deepEqual(sections.map((s) => s.ops), [[{ kind: 'MV', dest: 'dir/b.txt', inputLine: 2 }], [{ kind: 'REM', inputLine: 4 }]]);
  });

  it('decodes body escapes: ++x, +- item, bare +, and keeps whitespace', () => {
    const [section] = parseInput('[a#AA]\nSWAP 1:\n++x\n+- item\n+\n+    indented  \n');
    assert.deepEqual(section?.ops[0], { kind: 'SWAP', start: 1, end: 1, body: ['+x', '- item', '', '    indented  '], inputLine: 2 });
  });

  it('accepts CRLF input, spaces around .=, blank lines between ops, and # in paths', () => {
    const [section] = parseInput('[dir/a#b.md#FF]\r\n\r\nSWAP 2 .= 4:\r\n+x\r\n\r\nDEL 6\r\n');
    assert.equal(section?.path, 'dir/a#b.md');
    assert.deepEqual(section?.ops, [
      { kind: 'SWAP', start: 2, end: 4, body: ['x'], inputLine: 3 },
      { kind: 'DEL', start: 6, end: 6, inputLine: 6 },
    ]);
  });

  it('parses several sections in order', () => {
    const sections = parseInput('[a#1]\nDEL 1\n[b#2]\nINS.TAIL:\n+z');
    assert.deepEqual(sections.map((s) => [s.path, s.tag, s.inputLine]), [['a', '1', 1], ['b', '2', 3]]);
  });

  it('rejects a row that is neither +TEXT, op nor header, naming its input line', () => {
    const err = parseError('[a#AA]\nSWAP 1:\n+x\nnew text');
    assert.match(err.message, /\[a\] input line 4: "new text" is not an op/);
    assert.match(err.message, /prefix it with '\+'/);
  });

  it('rejects ops before any header', () => {
    assert.match(parseError('SWAP 1:\n+x').message, /input line 1: expected a \[PATH#TAG\] header/);
  });

  it('rejects an empty input and a header without ops', () => {
    assert.match(parseError('\n\n').message, /no \[PATH#TAG\] section/);
    assert.match(parseError('[a#AA]\n[b#BB]\nDEL 1').message, /input line 1: section \[a#AA\] has no ops/);
  });

  it('rejects malformed headers and tags', () => {
    assert.match(parseError('[a.ts]\nDEL 1').message, /malformed header/);
    assert.match(parseError('[a.ts#XYZ]\nDEL 1').message, /not a hex tag/);
    assert.match(parseError('[#AB]\nDEL 1').message, /empty path/);
  });

  it('rejects a body op without body rows; an empty SWAP points to DEL', () => {
    assert.match(parseError('[a#AA]\nSWAP 1:\nDEL 2').message, /input line 2: SWAP has no \+TEXT body rows; to remove lines use DEL/);
    assert.match(parseError('[a#AA]\nSWAP.BLK 1:').message, /use DEL\.BLK/);
    assert.match(parseError('[a#AA]\nINS.TAIL:\n').message, /INS\.TAIL has no \+TEXT body rows/);
  });

  it("names the rows under a body op that lack their '+'", () => {
    assert.match(parseError('[a#AA]\nSWAP 1:\nfirst\n  second\nDEL 4').message, /input line 2: SWAP has no \+TEXT body rows: input lines 3-4 below it do not start with '\+'\. Write each new line as \+TEXT/);
    assert.match(parseError('[a#AA]\nINS.POST 1:\nonly').message, /input line 3 below it does not start with '\+'/);
  });

  it('ends a body at a blank line, so a later +row is an error', () => {
    assert.match(parseError('[a#AA]\nSWAP 1:\n+x\n\n+y').message, /input line 5: a \+TEXT row must directly follow/);
  });

  it('rejects +rows under ops that take no body', () => {
    assert.match(parseError('[a#AA]\nDEL 1\n+x').message, /input line 3: a \+TEXT row/);
  });

  it('checks the colon: body ops need it, others must not have it', () => {
    assert.match(parseError('[a#AA]\nSWAP 1\n+x').message, /SWAP takes a body: end the op line with ':'/);
    assert.match(parseError('[a#AA]\nDEL 1:').message, /DEL takes no body; remove the ':'/);
    assert.match(parseError('[a#AA]\nINS.HEAD 3:\n+x').message, /INS\.HEAD takes no line number/);
    assert.match(parseError('[a#AA]\nINS.POST:\n+x').message, /INS\.POST needs a line number/);
  });

  it('rejects bad ranges and line numbers with a hint', () => {
    assert.match(parseError('[a#AA]\nSWAP 3-5:\n+x').message, /write a range as A\.=B/);
    assert.match(parseError('[a#AA]\nDEL 0').message, /"0" is not a line number/);
    assert.match(parseError('[a#AA]\nDEL 5.=3').message, /ends before it starts/);
    assert.match(parseError('[a#AA]\nINS.PRE x:\n+y').message, /"x" is not a line number/);
  });

  it('requires MV and REM to be the only op of their section', () => {
    assert.match(parseError('[a#AA]\nDEL 1\nREM').message, /input line 3: REM must be the only op/);
    assert.match(parseError('[a#AA]\nMV b\nDEL 1').message, /MV must be the only op/);
    assert.match(parseError('[a#AA]\nMV   ').message, /MV needs a destination/);
  });

  it('rejects carriage returns inside body rows', () => {
    assert.match(parseError('[a#AA]\nSWAP 1:\n+x\ry').message, /carriage return/);
  });

  it('limits the number of sections', () => {
    const input = Array.from({ length: MAX_SECTIONS + 1 }, (_, i) => `[f${i}#AA]\nDEL 1`).join('\n');
    assert.match(parseError(input).message, /at most 32 files/);
  });

  it('limits the number of ops', () => {
    const ops = Array.from({ length: MAX_OPS + 1 }, (_, i) => `DEL ${i + 1}`).join('\n');
    assert.match(parseError(`[a#AA]\n${ops}`).message, new RegExp(`input line ${MAX_OPS + 2}: too many ops; one call applies at most ${MAX_OPS}`));
    assert.equal(parseInput(`[a#AA]\n${ops.split('\n').slice(1).join('\n')}`)[0]?.ops.length, MAX_OPS);
  });

  it('labels ops the way they are written', () => {
    const [section] = parseInput('[a#AA]\nSWAP 2:\n+x\nDEL 3.=4\nINS.BLK.POST 9:\n+y\nINS.TAIL:\n+z');
    assert.deepEqual(section?.ops.map(opLabel), ['SWAP 2', 'DEL 3.=4', 'INS.BLK.POST 9', 'INS.TAIL']);
  });
});

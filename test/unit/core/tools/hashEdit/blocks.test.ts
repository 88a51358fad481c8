import assert from 'node:assert/strict';
import { blockOptionsFor, findBlock, indentWidth, type BlockOptions } from '../../../../../src/core/tools/hashEdit/blocks';

const BRACKET: BlockOptions = { mode: 'bracket', rustChars: false };
const RUST: BlockOptions = { mode: 'bracket', rustChars: true };
const INDENT: BlockOptions = { mode: 'indent', rustChars: false };

function block(text: string, line: number, options: BlockOptions): [number, number] | string {
  const result = findBlock(text.split('\n'), line, options);
  return result.ok ? [result.start, result.end] : result.reason;
}

describe('hash_edit blocks', () => {
  describe('mode selection', () => {
    it('uses indentation for Python/YAML-like extensions and brackets otherwise', () => {
      for (const file of ['a.py', 'b.PYI', 'c.pyw', 'd.yaml', 'e.yml', 'f.coffee', 'g.nim', 'h.sass', 'i.pug', 'j.haml']) {
        assert.equal(blockOptionsFor(`/x/${file}`).mode, 'indent', file);
      }
      for (const file of ['a.ts', 'b.c', 'c.json', 'Makefile', 'd.rs']) assert.equal(blockOptionsFor(`/x/${file}`).mode, 'bracket', file);
      assert.equal(blockOptionsFor('/x/lib.rs').rustChars, true);
      assert.equal(blockOptionsFor('/x/lib.ts').rustChars, false);
    });
  });

  describe('indentation mode', () => {
    it('takes the line plus deeper lines, keeping inner blank lines', () => {
      const py = ['def f():', '    a = 1', '', '    return a', 'x = 2'].join('\n');
      assert.deepEqual(block(py, 1, INDENT), [1, 4]);
    });

    it('excludes trailing blank lines', () => {
      const py = ['class A:', '    def f(self):', '        pass', '', '', 'b = 1'].join('\n');
      assert.deepEqual(block(py, 2, INDENT), [2, 3]);
      assert.deepEqual(block(py, 1, INDENT), [1, 3]);
    });

    it('stops at a line indented the same or less and runs to EOF otherwise', () => {
      const py = ['if x:', '    a()', 'else:', '    b()'].join('\n');
      assert.deepEqual(block(py, 1, INDENT), [1, 2]);
      assert.deepEqual(block(py, 3, INDENT), [3, 4]);
    });

    it('counts a tab as advancing to the next multiple of 8 columns', () => {
      assert.equal(indentWidth('\tx'), 8);
      assert.equal(indentWidth('  \tx'), 8);
      assert.equal(indentWidth('        \tx'), 16);
      assert.equal(indentWidth('   '), null);
      // 4 spaces is shallower than one tab, so the tab-indented line belongs to the block.
      assert.deepEqual(block(['    if x:', '\ty()', '    z()'].join('\n'), 1, INDENT), [1, 2]);
      // A tab is as deep as 8 spaces, so 8 spaces after a tab line is not deeper.
      assert.equal(typeof block(['\tif x:', '        y()'].join('\n'), 1, INDENT), 'string');
    });

    it('errors on a line without deeper lines and on a blank line', () => {
      assert.equal(block('a = 1\nb = 2', 1, INDENT), 'line 1 does not start an indented block (no deeper-indented line follows it)');
      assert.match(String(block('a:\n\n  b', 2, INDENT)), /line 2 is blank/);
    });

    it('does not treat YAML list items at the key indentation as the block', () => {
      assert.match(String(block('key:\n- a\n- b', 1, INDENT)), /does not start an indented block/);
      assert.deepEqual(block('key:\n  - a\n  - b\nother: 1', 1, INDENT), [1, 3]);
    });
  });

  describe('bracket mode', () => {
    it('ends a positive-depth line where the depth returns to zero', () => {
      const ts = ['function f() {', '  if (x) {', '    y();', '  }', '}', 'after();'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 5]);
      assert.deepEqual(block(ts, 2, BRACKET), [2, 4]);
    });

    it('counts all bracket kinds together', () => {
      assert.deepEqual(block(['const a = [', '  { b: (1) },', '];'].join('\n'), 1, BRACKET), [1, 3]);
      assert.deepEqual(block(['call(a, {', '  x: 1,', '});'].join('\n'), 1, BRACKET), [1, 3]);
    });

    it('keeps if/else as one block because depth is measured at line ends', () => {
      const ts = ['if (a) {', '  x();', '} else {', '  y();', '}', 'z();'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 5]);
      assert.match(String(block(ts, 3, BRACKET)), /line 3 does not start a block/);
    });

    it('ignores brackets in double, single and backtick strings', () => {
      const ts = ['f(() => {', '  a("}}");', "  b('}]');", '  c(`})`);', '});', 'g();'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 5]);
    });

    it('honours backslash escapes inside strings', () => {
      const ts = ['x = {', '  a: "\\"}",', "  b: '\\'}',", '}', 'y'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 4]);
    });

    it('ignores brackets in // and /* */ comments, including multi-line ones', () => {
      const ts = ['void f() { // }', '  /* }', '  } */', '  g(); /* { */', '}', 'h();'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 5]);
    });

    it('follows backtick strings across lines', () => {
      const ts = ['const s = {', '  t: `line one }', '  still } string`,', '};', 'x'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 4]);
    });

    it("treats an unclosed quote as a plain character, so later brackets count", () => {
      // Were the quote a string to the end of the line, the '{' would be hidden and this no block.
      const c = ["section it's {", '  x;', '}', 'y;'].join('\n');
      assert.deepEqual(block(c, 1, BRACKET), [1, 3]);
    });

    it('supports Allman style: a balanced line followed by an opening bracket line', () => {
      const cs = ['void F()', '{', '    if (x)', '    {', '        Y();', '    }', '}', 'Z();'].join('\n');
      assert.deepEqual(block(cs, 1, BRACKET), [1, 7]);
      assert.deepEqual(block(cs, 3, BRACKET), [3, 6]);
      assert.deepEqual(block(['void F()', '', '{ }', 'x'].join('\n'), 1, BRACKET), [1, 3]);
    });

    it('refuses a balanced line not followed by an opening bracket, and a closing line', () => {
      assert.equal(block('x();\ny();', 1, BRACKET), 'line 1 does not start a block; use SWAP/DEL with an explicit range');
      assert.match(String(block('{\n}', 2, BRACKET)), /line 2 does not start a block/);
      assert.match(String(block('f()\n\n', 1, BRACKET)), /does not start a block/);
    });

    it('refuses a block that is still open at the end of the file', () => {
      assert.match(String(block('f() {\n  x();', 1, BRACKET)), /not closed before the end of the file/);
      assert.match(String(block('f()\n{\n  x();', 1, BRACKET)), /not closed before the end of the file/);
    });

    it("in Rust, treats lifetimes as plain characters and char literals as strings", () => {
      const rs = ["fn f<'a>(x: &'a str) -> char {", "    let c = '{';", "    let d = '\\'';", "    '}'", '}', 'fn g() {}'].join('\n');
      assert.deepEqual(block(rs, 1, RUST), [1, 5]);
    });

    it('reports a line past the end', () => {
      assert.match(String(block('a', 3, BRACKET)), /line 3 is past the end/);
    });
  });
});

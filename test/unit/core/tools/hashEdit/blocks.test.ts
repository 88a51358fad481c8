import assert from 'node:assert/strict';
import { blockOptionsFor, findBlock, indentWidth, type BlockOptions } from '../../../../../src/core/tools/hashEdit/blocks';
import { edit, editOk, fileWith, makeFixture, text, type Fixture } from './helpers';

const BRACKET: BlockOptions = { mode: 'bracket', rustChars: false };
const RUST: BlockOptions = { mode: 'bracket', rustChars: true };
const INDENT: BlockOptions = { mode: 'indent', rustChars: false };
const PYTHON: BlockOptions = blockOptionsFor('/x/a.py');

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

    it("takes Python's clauses only in .py, .pyi and .pyw files", () => {
      for (const file of ['a.py', 'b.PYI', 'c.pyw']) assert.equal(blockOptionsFor(`/x/${file}`).pythonClauses, true, file);
      for (const file of ['d.yaml', 'e.yml', 'f.coffee', 'g.nim', 'a.ts']) assert.equal(blockOptionsFor(`/x/${file}`).pythonClauses, false, file);
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

  describe("Python's clauses", () => {
    it('takes if/elif/else as one block, from the if or from an elif', () => {
      const py = ['if x:', '    a()', 'elif y:', '    b()', '', 'elif z: c()', 'else:', '    d()', '', 'e()'].join('\n');
      assert.deepEqual(block(py, 1, PYTHON), [1, 8]);
      assert.deepEqual(block(py, 3, PYTHON), [3, 8]);
      assert.deepEqual(block(py, 7, PYTHON), [7, 8]);
    });

    it('takes try/except/else/finally, except* and except(...) included', () => {
      const py = ['try:', '    a()', 'except (E, F) as e:', '    b()', 'except* G:', '    c()', 'except(H):', '    d()', 'else:', '    e()', 'finally:', '    f()', 'g()'].join('\n');
      assert.deepEqual(block(py, 1, PYTHON), [1, 12]);
    });

    it('takes for/else and while/else', () => {
      assert.deepEqual(block(['for x in y:', '    a()', 'else:', '    b()', 'c()'].join('\n'), 1, PYTHON), [1, 4]);
      assert.deepEqual(block(['while x:', '    a()', 'else :', '    b()', 'c()'].join('\n'), 1, PYTHON), [1, 4]);
    });

    it("takes only clauses at line N's own indentation, and only the keywords themselves", () => {
      const nested = ['if x:', '    if y:', '        a()', '    else:', '        b()', 'else:', '    c()'].join('\n');
      assert.deepEqual(block(nested, 2, PYTHON), [2, 5]);
      assert.deepEqual(block(nested, 1, PYTHON), [1, 7]);
      assert.deepEqual(block(['if x:', '    a()', 'elsewhere = 1', 'else_ = 2', 'finally_ = 3'].join('\n'), 1, PYTHON), [1, 2]);
    });

    it('still needs a deeper line after line N, even when a clause follows', () => {
      assert.match(String(block(['if x: a()', 'else:', '    b()'].join('\n'), 1, PYTHON)), /line 1 does not start an indented block/);
    });

    it('leaves YAML and the other indentation languages alone', () => {
      const yaml = ['if:', '  a: 1', 'else:', '  b: 2'].join('\n');
      assert.deepEqual(block(yaml, 1, blockOptionsFor('/x/c.yaml')), [1, 2]);
      assert.deepEqual(block(yaml, 1, INDENT), [1, 2]);
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

  describe('bracket mode: a closing line that continues the statement', () => {
    it('takes an unbraced else statement on the next lines, through the line ending with ;', () => {
      const ts = ['if (a) {', '  x();', '} else', '  y(1,', '    2);', 'z();'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 5]);
      assert.deepEqual(block(['if (a) {', '  x();', '} else return y;', 'z();'].join('\n'), 1, BRACKET), [1, 3]);
    });

    it('keeps `} else {` and `} else if (x) {` inside the block, as before', () => {
      const ts = ['if (a) {', '  x();', '} else if (b) {', '  y();', '} else {', '  w();', '}', 'z();'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 7]);
    });

    it('follows an else-if chain with unbraced bodies', () => {
      const ts = ['if (a) {', '  x();', '} else if (b)', '  y();', 'else if (c) w();', 'else', '  v();', 'z();'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 7]);
    });

    it('takes the keyword on the next line with code: else, else if, catch, finally', () => {
      const ts = ['if (a) {', '  x();', '}', '', 'else if (b) {', '  y();', '}', 'else', '  w();', 'z();'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 9]);
      const java = ['try {', '  x();', '}', 'catch (IOException | E e) {', '  y();', '}', 'catch (Exception e) {', '}', 'finally {', '  w();', '}', 'z();'].join('\n');
      assert.deepEqual(block(java, 1, BRACKET), [1, 11]);
    });

    it('takes Java try/catch/finally whose clauses open their braces on the next line', () => {
      const java = ['try {', '  x();', '} catch (IOException e)', '{', '  y();', '} catch', '{', '} finally', '{', '  w();', '}', 'z();'].join('\n');
      assert.deepEqual(block(java, 1, BRACKET), [1, 11]);
    });

    it('supports Allman style all through', () => {
      const cs = ['if (a)', '{', '    X();', '}', 'else if (b)', '{', '    Y();', '}', 'else', '{', '    W();', '}', 'Z();'].join('\n');
      assert.deepEqual(block(cs, 1, BRACKET), [1, 12]);
      const tryCatch = ['try', '{', '    X();', '}', 'catch (E e)', '{', '}', 'finally', '{', '}', 'Z();'].join('\n');
      assert.deepEqual(block(tryCatch, 1, BRACKET), [1, 10]);
    });

    it("takes a do-block's while, on its closing line or the next, and no other block's", () => {
      assert.deepEqual(block(['do {', '  x();', '} while (a);', 'z();'].join('\n'), 1, BRACKET), [1, 3]);
      assert.deepEqual(block(['do {', '  x();', '}', 'while (a &&', '       b);', 'z();'].join('\n'), 1, BRACKET), [1, 5]);
      assert.deepEqual(block(['do {', '  x();', '} while (a)', 'z()'].join('\n'), 1, BRACKET), [1, 3]);
      assert.deepEqual(block(['do', '{', '  x();', '}', 'while (a);', 'z();'].join('\n'), 1, BRACKET), [1, 5]);
      assert.deepEqual(block(['while (a) {', '  x();', '}', 'while (b) {', '}'].join('\n'), 1, BRACKET), [1, 3]);
      assert.deepEqual(block(['double f() {', '  return 1;', '}', 'while (b) {', '}'].join('\n'), 1, BRACKET), [1, 3]);
    });

    it('follows a nested unbraced if/else and loops inside an unbraced else', () => {
      const ts = ['if (a) {', '  x();', '} else', '  if (b)', '    y();', '  else if (c)', '    for (;;) {', '      w();', '    }', '  else', '    v();', 'z();'].join('\n');
      assert.deepEqual(block(ts, 1, BRACKET), [1, 11]);
      const loops = ['if (a) {', '} else', '  while (b)', '    switch (c) {', '      case 1: d();', '    }', 'z();'].join('\n');
      assert.deepEqual(block(loops, 1, BRACKET), [1, 6]);
      const tryDo = ['if (a) {', '} else', '  try {', '  } catch (e) {', '  }', 'else_();', 'if (b) {', '} else do {', '} while (c);', 'z();'].join('\n');
      assert.deepEqual(block(tryDo, 1, BRACKET), [1, 5]);
      assert.deepEqual(block(tryDo, 7, BRACKET), [7, 9]);
    });

    it("gives a dangling else to the innermost if, and leaves an outer if's else out", () => {
      const inner = ['if (a)', '  if (b) {', '    x();', '  }', 'else', '  y();'].join('\n');
      assert.deepEqual(block(inner, 2, BRACKET), [2, 6]);
      const complete = ['if (a)', '  if (b) {', '    x();', '  } else {', '    w();', '  }', 'else', '  y();'].join('\n');
      assert.deepEqual(block(complete, 2, BRACKET), [2, 6]);
      const tried = ['if (a)', '  try {', '  } catch (e) {', '  }', 'else', '  y();'].join('\n');
      assert.deepEqual(block(tried, 2, BRACKET), [2, 4]);
    });

    it("refuses a continuation whose end is not found, naming the clause's line", () => {
      const refusal = 'line 3 continues the statement with `else`, whose end could not be found; use SWAP/DEL with an explicit range';
      assert.equal(block(['if (a) {', '  x();', '} else', '  y()', 'z()'].join('\n'), 1, BRACKET), refusal);
      assert.equal(block(['if (a) {', '  x();', '} else'].join('\n'), 1, BRACKET), refusal);
      assert.equal(block(['if (a) {', '  x();', '} else', '  y(1,', '    2)'].join('\n'), 1, BRACKET), refusal);
      const enclosed = ['function f() {', '  if (a) {', '  } else', '    y()', '}'].join('\n');
      assert.match(String(block(enclosed, 2, BRACKET)), /^line 3 continues the statement with `else`/);
      assert.match(String(block(['try {', '}', 'finally x();'].join('\n'), 1, BRACKET)), /^line 3 continues the statement with `finally`/);
      assert.match(String(block(['try {', '} catch (e);'].join('\n'), 1, BRACKET)), /^line 2 continues the statement with `catch`/);
      assert.match(String(block(['do {', '}', 'while x;'].join('\n'), 1, BRACKET)), /^line 3 continues the statement with `while`/);
      const chain = ['if (a) {', '} else if (b) {', '}', 'else {', '  x();'].join('\n');
      assert.match(String(block(chain, 1, BRACKET)), /^line 4 continues the statement with `else`/);
    });

    it('reads the continuation without comments: `} else // x`, `} /* c */ else`, comment-only lines', () => {
      assert.deepEqual(block(['if (a) {', '  x();', '} else // x', '  y();', 'z();'].join('\n'), 1, BRACKET), [1, 4]);
      assert.deepEqual(block(['if (a) {', '} /* c */ else /* { */', '  y(); // }', 'z();'].join('\n'), 1, BRACKET), [1, 3]);
      assert.deepEqual(block(['if (a) {', '}', '// the other case', '/* still', '   none */', 'else {', '}', 'z();'].join('\n'), 1, BRACKET), [1, 7]);
      assert.deepEqual(block(['if (a) {', '}', '// else', 'z();'].join('\n'), 1, BRACKET), [1, 2]);
    });

    it('is not fooled by else in strings or in longer words', () => {
      assert.deepEqual(block(['if (a) {', '  x("} else");', '}', 'z();'].join('\n'), 1, BRACKET), [1, 3]);
      assert.deepEqual(block(['if (a) {', '}', '"else";', "'catch';", 'z();'].join('\n'), 1, BRACKET), [1, 2]);
      assert.deepEqual(block(['if (a) {', '}', 'elsewhere();', 'finallyDone();'].join('\n'), 1, BRACKET), [1, 2]);
      assert.deepEqual(block(['if (a) {', '} else log("} else {");', 'z();'].join('\n'), 1, BRACKET), [1, 2]);
      assert.deepEqual(block(['p.then(() => {', '}).catch(() => {', '});', 'z();'].join('\n'), 1, BRACKET), [1, 3]);
    });

    it("continues only a block closed by }: after ) or ] an else is an enclosing if's", () => {
      const js = ['if (a)', '  items.forEach((i) => {', '    f(i)', '  })', 'else', '  g()'].join('\n');
      assert.deepEqual(block(js, 2, BRACKET), [2, 4]);
      const sh = ['if x; then', '  arr=(', '    a', '  )', 'else', '  y', 'fi'].join('\n');
      assert.deepEqual(block(sh, 2, BRACKET), [2, 4]);
    });

    it('follows a template string across the lines of an unbraced else', () => {
      assert.deepEqual(block(['if (a) {', '} else', '  x = `one', 'two`;', 'z();'].join('\n'), 1, BRACKET), [1, 4]);
    });

    it('follows a paren-less else if (Swift, Rust, Go) to its braced body', () => {
      assert.deepEqual(block(['if a {', '}', 'else if b > 0 {', '}', 'else {', '}', 'z()'].join('\n'), 1, BRACKET), [1, 6]);
      assert.deepEqual(block(['do {', '  try x()', '}', 'catch let e as E {', '}', 'z()'].join('\n'), 1, BRACKET), [1, 5]);
    });
  });

  describe('block ops through the tool', () => {
    let fx: Fixture;
    beforeEach(async () => {
      fx = await makeFixture();
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    it('SWAP.BLK on an if whose else has no braces replaces the whole if/else', async () => {
      const header = await fileWith(fx, 'a.ts', 'function f(a: boolean) {\n  if (a) {\n    x();\n  } else\n    y();\n  z();\n}\n');
      await editOk(fx, `${header}\nSWAP.BLK 2:\n+  if (a) x();\n+  else w();`);
      assert.equal(await text(fx, 'a.ts'), 'function f(a: boolean) {\n  if (a) x();\n  else w();\n  z();\n}\n');
    });

    it('DEL.BLK on a Python if deletes its elif and else too', async () => {
      const header = await fileWith(fx, 'a.py', 'if a:\n    x()\nelif b:\n    y()\nelse:\n    w()\nz()\n');
      await editOk(fx, `${header}\nDEL.BLK 1`);
      assert.equal(await text(fx, 'a.py'), 'z()\n');
    });

    it('refuses a block whose continuation does not end, and changes nothing', async () => {
      const original = 'if (a) {\n  x()\n} else\n  y()\nz()\n';
      const header = await fileWith(fx, 'a.js', original);
      const result = await edit(fx, `${header}\nDEL.BLK 1`);
      assert.match(result.content, /\(DEL\.BLK 1\): line 3 continues the statement with `else`, whose end could not be found; use SWAP\/DEL with an explicit range\./);
      assert.equal(await text(fx, 'a.js'), original);
    });
  });
});

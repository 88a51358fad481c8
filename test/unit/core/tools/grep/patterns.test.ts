import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineMatcher } from '../../../../../src/core/tools/grep/matcher';
import { compilePattern, lineConfined, requiredLiteral } from '../../../../../src/core/tools/grep/patterns';

/** Which lines (1-based) of a text match, the slow obvious way: split, then test each line. */
function referenceLines(source: string, flags: string, text: string): number[] {
  const re = new RegExp(source, flags);
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  if (text === '') return [];
  return lines.flatMap((line, i) => (re.test(line) ? [i + 1] : []));
}

function matchedLines(pattern: string, text: string): number[] {
  return new LineMatcher([compilePattern(pattern)]).search(text, Infinity).lines;
}

describe('grep patterns', () => {
  describe('repairs', () => {
    const cases: [string, string, RegExp][] = [
      ['fn run() {', 'fn run\\(\\) \\{', /escaped unmatched "\{" at 9/],
      ['foo()', 'foo\\(\\)', /empty group "\(\)" at 3 taken as literal parentheses/],
      ['}) => {', '\\}\\) => \\{', /escaped unmatched "\)" at 1/],
      ['foo(', 'foo\\(', /escaped unmatched "\(" at 3/],
      ['foo(bar(baz)', 'foo\\(bar(baz)', /escaped unmatched "\(" at 3/],
      ['a)b', 'a\\)b', /escaped unmatched "\)" at 1/],
      ['{2}x', '\\{2\\}x', /nothing to repeat/],
      ['x{', 'x\\{', /escaped unmatched "\{"/],
      ['[abc', '\\[abc', /unclosed "\["/],
      ['a]b', 'a\\]b', /lone "\]"/],
      ["it\\('x\\'", "it\\('x'", /needless escape \\' at 6/],
      ['a\\-b\\:c\\"', 'a-b:c"', /needless escape \\- at 1/],
      ['[\\:\\w]', '[:\\w]', /needless escapes in/],
      ['(?P<name>a)(?P=name)', '(?<name>a)\\k<name>', /\(\?P<name> at 0 became/],
      ['(?:foo', '\\(\\?:foo', /escaped unmatched "\(\?:" at 0/],
    ];
    for (const [pattern, source, note] of cases) {
      it(`${JSON.stringify(pattern)} becomes ${JSON.stringify(source)}`, () => {
        const spec = compilePattern(pattern);
        assert.equal(spec.kind, 'repaired');
        assert.equal(spec.source, source);
        assert.match(spec.adjustments.join('\n'), note);
        assert.doesNotThrow(() => new RegExp(spec.source, spec.flags));
      });
    }

    it('turns a leading (?i) into the i flag, and matches case-insensitively', () => {
      const spec = compilePattern('(?i)hello');
      assert.equal(spec.source, 'hello');
      assert.equal(spec.flags, 'sui');
      assert.equal(spec.literal, null);
      assert.deepEqual(matchedLines('(?i)hello', 'HeLLo\nbye\n'), [1]);
    });

    it('keeps the original pattern for diagnostics', () => {
      assert.equal(compilePattern('fn run() {').original, 'fn run() {');
    });

    it('leaves an empty group alone when the pattern has backreferences', () => {
      assert.equal(compilePattern('()(a)\\2').kind, 'regex');
    });

    it('repairs exactly what does not compile: a pattern that compiles is never changed (empty groups aside)', () => {
      fc.assert(
        fc.property(fc.string({ unit: fc.constantFrom(...'ab(){}[]|*+?.^$\\-:\'dwsbP<>=!,0123'.split('')), maxLength: 12 }), (pattern) => {
          let valid = true;
          try {
            new RegExp(pattern, 'su');
          } catch {
            valid = false;
          }
          const spec = compilePattern(pattern);
          assert.doesNotThrow(() => new RegExp(spec.source, spec.flags));
          if (valid && !/(^|[^\\])\(\)/.test(pattern)) {
            assert.equal(spec.kind, 'regex');
            assert.equal(spec.source, pattern);
          }
          if (spec.kind === 'literal') assert.ok(new RegExp(spec.source, spec.flags).test(`x${pattern}y`));
        }),
        { numRuns: 3000 },
      );
    });
  });

  describe('literal fallback', () => {
    it('matches a pattern that still does not compile as literal text, and says why', () => {
      const spec = compilePattern('\\Afoo');
      assert.equal(spec.kind, 'literal');
      assert.match(spec.adjustments.join(), /does not compile .*matched as a literal string/);
      assert.deepEqual(matchedLines('\\Afoo', 'Afoo\n\\Afoo here\n'), [2]);
    });

    it('matches regex syntax literally in the fallback: *.ts', () => {
      assert.equal(compilePattern('*.ts').kind, 'literal');
      assert.deepEqual(matchedLines('*.ts', 'a.ts\nglob *.ts\nxts\n'), [2]);
    });

    it('a trailing backslash falls back to literal', () => {
      assert.deepEqual(matchedLines('a\\', 'a\\b\nab\n'), [1]);
    });
  });

  describe('line semantics', () => {
    it('^ and $ are line start and end; a match never spans lines', () => {
      const text = 'foo\nbar foo\nfoo bar\nbaz\n';
      assert.deepEqual(matchedLines('^foo', text), [1, 3]);
      assert.deepEqual(matchedLines('foo$', text), [1, 2]);
      assert.deepEqual(matchedLines('foo\\s+bar', 'foo\nbar\nfoo  bar\n'), [3]);
      assert.deepEqual(matchedLines('foo[^x]bar', 'foo\nbar\nfoo-bar\n'), [3]);
      assert.deepEqual(matchedLines('a\\nb', 'a\nb\n'), []);
    });

    it('. matches a CR and other line separators, as in ripgrep; $ does not match before a CR', () => {
      assert.deepEqual(matchedLines('a.b', 'a\rb\na\u2028b\n'), [1, 2]);
      assert.deepEqual(matchedLines('a$', 'a\r\na\n'), [2]);
    });

    it('an empty match marks a line, but there is no line after the final newline', () => {
      assert.deepEqual(matchedLines('^', 'a\n\nb\n'), [1, 2, 3]);
      assert.deepEqual(matchedLines('x*', 'a\nb'), [1, 2]);
      assert.deepEqual(matchedLines('^$', 'a\n\nb\n'), [2]);
      assert.deepEqual(matchedLines('^', ''), []);
    });

    it('anchors hold next to astral characters (V8 misreads (?![^\\n]) there)', () => {
      assert.deepEqual(matchedLines('^\\s*$', '😀 a 😀\n\n'), [2]);
      assert.deepEqual(matchedLines('^😀|😀$', 'x😀x\n😀\nb😀\n'), [2, 3]);
    });

    it('Unicode mode: . is one code point, \\p{…} works, \\w is ASCII', () => {
      assert.deepEqual(matchedLines('^.$', '😀\nab\n'), [1]);
      assert.deepEqual(matchedLines('\\p{Lu}\\p{Ll}+', 'Ωμέγα\nabc\n'), [1]);
      assert.deepEqual(matchedLines('^\\w+$', 'café\ncafe\n'), [2]);
    });

    it('lookaround and backreferences work and stay inside the line', () => {
      assert.deepEqual(matchedLines('(\\w)\\1', 'aa\nab\na\na\n'), [1]);
      assert.deepEqual(matchedLines('foo(?!bar)', 'foobar\nfoo\nfoo\nbar\n'), [2, 3]);
      assert.deepEqual(matchedLines('(?<=x)y', 'x\ny\nxy\n'), [3]);
    });

    /** Patterns from a grammar rich in what behaves differently across lines. */
    const atom = fc.constantFrom('a', 'b', ' ', '.', '\\s', '\\S', '\\W', '[^a]', '[ab]', '[\\s\\S]', '\\n', '\\r', '^', '$', '\\b', '\\B', '(?=a)', '(?!b)', '(?<=a)', '(?<!\\s)', '\\p{L}');
    const quant = fc.constantFrom('', '', '*', '+', '?', '{2}', '{0,2}');
    const piece = fc.tuple(atom, quant).map(([a, q]) => (/^[\^$]|^\\[bB]$|^\(\?/.test(a) ? a : a + q));
    const seq = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(''));
    const pattern = fc.oneof(
      seq,
      fc.tuple(seq, seq).map(([x, y]) => `${x}|${y}`),
      fc.tuple(seq, quant).map(([x, q]) => `(${x})${q}\\1`),
    );
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\r', 'é', '😀'), maxLength: 30 });

    it('the line-confined rewrite finds exactly the lines a per-line test finds (property)', () => {
      fc.assert(
        fc.property(pattern, text, (p, t) => {
          const spec = compilePattern(p);
          fc.pre(spec.kind !== 'literal');
          assert.notEqual(spec.scanSource, null);
          assert.deepEqual(new LineMatcher([spec]).search(t, Infinity).lines, referenceLines(spec.source, spec.flags, t), `pattern ${p} scan ${spec.scanSource}`);
        }),
        { numRuns: 4000 },
      );
    });

    it('several patterns are OR-ed: a line is listed once, in order', () => {
      const m = new LineMatcher(['b', 'a', 'c'].map(compilePattern));
      assert.deepEqual(m.search('a\nb\nab\nx\nc\n', Infinity).lines, [1, 2, 3, 5]);
      const first = m.search('a\nb\nab\nx\nc\n', 2);
      assert.deepEqual(first.lines, [1, 2]);
      assert.equal(first.exact, false);
    });

    it('lineConfined leaves atoms that cannot match a newline alone', () => {
      assert.equal(lineConfined('\\d+\\w[ab]x'), '\\d+\\w[ab]x');
      assert.equal(lineConfined('.^$'), '[^\\n](?:^|(?<=\\n))(?=\\n|$)');
    });
  });

  describe('required literal (the byte prefilter)', () => {
    it('is the longest literal run outside groups, classes and optional characters', () => {
      assert.equal(requiredLiteral('TODO: \\w+ negative'), ' negative');
      assert.equal(requiredLiteral('fn\\s+run_all\\('), 'run_all(');
      assert.equal(requiredLiteral('abc?de'), 'ab');
      assert.equal(requiredLiteral('ab+cd'), 'ab');
      assert.equal(requiredLiteral('x|y'), null);
      assert.equal(requiredLiteral('(abc)'), null);
      assert.equal(requiredLiteral('\\uD83D\\uDE00'), null);
    });

    it('every matching line contains it (property)', () => {
      const chars = fc.constantFrom('a', 'b', 'c', '.', '?', '*', '+', '(', ')', '|', '\\d', '[ab]', '{2}');
      fc.assert(
        fc.property(fc.array(chars, { maxLength: 8 }).map((p) => p.join('')), fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1'), maxLength: 12 }), (p, line) => {
          const spec = compilePattern(p);
          fc.pre(spec.literal !== null && spec.kind !== 'literal');
          if (new RegExp(spec.source, spec.flags).test(line)) assert.ok(line.includes(spec.literal!), `${p} matched ${line} without ${spec.literal}`);
        }),
        { numRuns: 3000 },
      );
    });
  });
});

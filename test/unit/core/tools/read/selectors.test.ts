import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ToolError } from '../../../../../src/core/tools/errors';
import { DEFAULT_READ_LINES, MAX_READ_LINES, parseReadTarget, resolveWindow } from '../../../../../src/core/tools/read/selectors';

/** A path that cannot be mistaken for a selector: no colon-suffix parses as raw or a range. */
const plainPath = fc.stringMatching(/^[a-z][a-z0-9_./-]{0,20}$/);

type Sel = { text: string; start: number; end: number | undefined };

const selector: fc.Arbitrary<Sel> = fc.oneof(
  fc.integer({ min: 1, max: 100000 }).map((n) => ({ text: `${n}`, start: n, end: n + DEFAULT_READ_LINES - 1 })),
  fc.integer({ min: 1, max: 100000 }).map((m) => ({ text: `-${m}`, start: 1, end: m })),
  fc.tuple(fc.integer({ min: 1, max: 100000 }), fc.integer({ min: 0, max: 5000 })).map(([n, d]) => ({ text: `${n}-${n + d}`, start: n, end: n + d })),
  fc.integer({ min: 1, max: 100000 }).map((n) => ({ text: `${n}+`, start: n, end: undefined })),
  fc.tuple(fc.integer({ min: 1, max: 100000 }), fc.integer({ min: 1, max: 5000 })).map(([n, k]) => ({ text: `${n}+${k}`, start: n, end: n + k - 1 })),
);

describe('read selectors', () => {
  it('parses every selector form, alone or with :raw in either order', () => {
    fc.assert(
      fc.property(plainPath, fc.option(selector, { nil: undefined }), fc.constantFrom('none', 'before', 'after'), (path, sel, rawAt) => {
        let target = path;
        if (rawAt === 'before') target += ':raw';
        if (sel) target += `:${sel.text}`;
        if (rawAt === 'after') target += ':raw';
        const parsed = parseReadTarget(target);
        assert.equal(parsed.path, path);
        assert.equal(parsed.raw, rawAt !== 'none');
        if (sel) {
          assert.equal(parsed.window?.start, sel.start);
          assert.equal(parsed.window?.end, sel.end);
        } else {
          assert.equal(parsed.window, undefined);
        }
      }),
    );
  });

  it('keeps colons that are not selectors in the path', () => {
    assert.deepEqual(parseReadTarget('C:\\dir\\a.txt'), { path: 'C:\\dir\\a.txt', raw: false, window: undefined });
    assert.deepEqual(parseReadTarget('notes:todo:3-4'), { path: 'notes:todo', raw: false, window: { start: 3, end: 4 } });
    assert.equal(parseReadTarget('a:1-2:3-4').path, 'a:1-2', 'a second range stays in the path');
    assert.equal(parseReadTarget('a:raw:raw').path, 'a:raw', 'a second :raw stays in the path');
  });

  it('rejects line 0 and reversed ranges with a typed error', () => {
    assert.throws(() => parseReadTarget('a:0'), ToolError);
    assert.throws(() => parseReadTarget('a:0+5'), ToolError);
    assert.throws(() => parseReadTarget('a:9-3'), /write it as 3-9/);
  });

  it('resolves windows inside the file, never past 2,000 lines, failing only for a start past the end', () => {
    fc.assert(
      fc.property(selector, fc.integer({ min: 0, max: 20000 }), (sel, lineCount) => {
        const window = { start: sel.start, end: sel.end };
        if (sel.start > Math.max(lineCount, 1)) {
          assert.throws(() => resolveWindow(window, lineCount, 'f'), /past the end/);
          return;
        }
        const { start, end, cut } = resolveWindow(window, lineCount, 'f');
        assert.equal(start, sel.start);
        assert.ok(end <= lineCount);
        assert.ok(end - start + 1 <= MAX_READ_LINES);
        const wanted = Math.min(sel.end ?? lineCount, lineCount);
        assert.equal(end, Math.min(wanted, start + MAX_READ_LINES - 1));
        assert.equal(cut, end < wanted);
      }),
    );
  });
});

import assert from 'node:assert/strict';
import { formatSnapshot } from '../../../../../src/core/tools/browser/snapshot';

/** The shape of Playwright's ariaSnapshot({ mode: 'ai' }) output. */
const ARIA = [
  '- generic [active] [ref=e1]:',
  '  - heading "Sign up" [level=1] [ref=e2]',
  '  - generic [ref=e3]:',
  '    - text: Full name',
  '    - textbox "Full name" [ref=e4]',
  '    - combobox "Color" [ref=e5]:',
  '      - option "Red" [selected]',
  '      - option "Green"',
  '    - button "Send" [ref=e6] [cursor=pointer]',
  '    - link "Help" [ref=e7] [cursor=pointer]:',
  '      - /url: /help',
  '    - checkbox "Remember me" [checked] [ref=e8]',
  '    - paragraph [ref=e9]: Some text with [ref=e99] in it',
  '  - iframe [ref=e10]:',
  '    - button "Inside" [ref=f1e2]',
  '',
].join('\n');

describe('browser snapshot formatting', () => {
  it('rewrites [ref=eN] to @eN, keeping the tree and every other attribute', () => {
    const text = formatSnapshot(ARIA, false);
    assert.doesNotMatch(text, /\[ref=e\d+\]\s*[:\n[]|\[ref=e\d+\]$/m);
    assert.match(text, /^- generic \[active\] @e1:$/m);
    assert.match(text, /^ {2}- heading "Sign up" \[level=1\] @e2$/m);
    assert.match(text, /^ {4}- textbox "Full name" @e4$/m);
    assert.match(text, /^ {6}- option "Red" \[selected\]$/m);
    assert.match(text, /^ {4}- button "Send" @e6 \[cursor=pointer\]$/m);
    assert.match(text, /^ {4}- checkbox "Remember me" \[checked\] @e8$/m);
    assert.match(text, /^ {4}- button "Inside" @f1e2$/m);
    assert.equal(text.split('\n').length, ARIA.split('\n').length - 1, 'only the blank line goes');
  });

  it('-i keeps only interactive elements with refs, one per line, unindented and without subtrees', () => {
    assert.deepEqual(formatSnapshot(ARIA, true).split('\n'), [
      '- textbox "Full name" @e4',
      '- combobox "Color" @e5',
      '- button "Send" @e6 [cursor=pointer]',
      '- link "Help" @e7 [cursor=pointer]',
      '- checkbox "Remember me" [checked] @e8',
      '- button "Inside" @f1e2',
    ]);
  });

  it('-i of a page without controls is empty', () => {
    assert.equal(formatSnapshot('- generic [ref=e1]:\n  - paragraph [ref=e2]: hello\n', true), '');
    assert.equal(formatSnapshot('', false), '');
  });
});

import assert from 'node:assert/strict';
import { ToolError } from '../../../../../src/core/tools/errors';
import { pageText, SUBSTANTIAL_CHARS } from '../../../../../src/core/tools/web/extract';
import { cutToBudget, estimateTokens } from '../../../../../src/core/tools/web/textBudget';

const URL_ = 'https://example.org/blog/posts/rust-release.html';
const html = (s: string) => Buffer.from(s, 'utf8');

const PARAGRAPHS = [
  'The release brings a reworked borrow checker that accepts more programs which were always sound.',
  'Compile times improved across the board, with incremental builds of large workspaces faster by a fifth.',
  'The standard library gains new iterator adapters, and several long-unstable APIs are finally stabilised.',
  'Cargo now resolves features per target, removing a long-standing source of surprising rebuilds.',
  'Documentation was rewritten in places, with examples for every newly stabilised function and type.',
  'Error messages point at the exact expression at fault and suggest the edit that would fix it.',
];

const ARTICLE_PAGE = `<!doctype html><html><head><title>Release 2.0 | Example Blog</title>
<style>body { color: red } .secret-style-marker {}</style>
<script>window.trackingSecret = "SCRIPT-MARKER-123"; document.write("x");</script></head>
<body>
<nav class="site-nav"><ul><li><a href="/">Home</a></li><li><a href="/about">About us</a></li><li><a href="/shop">NAVMARKER shop</a></li></ul></nav>
<div class="ad banner sponsor">ADMARKER Buy cheap widgets now!</div>
<main><article>
<h1>Release 2.0 is here</h1>
${PARAGRAPHS.map((p) => `<p>${p} ${p}</p>`).join('\n')}
<p>Read the <a href="../notes/2.0.html">full release notes</a> for details.</p>
<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==" alt="pixel">
${PARAGRAPHS.map((p) => `<p>${p.toUpperCase()} Again, at more length: ${p}</p>`).join('\n')}
</article></main>
<script>console.log("SCRIPT-MARKER-456")</script>
<footer class="site-footer"><p>FOOTERMARKER © Example Org. <a href="/privacy">Privacy</a></p></footer>
</body></html>`;

const SHORT_PAGE = `<html><head><title>Short page</title><script>var SCRIPT_MARKER_S = 1;</script></head><body>
<h1>Getting started</h1><p>See the <a href="../docs/install.html">install guide</a> and <a href="https://other.example/x">elsewhere</a>.</p>
<h2>Next steps</h2><ul><li>One</li><li>Two</li></ul>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="tiny"><img src="/img/logo.png" alt="logo">
<noscript>NOSCRIPT-MARKER</noscript><form><input name="q"><button>FORMMARKER</button></form>
<svg><text>SVGMARKER</text></svg><iframe src="https://ads.example/"></iframe>
</body></html>`;

describe('pageText', () => {
  it('extracts the article from a substantial page, dropping nav, footer, ads and scripts', () => {
    const r = pageText(html(ARTICLE_PAGE), 'text/html; charset=utf-8', URL_);
    assert.equal(r.method, 'readability');
    assert.ok(r.title?.includes('Release 2.0'), r.title);
    for (const p of PARAGRAPHS) assert.ok(r.text.includes(p), `missing: ${p}`);
    for (const gone of ['NAVMARKER', 'FOOTERMARKER', 'ADMARKER', 'SCRIPT-MARKER', 'trackingSecret', 'secret-style']) {
      assert.ok(!r.text.includes(gone), `kept ${gone}`);
    }
    assert.ok(r.text.includes('[full release notes](https://example.org/blog/notes/2.0.html)'), r.text);
    assert.ok(!r.text.includes('data:'), 'data: image kept');
    assert.equal(r.truncated, false);
    assert.equal(r.tokens, estimateTokens(r.text));
  });

  it('converts a short page whole to Markdown with absolute links', () => {
    const r = pageText(html(SHORT_PAGE), 'text/html', URL_);
    assert.equal(r.method, 'markdown');
    assert.equal(r.title, 'Short page');
    assert.match(r.text, /^# Getting started$/m);
    assert.match(r.text, /^## Next steps$/m);
    assert.match(r.text, /^- {1,3}One$/m);
    assert.ok(r.text.includes('[install guide](https://example.org/blog/docs/install.html)'), r.text);
    assert.ok(r.text.includes('[elsewhere](https://other.example/x)'));
    assert.ok(r.text.includes('![logo](https://example.org/img/logo.png)'), r.text);
    for (const gone of ['data:', 'tiny', 'SCRIPT_MARKER', 'NOSCRIPT-MARKER', 'FORMMARKER', 'SVGMARKER', 'ads.example']) {
      assert.ok(!r.text.includes(gone), `kept ${gone}`);
    }
  });

  it('uses the visible-text threshold, not the markup size, to choose Readability', () => {
    const padded = `<html><body><script>${'x'.repeat(5000)}</script><p>${'a'.repeat(SUBSTANTIAL_CHARS - 10)}</p></body></html>`;
    assert.equal(pageText(html(padded), 'text/html', URL_).method, 'markdown');
  });

  it('decodes the body by the declared charset (latin1, windows-1252)', () => {
    const page = '<html><head><title>Café</title></head><body><p>Crème brûlée à ½ · ñ</p></body></html>';
    const r = pageText(Buffer.from(page, 'latin1'), 'text/html; charset=ISO-8859-1', URL_);
    assert.equal(r.title, 'Café');
    assert.ok(r.text.includes('Crème brûlée à ½ · ñ'), r.text);
    const cp = Buffer.from([0x93, 0x71, 0x94, 0x20, 0x80]); // “q” €
    assert.equal(pageText(cp, 'text/plain; charset="windows-1252"', URL_).text, '\u201cq\u201d \u20ac');
  });

  it('decodes invalid UTF-8 lossily and unknown charsets as UTF-8', () => {
    const bad = Buffer.concat([Buffer.from('ok '), Buffer.from([0xff, 0xfe, 0x41])]);
    assert.equal(pageText(bad, 'text/plain', URL_).text, 'ok \ufffd\ufffdA');
    assert.equal(pageText(Buffer.from('héllo'), 'text/plain; charset=x-nonsense', URL_).text, 'héllo');
  });

  it('cuts a huge page to the budget at a line boundary', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `<p>Paragraph ${i} — ünïcödé text to fill the page.</p>`);
    const r = pageText(html(`<html><body><h1>Huge</h1>${rows.join('')}</body></html>`), 'text/html', URL_, 500);
    assert.equal(r.truncated, true);
    assert.ok(r.tokens <= 500, String(r.tokens));
    assert.equal(r.tokens, estimateTokens(r.text));
    assert.match(r.text, /text to fill the page\.$/);
    assert.ok(!r.text.includes('\ufffd'));
    const def = pageText(html(`<html><body>${rows.join('')}</body></html>`), 'text/html', URL_);
    assert.ok(def.truncated && def.tokens <= 5000 && def.tokens > 4900, String(def.tokens));
  });

  it('never cuts inside a character when one line exceeds the budget', () => {
    const cut = cutToBudget('€'.repeat(10), 2); // 8 bytes allowed; € is 3 bytes
    assert.deepEqual(cut, { text: '€€', truncated: true });
    assert.deepEqual(cutToBudget('short', 5), { text: 'short', truncated: false });
  });

  it('passes text/plain, text/markdown and JSON through as is, collapsing blank runs', () => {
    const r = pageText(Buffer.from('line 1\r\n\r\n\r\n\r\nline 2\n'), 'text/plain; charset=utf-8', URL_);
    assert.deepEqual(r, { title: undefined, text: 'line 1\n\nline 2', method: 'plain', truncated: false, tokens: 4 });
    assert.equal(pageText(Buffer.from('# T\n\n<b>x</b>'), 'text/markdown', URL_).text, '# T\n\n<b>x</b>');
    const json = '{"a": [1, 2],\n "b": "<p>"}';
    const j = pageText(Buffer.from(json), 'application/json', URL_);
    assert.equal(j.method, 'plain');
    assert.equal(j.text, json);
  });

  it('refuses content that is not text with a ToolError that says what to do', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    for (const type of ['image/png', 'application/pdf', 'application/octet-stream', '']) {
      assert.throws(
        () => pageText(png, type, URL_),
        (e: unknown) => e instanceof ToolError && /not text/.test(e.message) && /instead/.test(e.message),
        type,
      );
    }
  });

  it('sniffs HTML when the content type is missing', () => {
    assert.equal(pageText(html('<!DOCTYPE html><p>hi</p>'), '', URL_).method, 'markdown');
  });

  it('converts HTML that has no <body> tag (implied structure)', () => {
    const r = pageText(html('<title>Frag</title><h1>Hi</h1><p><a href="x">l</a></p>'), 'text/html', URL_);
    assert.deepEqual([r.title, r.text], ['Frag', '# Hi\n\n[l](https://example.org/blog/posts/x)']);
    assert.equal(pageText(html('<!DOCTYPE html><p>hi</p>'), 'text/html', URL_).text, 'hi');
  });
});

import { TextDecoder } from 'node:util';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { ToolError } from '../errors';
import { cutToBudget, estimateTokens, tidyText } from './textBudget';

/** The readable text of one fetched page, already within its token budget. */
export interface PageText {
  /** The document's title (Readability's, else `<title>`); undefined for non-HTML or when absent. */
  title: string | undefined;
  /** Markdown for HTML, the decoded body for plain text; at most `budgetTokens` tokens. */
  text: string;
  /** `readability`: article extraction of a substantial page; `markdown`: the whole (short) page. */
  method: 'readability' | 'markdown' | 'plain';
  /** True when `text` was cut at a line boundary to fit the budget. */
  truncated: boolean;
  /** `estimateTokens(text)`: ceil(UTF-8 bytes / 4). */
  tokens: number;
}

/**
 * An HTML page whose visible body text (whitespace collapsed, after removing scripts, styles and
 * other non-content elements) has at least this many characters goes through Readability; shorter
 * pages are converted whole, because Readability tends to discard most of a small page (its own
 * default `charThreshold` is 500 characters for the article alone).
 */
export const SUBSTANTIAL_CHARS = 1500;

/** Elements that never carry readable text, removed before anything else looks at the page. */
const STRIPPED = ['script', 'style', 'noscript', 'iframe', 'svg', 'form', 'template', 'object', 'embed'];

type MediaKind = 'html' | 'plain';

/** The few DOM members used here; the project compiles without the DOM lib. */
interface El {
  textContent: string | null;
  innerHTML: string;
  outerHTML: string;
  remove(): void;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
}
interface Doc {
  title: string;
  body: El | null;
  documentElement: El | null;
  querySelector(selectors: string): El | null;
  querySelectorAll(selectors: string): Iterable<El>;
}
// linkedom's types are ESM-only, but its package serves CommonJS to require(); esbuild bundles it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseHTML } = require('linkedom') as { parseHTML(html: string): { document: Doc } };

/**
 * Turns a fetched body into budgeted text for the model. HTML becomes Markdown (via Readability for
 * substantial pages); text/plain, text/markdown, JSON and other textual types pass through as is.
 * Throws a ToolError for content that is not text (images, PDFs, archives, octet streams).
 */
export function pageText(body: Buffer, contentType: string, url: string, budgetTokens = 5000): PageText {
  const { mediaType, charset } = parseContentType(contentType);
  const kind = mediaKind(mediaType, body);
  const decoded = decode(body, charset);
  let title: string | undefined;
  let method: PageText['method'] = 'plain';
  let text = decoded;
  if (kind === 'html') ({ title, method, text } = htmlToMarkdown(decoded, url));
  const cut = cutToBudget(tidyText(text), budgetTokens);
  return { title, text: cut.text, method, truncated: cut.truncated, tokens: estimateTokens(cut.text) };
}

function parseContentType(contentType: string): { mediaType: string; charset: string | undefined } {
  const [type = '', ...params] = contentType.split(';');
  let charset: string | undefined;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p);
    if (m?.[1]) charset = m[1].toLowerCase();
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

function mediaKind(mediaType: string, body: Buffer): MediaKind {
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType.startsWith('text/')) return 'plain';
  if (/^application\/([\w.-]+\+)?(json|xml)$/.test(mediaType)) return 'plain';
  if (mediaType === 'application/javascript' || mediaType === 'application/x-ndjson') return 'plain';
  if (mediaType === '') {
    // No content type: sniff a little, as browsers do, but never guess binary to be text.
    const head = body.subarray(0, 512).toString('latin1');
    if (/^\s*(<!doctype html|<html|<head|<body)/i.test(head)) return 'html';
    if (!head.includes('\0')) return 'plain';
  }
  const shown = mediaType || 'unknown (binary)';
  throw new ToolError(
    `The page's content type is ${shown}, which is not text, so it cannot be shown. ` +
      'Open an HTML or plain-text page instead (for a document, look for an HTML version or a summary page).',
  );
}

/** Decodes by the declared charset; utf-8 when absent or unknown. Invalid bytes become U+FFFD. */
function decode(body: Buffer, charset: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8'); // RangeError: a label TextDecoder does not know.
  }
  // Node 20's TextDecoder decodes windows-1252 (which latin1/iso-8859-1 labels also mean) as
  // ISO-8859-1, turning 0x80–0x9F into control characters; map that range by the WHATWG table.
  if (decoder.encoding === 'windows-1252') {
    return body.toString('latin1').replace(/[\x80-\x9f]/g, (c) => CP1252[c.charCodeAt(0) - 0x80] ?? c);
  }
  return decoder.decode(body);
}

/** windows-1252 bytes 0x80–0x9F; the five unassigned bytes keep their control code, as WHATWG says. */
const CP1252 = Array.from(
  '\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f' +
    '\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178',
);

/**
 * linkedom does not build the implied `<html>/<head>/<body>` a browser parser would, so a page
 * without a `<body>` tag (legal HTML) would leave `document.body` empty. Give it the structure.
 */
function withBody(html: string): string {
  if (/<body[\s>]/i.test(html)) return html;
  let head = '';
  const rest = html
    .replace(/<!doctype[^>]*>/i, '')
    .replace(/<\/?html(\s[^>]*)?>/gi, '')
    .replace(/<head(\s[^>]*)?>([\s\S]*?)<\/head>/i, (_m, _a, inner: string) => ((head += inner), ''))
    .replace(/<title(\s[^>]*)?>[\s\S]*?<\/title>/i, (m) => ((head += m), ''));
  return `<!DOCTYPE html><html><head>${head}</head><body>${rest}</body></html>`;
}

function htmlToMarkdown(raw: string, url: string): Pick<PageText, 'title' | 'method' | 'text'> {
  const html = withBody(raw);
  const { document } = parseHTML(html);
  cleanDocument(document, url);
  const docTitle = document.title?.trim() || undefined;
  const visible = (document.body?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const turndown = makeTurndown();
  if (visible.length >= SUBSTANTIAL_CHARS) {
    let article: ReturnType<Readability['parse']> = null;
    try {
      article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
    } catch {
      article = null; // A Readability failure only costs the extraction; fall back below.
    }
    if (article?.content) {
      const title = article.title?.trim() || docTitle;
      return { title, method: 'readability', text: turndown.turndown(article.content) };
    }
    // Readability mutates the document; convert the untouched page instead.
    const fresh = parseHTML(html).document;
    cleanDocument(fresh, url);
    return { title: docTitle, method: 'readability', text: turndown.turndown(bodyHtml(fresh)) };
  }
  return { title: docTitle, method: 'markdown', text: turndown.turndown(bodyHtml(document)) };
}

function bodyHtml(document: Doc): string {
  return document.body?.innerHTML ?? document.documentElement?.outerHTML ?? '';
}

/**
 * Removes non-content elements and data: images, and makes link and image URLs absolute against
 * the page URL (or its `<base href>`), so the Markdown works out of context.
 */
function cleanDocument(document: Doc, url: string): void {
  for (const el of document.querySelectorAll(STRIPPED.join(','))) el.remove();
  const base = baseUrl(document, url);
  for (const img of document.querySelectorAll('img, source')) {
    img.removeAttribute('srcset');
    const src = img.getAttribute('src');
    if (src === null) continue;
    if (/^\s*data:/i.test(src)) {
      img.remove();
      continue;
    }
    img.setAttribute('src', absolute(src, base));
  }
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') ?? '';
    if (/^\s*(javascript|data|vbscript):/i.test(href)) a.removeAttribute('href');
    else if (!href.trim().startsWith('#')) a.setAttribute('href', absolute(href, base));
  }
}

function baseUrl(document: Doc, url: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  return href ? absolute(href, url) : url;
}

function absolute(ref: string, base: string): string {
  try {
    return new URL(ref.trim(), base).href;
  } catch {
    return ref;
  }
}

function makeTurndown(): TurndownService {
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.remove(STRIPPED as TurndownService.Filter);
  // Belt and braces: an image whose source is a data: URI (e.g. from Readability's lazy-image
  // handling) is dropped rather than emitted as a huge inline blob.
  td.addRule('dropDataImages', {
    filter: (node) => node.nodeName === 'IMG' && /^\s*data:/i.test(node.getAttribute('src') ?? ''),
    replacement: () => '',
  });
  return td;
}

/**
 * Markdown to HTML that is safe to assign to innerHTML: markdown-it with raw HTML off (`<script>`,
 * `<img onerror>` come out as text), images off (the CSP would block them anyway), and links kept
 * only when they are http(s) or mailto (`javascript:`, `data:`, `command:` become plain text).
 */
import MarkdownIt from 'markdown-it';

const SAFE_LINK = /^(https?:|mailto:)/i;

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });
md.disable('image');
md.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim());

export function renderMarkdown(text: string): string {
  return md.render(text);
}

import { randomBytes } from 'node:crypto';

/** The two webview programs, bundled into dist/webview/<name>.js with their <name>.css. */
export type WebviewBundle = 'chat' | 'missionControl';

/** The folder (relative to the extension) the webviews may load from; nothing else is a local resource root. */
export const WEBVIEW_DIST = ['dist', 'webview'] as const;

export interface HtmlInputs {
  bundle: WebviewBundle;
  title: string;
  /** The webview's `cspSource`. */
  cspSource: string;
  /** The webview URI of a file in WEBVIEW_DIST (`asWebviewUri`), as a string. */
  resource(file: string): string;
  /** Fixed in tests; a fresh random one per render otherwise. */
  nonce?: string;
}

/** A fresh nonce for one render: 128 random bits, base64. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The HTML of a Magi webview: CSP `default-src 'none'`, styles and fonts only from the webview's
 * own source (plus a nonce), the one script by nonce, images from the webview source or data URIs.
 * Plain Node so it is unit-tested; the host passes the webview's cspSource and asWebviewUri.
 */
export function webviewHtml(inputs: HtmlInputs): string {
  const nonce = inputs.nonce ?? newNonce();
  const csp = [
    "default-src 'none'",
    `style-src ${inputs.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${inputs.cspSource}`,
    `img-src ${inputs.cspSource} data:`,
  ].join('; ');
  const attr = (value: string): string => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta property="csp-nonce" content="${nonce}"><!-- the toolkit reads it for the style element it adds -->
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${attr(inputs.resource('codicon.css'))}">
<link rel="stylesheet" nonce="${nonce}" href="${attr(inputs.resource(`${inputs.bundle}.css`))}">
<title>${attr(inputs.title)}</title>
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}" src="${attr(inputs.resource(`${inputs.bundle}.js`))}"></script>
</body>
</html>`;
}

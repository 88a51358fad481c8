import * as vscode from 'vscode';
import type { HostMessage } from '../../../webview/protocol';
import { WEBVIEW_DIST, webviewHtml, type WebviewBundle } from './html';

/** Scripts on, and only the built webview folder as a local resource root. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, ...WEBVIEW_DIST)] };
}

/** Sets the options and a fresh render (new nonce) of the bundle's HTML. */
export function showBundle(webview: vscode.Webview, extensionUri: vscode.Uri, bundle: WebviewBundle, title: string): void {
  webview.options = webviewOptions(extensionUri);
  webview.html = webviewHtml({
    bundle,
    title,
    cspSource: webview.cspSource,
    resource: (file) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...WEBVIEW_DIST, file)).toString(),
  });
}

/**
 * Posts to a webview without awaiting: a webview that is gone drops the message (it replays on
 * its next `ready`), and a failed post is logged, never thrown into the run that produced it.
 */
export function poster(webview: vscode.Webview): (message: HostMessage) => void {
  return (message) => {
    webview.postMessage(message).then(undefined, (err: unknown) => {
      console.error(`magi: posting ${message.type} to a webview failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  };
}

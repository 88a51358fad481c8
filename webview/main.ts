import type { HostMessage, WebviewMessage } from './protocol';

/** The part of VS Code's webview API this script uses (injected as a global by VS Code). */
declare function acquireVsCodeApi(): { postMessage(message: WebviewMessage): void };

/** The list keeps the newest lines only, so a long session cannot grow the DOM without bound. */
const MAX_LINES = 500;

const vscode = acquireVsCodeApi();
const list = document.createElement('ol');
list.className = 'activity';
document.body.append(list);

function render(message: HostMessage): void {
  switch (message.type) {
    case 'activity':
      for (const line of message.lines) {
        const item = document.createElement('li');
        item.textContent = line;
        list.append(item);
      }
      while (list.childElementCount > MAX_LINES) list.firstElementChild?.remove();
      break;
    case 'clear':
      list.replaceChildren();
      break;
    default: {
      const unknown: never = message;
      throw new Error(`unknown host message ${JSON.stringify(unknown)}`);
    }
  }
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => render(event.data));
vscode.postMessage({ type: 'ready' });

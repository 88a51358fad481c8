import { isHostMessage, type HostMessage, type WebviewMessage } from '../protocol';

/** The part of VS Code's webview API the scripts use (injected as a global by VS Code, once per page). */
interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** acquireVsCodeApi may be called only once per page, so every module shares this one. */
export const vscode: VsCodeApi = acquireVsCodeApi();

export function post(message: WebviewMessage): void {
  vscode.postMessage(message);
}

/** Calls `handle` with each message from the host that is a well-formed HostMessage; anything else is ignored. */
export function onHostMessage(handle: (message: HostMessage) => void): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (isHostMessage(event.data)) handle(event.data);
  });
}

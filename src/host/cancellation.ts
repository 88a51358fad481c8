import type * as vscode from 'vscode';

/**
 * The one crossing from VS Code's `CancellationToken` to the core's `AbortSignal`. The signal is
 * already aborted when the token was; `dispose()` removes the listener (call it when the work ends).
 */
export function abortSignalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}

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

/** `work`'s result, or a rejection with the abort reason as soon as `signal` aborts (the work itself cannot be cancelled). */
export function abortable<T>(work: Thenable<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

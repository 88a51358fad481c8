import * as vscode from 'vscode';

export interface SettleOptions {
  /** Quiet time after the last change that counts as settled. */
  quietMs: number;
  /** Upper bound of the whole wait. */
  maxMs: number;
  /** Start the quiet timer at once, as if a change had just been seen. */
  seenAlready?: boolean;
  signal: AbortSignal;
}

/**
 * Waits until the diagnostics of `uris` (their `toString()`) have changed and then stayed quiet for
 * `quietMs`, or until `maxMs` passed. Resolves true when at least one change was seen, false on a
 * timeout without any; rejects with the abort reason. The listener and timers are always removed.
 * The quiet time matters because TypeScript publishes syntax and semantic results in separate updates.
 */
export function diagnosticsSettled(uris: ReadonlySet<string>, options: SettleOptions): Promise<boolean> {
  const { quietMs, maxMs, signal } = options;
  return new Promise<boolean>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    let seen = options.seenAlready ?? false;
    let quiet: NodeJS.Timeout | undefined;
    const cleanup = (): void => {
      clearTimeout(overall);
      clearTimeout(quiet);
      subscription.dispose();
      signal.removeEventListener('abort', onAbort);
    };
    const finish = (value: boolean): void => {
      cleanup();
      resolve(value);
    };
    const onAbort = (): void => {
      cleanup();
      reject(signal.reason);
    };
    const restartQuiet = (): void => {
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(true), quietMs);
    };
    const overall = setTimeout(() => finish(seen), maxMs);
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((uri) => uris.has(uri.toString()))) return;
      seen = true;
      restartQuiet();
    });
    signal.addEventListener('abort', onAbort, { once: true });
    if (seen) restartQuiet();
  });
}

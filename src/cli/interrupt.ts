/** How long an interrupted `magi` may take to wind down (cancel the call, close its browser) before it exits anyway. */
export const INTERRUPT_GRACE_MS = 3_000;

/** The exit code of an interrupted `magi`, whichever the signal (as `magi tools` and `magi run` document). */
export const INTERRUPTED_EXIT_CODE = 130;

/**
 * A signal that aborts on the first SIGINT or SIGTERM: the running command is cancelled and the
 * process ends once nothing holds it any more. Should something still hold it INTERRUPT_GRACE_MS
 * later — a leaked handle, which is a bug — it says on stderr what held it and exits anyway, so a
 * script or CI job that interrupts `magi` never wedges. A second signal ends it at once: the
 * handlers are gone by then and the default action applies.
 */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    controller.abort();
    // Unref'd: it never delays an exit, it only ends a process that would not end.
    setTimeout(() => {
      // Node does not say which of these are ref'd (stdio pipes are listed too); the kinds still point at the leak.
      const active = process.getActiveResourcesInfo().filter((kind) => kind !== 'Timeout');
      process.stderr.write(`magi: still running ${INTERRUPT_GRACE_MS / 1000} s after ${name} (active: ${active.join(', ') || 'none listed'}); exiting\n`);
      process.exit(INTERRUPTED_EXIT_CODE);
    }, INTERRUPT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller.signal;
}

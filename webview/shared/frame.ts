/**
 * Coalesces work to one run per animation frame: any number of `request()` calls between two
 * frames run `work` once, so a burst of deltas costs one render.
 */
export class FrameScheduler {
  private pending = false;

  constructor(private readonly work: () => void) {}

  request(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.work();
    });
  }
}

/** Runs `work` at most once per `ms`, the last call always landing (trailing edge). */
export function throttle(ms: number, work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      work();
    }, ms);
  };
}

/** Timing helpers shared by the benchmarks: medians, in-process timings, whole-process timings. */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Milliseconds `work` took, and what it returned. */
export async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await work();
  return [performance.now() - start, value];
}

/** Median wall time of `runs` runs of a whole process; `check` sees the first run's output. */
export function processTime(runs: number, command: string, args: string[], cwd: string, check: (stdout: string) => void = () => undefined): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const child = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
    times.push(performance.now() - start);
    if (child.error) throw child.error;
    if (i === 0) check(child.stdout);
  }
  return median(times);
}

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI = path.join(ROOT, 'src', 'cli.ts');

export interface MagiRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the real `magi` CLI (from source, under tsx) as a child process. */
export function spawnMagi(args: readonly string[], env?: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  return spawn(TSX, [CLI, ...args], env ? { env } : {});
}

/** Runs `magi` to completion with `stdin` as its input. */
export function runMagi(args: readonly string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<MagiRun> {
  return new Promise((resolve, reject) => {
    const child = spawnMagi(args, options.env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

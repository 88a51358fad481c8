import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

/** `n` TypeScript files of `functions` small functions each, every one with a `console.log(b, a)` call. */
export async function typescriptTree(dir: string, n: number, functions: number): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
  const file = (i: number): string =>
    Array.from({ length: functions }, (_, k) => `export function f${i}_${k}(a: number, b: string): number {\n  if (a > ${k}) { console.log(b, a); }\n  return a * ${k} + b.length;\n}\n`).join('');
  await Promise.all(Array.from({ length: n }, (_, i) => fsp.writeFile(path.join(dir, `m${String(i).padStart(4, '0')}.ts`), file(i))));
}

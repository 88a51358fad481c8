/**
 * A deterministic generated source tree for the discovery benchmarks: `dirs` folders of
 * `filesPerDir` small source files (100,000 files by default), a few .gitignore files with
 * ignored folders, and a rare marker string in a handful of files; a git repository whose index
 * tracks every file, and `trackedIgnored` files inside ignored folders too (`git add -f`), so the
 * walker reads a real 100,000-entry index. Reused when already built.
 */
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface GeneratedTree {
  root: string;
  files: number;
  /** A string present in exactly `rareCount` files. */
  rare: string;
  rareCount: number;
  /** Files in ignored folders that the index tracks: the walk lists `files + trackedIgnored` with the index, `files` without. */
  trackedIgnored: number;
}

const RARE = 'zq_needle_7f3a';

function source(d: number, f: number): string {
  const name = `item${d}_${f}`;
  const lines = [
    `import { helper } from '../lib/helper';`,
    ``,
    `export interface ${name}Options { depth: number; label: string }`,
    ``,
    `export function ${name}(options: ${name}Options): string {`,
    `  const value = helper(options.depth * ${f + 1});`,
    `  // TODO: handle negative depth for ${name}`,
    `  return \`\${options.label}:\${value}\`;`,
    `}`,
  ];
  if ((d * 31 + f) % 20000 === 7) lines.push(`// ${RARE}`);
  return lines.join('\n') + '\n';
}

/** Builds (or reuses) the tree under the OS temp folder. */
export async function generatedTree(dirs = 5000, filesPerDir = 20): Promise<GeneratedTree> {
  const root = path.join(os.tmpdir(), `magi-bench-tree-${dirs}x${filesPerDir}`);
  // Named for what the tree holds: a tree built before it had an index is built again.
  const stamp = path.join(root, '.complete-with-index');
  let rareCount = 0;
  for (let d = 0; d < dirs; d++) for (let f = 0; f < filesPerDir; f++) if ((d * 31 + f) % 20000 === 7) rareCount++;
  const committedIn = (d: number): boolean => d % 1000 === 0;
  let trackedIgnored = 0;
  for (let d = 0; d < dirs; d += 500) if (committedIn(d)) trackedIgnored++;
  const tree = { root, files: dirs * filesPerDir, rare: RARE, rareCount, trackedIgnored };
  const forced: string[] = [];
  if (await fsp.stat(stamp).then(() => true, () => false)) return tree;

  await fsp.rm(root, { recursive: true, force: true });
  await fsp.mkdir(root, { recursive: true });
  await fsp.writeFile(path.join(root, '.gitignore'), 'build/\n*.log\n');
  for (let d = 0; d < dirs; d++) {
    // Group folders ten to a parent so the tree has depth, as real projects do.
    const dir = path.join(root, `pkg${Math.floor(d / 100)}`, `mod${Math.floor(d / 10) % 10}`, `unit${d}`);
    await fsp.mkdir(dir, { recursive: true });
    if (d % 500 === 0) {
      await fsp.writeFile(path.join(dir, '.gitignore'), 'generated/\n!keep.gen.ts\n*.gen.ts\n');
      await fsp.mkdir(path.join(dir, 'generated'));
      await fsp.writeFile(path.join(dir, 'generated', 'ignored.ts'), source(d, 99));
      // Every other ignored folder also holds a file committed on purpose.
      if (committedIn(d)) {
        await fsp.writeFile(path.join(dir, 'generated', 'committed.ts'), source(d, 98));
        forced.push(path.relative(root, path.join(dir, 'generated', 'committed.ts')));
      }
    }
    await Promise.all(Array.from({ length: filesPerDir }, (_, f) => fsp.writeFile(path.join(dir, `file${f}.ts`), source(d, f))));
  }
  // A git repository, so that ripgrep and fd honour the .gitignore files as our walker does, with
  // every file in its index (a version 2 index, git's default, of about 10 MiB).
  execFileSync('git', ['init', '-q', root]);
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['add', '-f', '--', ...forced], { cwd: root });
  await fsp.writeFile(stamp, '');
  return tree;
}

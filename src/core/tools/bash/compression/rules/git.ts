import { bounded, linesOf, plural, type CompressionRule } from '../types';

const MAX_FILES = 30;
const MAX_HUNKS_PER_FILE = 8;

/** `git status` in the long format or `--short`/`-s` (with or without `-b`). */
export const gitStatus: CompressionRule = {
  name: 'git-status',
  matches: (words) => words[0] === 'git' && words[1] === 'status' && !words.some((w) => w === '-z' || w.startsWith('--porcelain=v2') || w === '--help'),
  summarize(output) {
    const lines = linesOf(output);
    const staged: string[] = [];
    const unstaged: string[] = [];
    const untracked: string[] = [];
    const conflicted: string[] = [];
    const head: string[] = [];
    const short = lines.filter((l) => l !== '').every((l) => /^(## |[ MTADRCU?!]{2} )/.test(l));
    if (short) {
      for (const line of lines) {
        if (line.startsWith('## ')) head.push(`branch: ${line.slice(3)}`);
        else if (line.length > 3) {
          const [x, y, file] = [line[0], line[1], line.slice(3)];
          if (x === '?' && y === '?') untracked.push(file);
          else if (x === '!') continue;
          else if (x === 'U' || y === 'U' || (x === 'A' && y === 'A') || (x === 'D' && y === 'D')) conflicted.push(file);
          else {
            if (x !== ' ') staged.push(`${x} ${file}`);
            if (y !== ' ') unstaged.push(`${y} ${file}`);
          }
        }
      }
    } else {
      let section: string[] | undefined;
      for (const line of lines) {
        if (/^(On branch |HEAD detached |Your branch |No commits yet|nothing to commit|You have unmerged|All conflicts fixed|interactive rebase|You are currently)/.test(line)) head.push(line.startsWith('On branch ') ? `branch: ${line.slice(10)}` : line);
        else if (line.startsWith('Changes to be committed:')) section = staged;
        else if (line.startsWith('Changes not staged for commit:')) section = unstaged;
        else if (line.startsWith('Untracked files:')) section = untracked;
        else if (line.startsWith('Unmerged paths:')) section = conflicted;
        else if (line === '') section = undefined;
        else if (section && line.startsWith('\t')) section.push(line.slice(1).replace(/:\s+/, ': '));
      }
      if (head.length === 0) return undefined;
    }
    const out = [...head, `staged: ${staged.length}, unstaged: ${unstaged.length}, untracked: ${untracked.length}${conflicted.length ? `, conflicted: ${conflicted.length}` : ''}`];
    for (const [title, list] of [['conflicted', conflicted], ['staged', staged], ['unstaged', unstaged], ['untracked', untracked]] as const) {
      if (list.length) out.push(`${title}:`, ...bounded(list, MAX_FILES));
    }
    return out.join('\n');
  },
};

const DIFF_SUMMARY_FLAGS = ['--stat', '--numstat', '--shortstat', '--name-only', '--name-status', '--summary', '--raw', '--check', '-z', '--help', '--dirstat', '--compact-summary'];

interface FileDiff { name: string; notes: string[]; added: number; removed: number; hunks: string[] }

/** `git diff` producing a patch: per file its +/- counts and hunk headers. */
export const gitDiff: CompressionRule = {
  name: 'git-diff',
  matches: (words) => words[0] === 'git' && words[1] === 'diff' && !words.some((w) => DIFF_SUMMARY_FLAGS.some((f) => w === f || w.startsWith(`${f}=`))),
  summarize(output) {
    const files: FileDiff[] = [];
    let file: FileDiff | undefined;
    for (const line of linesOf(output)) {
      const header = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
      if (header) {
        const [, from = '', to = ''] = header;
        file = { name: from === to ? to : `${from} → ${to}`, notes: [], added: 0, removed: 0, hunks: [] };
        files.push(file);
      } else if (!file) continue;
      else if (line.startsWith('@@')) file.hunks.push(line);
      // Inside a hunk every +/- line counts (even one whose text starts with `++`); the `---`/`+++`
      // file headers only come before a file's first hunk.
      else if (file.hunks.length && line.startsWith('+')) file.added++;
      else if (file.hunks.length && line.startsWith('-')) file.removed++;
      else if (/^(new file mode|deleted file mode)/.test(line)) file.notes.push(line.startsWith('new') ? 'new' : 'deleted');
      else if (line.startsWith('rename from')) file.notes.push('renamed');
      else if (line.startsWith('Binary files')) file.notes.push('binary');
    }
    if (files.length === 0) return undefined;
    const added = files.reduce((n, f) => n + f.added, 0);
    const removed = files.reduce((n, f) => n + f.removed, 0);
    const out = [`${plural(files.length, 'file')} changed, +${added} -${removed}`];
    const shown = files.slice(0, MAX_FILES);
    for (const f of shown) {
      out.push(`${f.name} (${[...f.notes, `+${f.added} -${f.removed}`].join(', ')})`);
      out.push(...bounded(f.hunks, MAX_HUNKS_PER_FILE));
    }
    if (files.length > shown.length) out.push(`… ${files.length - shown.length} more files`);
    return out.join('\n');
  },
};

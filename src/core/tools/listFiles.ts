import { promises as fsp } from 'node:fs';
import { z } from 'zod';
import { DIR, SPECIAL, SYMLINK } from '../workspace/listingCache';
import { shallowListing, type ShallowEntry } from '../workspace/shallow';
import { defineTool } from './definition';
import { ToolError, messageOf } from './errors';
import { success, type ToolResult } from './result';

/** At most this many entries are shown; the rest are counted. */
export const LIST_FILES_MAX_ENTRIES = 1000;

export const LIST_FILES_DESCRIPTION = `List the direct children of one directory, without reading any file and without recursing.

{"path": "src"} — \`path\` is optional and defaults to the workspace root; it must be an existing directory. Relative paths stay inside the root; absolute paths outside it follow capabilities.tools.list_files.absolute_paths (default true).

Output: one entry per line, sorted in byte order; directories end with "/". Nothing is left out except .git: entries the other tools skip carry marks after two spaces, in this order:
- [symlink] a symbolic link (never followed; a link to a directory has no "/")
- [special] a FIFO, socket or device
- [hidden] the name starts with "."
- [ignored] .gitignore, .ignore, .git/info/exclude, the global git excludes file or Perforce rules exclude it
for example "dist/  [ignored]" or ".env  [hidden, ignored]". At most ${LIST_FILES_MAX_ENTRIES} entries are shown; a longer listing ends with a note giving the total. Metadata: path, entries (the total), truncated.
To find files by name anywhere below a directory use find; to search contents use grep.`;

const input = z.strictObject({
  path: z.string().optional().describe('Directory to list, relative to the workspace root (default) or absolute'),
});

function marks(entry: ShallowEntry): string {
  const found: string[] = [];
  if (entry.kind === SYMLINK) found.push('symlink');
  if (entry.kind === SPECIAL) found.push('special');
  if (entry.hidden) found.push('hidden');
  if (entry.ignored) found.push('ignored');
  return found.length ? `  [${found.join(', ')}]` : '';
}

export const listFilesTool = defineTool({
  name: 'list_files',
  aliases: [],
  description: LIST_FILES_DESCRIPTION,
  mutates: false,
  input,
  async execute(args, ctx): Promise<ToolResult> {
    const { runtime } = ctx;
    const resolved = await runtime.resolve('list_files', args.path ?? '.', 'directory');
    const stat = await fsp.stat(resolved.canonical).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') throw new ToolError(`list_files: ${resolved.display} does not exist; list its parent folder or use find to locate it.`, 'not_found');
      throw new ToolError(`list_files: cannot read ${resolved.display}: ${err.message}`, 'io');
    });
    if (!stat.isDirectory()) throw new ToolError(`list_files: ${resolved.display} is a file, not a directory; use read to see its contents.`);
    ctx.signal.throwIfAborted();
    let entries: ShallowEntry[];
    try {
      entries = shallowListing(runtime.root, resolved.canonical, runtime.listings, runtime.walkEnvironment);
    } catch (err) {
      throw new ToolError(`list_files: cannot list ${resolved.display}: ${messageOf(err)}`, 'io');
    }
    const shown = entries.slice(0, LIST_FILES_MAX_ENTRIES).map((e) => `${e.name}${e.kind === DIR ? '/' : ''}${marks(e)}`);
    const truncated = entries.length > LIST_FILES_MAX_ENTRIES;
    if (truncated) shown.push(`[showing the first ${LIST_FILES_MAX_ENTRIES} of ${entries.length} entries; list a subdirectory, or use find to look for a name]`);
    if (entries.length === 0) shown.push('[empty directory]');
    return success(shown.join('\n'), { path: resolved.display, entries: entries.length, truncated });
  },
});

import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { recheckBeforeWrite } from '../fs/containment';
import { makeFolders, removeFolders } from '../fs/folders';
import { defineTool, unavailableWhenRestricted } from './definition';
import { ToolError } from './errors';
import { withEditDiagnostics } from './language/afterEdit';
import { requireApproval } from './reviewGate';
import { success } from './result';
import type { ToolRuntime } from './runtime';
import { MAX_FILE_BYTES, parseText } from './textDoc';

const DESCRIPTION = `Create a file or replace a file's whole content. Parent folders are created. Use hash_edit to change part of an existing file.

Arguments: {"path": "src/new.ts", "content": "..."}
Limits: content at most 1 MiB (UTF-8); the replacement is atomic (temp file + rename); a path that is a symbolic link is refused; relative paths stay inside the workspace root.`;

export const writeTool = defineTool({
  name: 'write',
  aliases: [],
  description: DESCRIPTION,
  mutates: true,
  unavailable: unavailableWhenRestricted,
  input: z.strictObject({
    path: z.string().min(1).describe('File to create or overwrite'),
    content: z.string().describe('The complete new content'),
  }),
  async execute(args, ctx) {
    const { runtime, signal } = ctx;
    const bytes = Buffer.from(args.content, 'utf8');
    if (bytes.byteLength > MAX_FILE_BYTES) {
      throw new ToolError(`write: content is ${bytes.byteLength} bytes, over the 1 MiB cap; split the file or generate it with a command.`, 'too_large');
    }
    const resolved = await runtime.resolve('write', args.path, 'write');
    const result = await runtime.locks.withLocks([resolved.canonical], async () => {
      const existing = await fsp.lstat(resolved.absolute).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw err;
      });
      if (existing && !existing.isFile()) {
        throw new ToolError(`write: ${resolved.display} exists and is not a regular file; choose another path.`);
      }
      const madeFolders = await makeFolders(path.dirname(resolved.absolute), { tool: 'write', display: resolved.display, within: resolved.within });
      try {
        if (runtime.review) {
          const before = existing ? await currentText(runtime, resolved.absolute, existing.size, signal) : null;
          await requireApproval(runtime, { tool: 'write', files: [{ path: resolved.absolute, display: resolved.display, before, after: args.content }] }, signal);
        }
        await runtime.files.writeFile(resolved.absolute, bytes, { beforeCommit: () => recheckBeforeWrite('write', resolved), signal, within: resolved.within });
      } catch (err) {
        // A failed or rejected write leaves nothing behind, not even the folders it made for the file.
        await removeFolders(madeFolders);
        throw err;
      }
      const lineCount = parseText(args.content).lines.length;
      return success(`${existing ? 'Replaced' : 'Created'} ${resolved.display} (${bytes.byteLength} bytes, ${lineCount} lines). Read it before editing it with hash_edit.`, {
        path: resolved.display,
        bytes: bytes.byteLength,
        created: !existing,
      });
    }, { signal, display: () => resolved.display });
    // Outside the lock: waiting for the language service must not hold up other edits of the file.
    return withEditDiagnostics(result, runtime, [resolved.absolute], signal);
  },
});

/**
 * What the reviewer sees as the file's current text (an editor's unsaved text through the port).
 * `write` may replace any regular file, so a file over the cap or not in UTF-8 is described, not shown.
 */
async function currentText(runtime: ToolRuntime, absolute: string, size: number, signal: AbortSignal): Promise<string> {
  if (size > MAX_FILE_BYTES) return `(${size} bytes, too large to show)`;
  const bytes = await runtime.files.readFile(absolute, signal);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    if (err instanceof TypeError) return `(${bytes.byteLength} bytes, not UTF-8 text)`;
    throw err;
  }
}

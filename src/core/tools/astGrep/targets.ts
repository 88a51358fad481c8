import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../definition';
import { ToolError } from '../errors';
import type { WalkFacts } from '../../workspace/types';
import { languageOfPath, type LanguageId } from './languages';

/** One file to parse: where to open it, how to show it, which grammar. */
export interface TargetFile {
  absolute: string;
  display: string;
  language: LanguageId;
}

export interface Targets {
  files: TargetFile[];
  /** Files of a known language left out because the call's file limit was reached. */
  overLimit: number;
  /** Files skipped for an unknown (or another, when `language` is given) file type. */
  otherTypes: number;
  /** The walk's facts, or null when one file was given. */
  walk: WalkFacts | null;
}

export interface TargetRequest {
  tool: string;
  path: string | undefined;
  /** Only files of this language (by extension); for one named file, the grammar to parse it with. */
  language: LanguageId | undefined;
  /** Restricts a walk to these languages (repo_map's four); undefined means all. */
  languages?: readonly LanguageId[];
  maxFiles: number;
  deadline: number;
}

/**
 * The files one call reads: the given file, or every file of a known language in the shared walk of
 * the given folder (the workspace root by default), in the walk's path order. The path goes through
 * the same containment rules as `read` (`capabilities.tools.<tool>.absolute_paths` outside the root).
 */
export async function collectTargets(request: TargetRequest, ctx: ToolContext): Promise<Targets> {
  const { runtime } = ctx;
  let dir = runtime.root;
  if (request.path !== undefined) {
    const resolved = await runtime.resolve(request.tool, request.path, 'read');
    const stat = await fsp.stat(resolved.canonical).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') {
        throw new ToolError(`${request.tool}: ${resolved.display} does not exist; give an existing file or folder, or omit path for the whole workspace.`, 'not_found');
      }
      throw new ToolError(`${request.tool}: ${resolved.display} cannot be read: ${err.code ?? err.message}.`, 'io');
    });
    if (stat.isFile()) {
      const language = request.language ?? languageOfPath(resolved.canonical);
      const files = language === undefined ? [] : [{ absolute: resolved.canonical, display: resolved.display, language }];
      return { files, overLimit: 0, otherTypes: files.length === 0 ? 1 : 0, walk: null };
    }
    if (!stat.isDirectory()) throw new ToolError(`${request.tool}: ${resolved.display} is not a regular file or folder; it is never read.`);
    dir = resolved.canonical;
  }
  const walk = await runtime.walk(dir, ctx.signal, { timeoutMs: Math.max(0, request.deadline - Date.now()) });
  const out: Targets = { files: [], overLimit: 0, otherTypes: 0, walk: walk.facts };
  for (const file of walk.files) {
    const language = languageOfPath(file);
    if (language === undefined || (request.language !== undefined && language !== request.language) || (request.languages !== undefined && !request.languages.includes(language))) {
      out.otherTypes++;
      continue;
    }
    if (out.files.length >= request.maxFiles) {
      out.overLimit++;
      continue;
    }
    out.files.push({ absolute: walk.base === '' ? file : path.join(walk.base, file), display: file, language });
  }
  return out;
}

/** How long a call works on the event loop's thread before it lets other work run. */
const SLICE_MS = 8;

/** The shared cooperative deadline and cancellation of one call, checked between steps. */
export class Checkpoint {
  private sliceStart = Date.now();

  constructor(readonly signal: AbortSignal, readonly deadline: number) {}

  /**
   * Lets the event loop run (the extension host's other work, a cancel request) once the current
   * slice of synchronous reading and parsing has lasted SLICE_MS.
   */
  async breathe(): Promise<void> {
    if (Date.now() - this.sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = Date.now();
  }

  /** Throws if the call was cancelled. */
  cancelled(): void {
    this.signal.throwIfAborted();
  }

  /** Cancellation throws; a passed deadline returns true (the caller stops with a partial result). */
  expired(): boolean {
    this.signal.throwIfAborted();
    return Date.now() >= this.deadline;
  }
}

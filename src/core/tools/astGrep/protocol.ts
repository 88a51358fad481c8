import type { LanguageId } from './languages';
import type { OutlineSymbol } from './outline/types';

/** What the parse workers do with each file of a call. */
export type Job =
  | { kind: 'search'; pattern: string; rewrite: string | undefined; /** Rows a file contributes at most (the call's limit + 1). */ maxRows: number }
  | { kind: 'outline' };

/** One file, already read and checked by the main thread. */
export interface WorkFile {
  display: string;
  language: LanguageId;
  text: string;
}

export interface WorkBatch {
  id: number;
  job: Job;
  files: WorkFile[];
}

/**
 * A file's result. search: its matches in source order, each as its rows (null for a match whose
 * replacement is over the size limit), cut once `maxRows` rows are collected; outline: its symbols.
 */
export type FileWork =
  | { kind: 'search'; matches: (string[] | null)[] }
  | { kind: 'outline'; symbols: OutlineSymbol[] };

export type WorkReply = { id: number; results: FileWork[] } | { id: number; error: string };

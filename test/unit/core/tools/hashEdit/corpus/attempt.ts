import type { Variant } from './fixtures';
import type { Op } from './model';
import type { Lang } from './sources';

/** What one corpus attempt is, as plain data: the files, the calls, and what the model meant. */

export type Category = 'valid_fresh' | 'stale_outside' | 'stale_session' | 'copied_prefix' | 'miscount' | 'confirm_resend' | 'else_block' | 'messages';

export const CATEGORIES: readonly Category[] = ['valid_fresh', 'stale_outside', 'stale_session', 'copied_prefix', 'miscount', 'confirm_resend', 'else_block', 'messages'];

/** A check on the text of the attempt's first error result. */
export interface MessageSpec {
  name: string;
  /** The message must contain this (case-sensitive). */
  needle: string;
  /** Only checked when the call was refused (else_block: "or the op is refused naming it"). */
  whenRefused?: boolean;
}

/** What the scripted retry re-issues after a refusal, in the numbers of the file as it is then. */
export interface RetryPlan {
  path: string;
  ops: Op[];
  /** The file after a successful retry. */
  expected: string;
}

export interface Attempt {
  /** `category#index`, stable for one seed. */
  id: string;
  category: Category;
  /** Finer class: the kind of edit, of outside change, `detectable`/`undetectable` … */
  subclass: string;
  note: string;
  lang: Lang;
  variant: Variant;
  origin: string;
  /** Relative path -> content, written before the reads. */
  files: Record<string, string>;
  /** The file the attempt edits. */
  path: string;
  /** The edited file as another process rewrote it after the read (stale_outside). */
  outside?: string;
  /** An earlier edit in the same session made with the read tag, and the file it must produce (stale_session). */
  first?: { input: string; expected: string };
  /**
   * The hash_edit input. `{{TAG}}` is the tag the read of `path` showed; `{{TAG:REL}}` another
   * file's; `{{TAG:REL:4}}` its first 4 digits.
   */
  input: string;
  /** The file after the call as the model meant it; null when the call must be refused. */
  intended: string | null;
  /** Other files that are just as exact: the outside change had several readings that give the same text. */
  alsoExact?: string[];
  /** A refusal is acceptable; when false a refusal counts as over-refusal. */
  mayRefuse: boolean;
  /** confirm_resend: after a refusal, send the very same call once more. */
  resend?: boolean;
  retry?: RetryPlan;
  checks: MessageSpec[];
  /** A path that must still not exist afterwards (mistyped paths). */
  mustNotExist?: string;
}

/** The file a `read` of `rel` shows whole: a plain read up to 400 lines, else an explicit range. */
export function wholeRead(rel: string, lineCount: number, plainLines: number): string {
  return lineCount <= plainLines ? rel : `${rel}:1-${Math.max(1, lineCount)}`;
}

/** Lines `op` relies on (1-based, inclusive), for deciding whether a ranged re-read shows them. */
export function opSpan(op: Op): [number, number] | undefined {
  return op.kind === 'INS.HEAD' || op.kind === 'INS.TAIL' ? undefined : [op.a, op.b];
}

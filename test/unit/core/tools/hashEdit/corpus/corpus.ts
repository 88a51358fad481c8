import { createHash } from 'node:crypto';
import type { Attempt, Category } from './attempt';
import type { GenContext } from './craft';
import { basePool } from './fixtures';
import { copiedPrefix, validFresh } from './genFresh';
import { elseBlock, messages, miscount } from './genMore';
import { staleOutside, staleSession } from './genStale';
import { IdSource } from './model';

/**
 * The seeded corpus of hash_edit attempts. The same seed and the same project files give the same
 * attempts (the digest says so); each attempt draws from its own stream, so the counts can change
 * without reshuffling the rest.
 */

/** Attempts per category; miscount also makes as many confirm_resend twins. */
export type Counts = Record<Exclude<Category, 'confirm_resend'>, number>;

/** 1,290 attempts, as the bench runs them. */
export const FULL_COUNTS: Counts = { valid_fresh: 260, stale_outside: 260, stale_session: 170, copied_prefix: 120, miscount: 150, else_block: 120, messages: 60 };
/** About 250 attempts over every category, for the unit test. */
export const QUICK_COUNTS: Counts = { valid_fresh: 50, stale_outside: 50, stale_session: 35, copied_prefix: 24, miscount: 25, else_block: 25, messages: 16 };

export interface Corpus {
  seed: number;
  attempts: Attempt[];
  /** sha256 of every attempt's files and inputs, first 12 hex digits. */
  digest: string;
}

export function buildCorpus(seed: number, counts: Counts, projectRoot: string | undefined): Corpus {
  const ctx: GenContext = { seed, pool: basePool(seed, projectRoot), ids: new IdSource() };
  const attempts: Attempt[] = [];
  const each = (n: number, make: (i: number) => Attempt | Attempt[]) => {
    for (let i = 0; i < n; i++) attempts.push(...[make(i)].flat());
  };
  each(counts.valid_fresh, (i) => validFresh(ctx, i));
  each(counts.stale_outside, (i) => staleOutside(ctx, i));
  each(counts.stale_session, (i) => staleSession(ctx, i));
  each(counts.copied_prefix, (i) => copiedPrefix(ctx, i));
  each(counts.miscount, (i) => miscount(ctx, i));
  each(counts.else_block, (i) => elseBlock(ctx, i));
  each(counts.messages, (i) => messages(ctx, i));
  const hash = createHash('sha256');
  for (const a of attempts) hash.update(JSON.stringify([a.id, a.files, a.outside ?? null, a.first?.input ?? null, a.input]));
  return { seed, attempts, digest: hash.digest('hex').slice(0, 12) };
}

/** The seed from `MAGI_CORPUS_SEED` (decimal), else `fallback`. */
export function seedFrom(env: NodeJS.ProcessEnv, fallback: number): number {
  const raw = env.MAGI_CORPUS_SEED;
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isSafeInteger(value) ? value >>> 0 : fallback;
}

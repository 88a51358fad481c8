import type { Attempt } from './attempt';
import { DriverCrash, type Driver, type Reply } from './driver';
import { scriptedRetry } from './retry';
import { Session, type CheckResult } from './session';

/**
 * Runs attempts through a driver, one fresh file set each, in one session: write files, read them
 * with the real read, optionally change the file behind the session's back (or edit it once in the
 * session), send the hash_edit, and compare the bytes with what the oracle says was meant.
 */

export type Verdict = 'exact' | 'wrong' | 'refused' | 'over_refused' | 'partial' | 'crash';

export interface Outcome {
  attempt: Attempt;
  verdict: Verdict;
  /** Whether the scripted retry ended with the meant file; undefined when it did not run. */
  retried?: boolean;
  /** The text the call was sent with (tags filled in). */
  sent: string;
  /** The file before the call, after it, and what it should have been. */
  before: string;
  after: string;
  expected: string;
  /** The error text, a crash reason, or which stage went wrong. */
  detail: string;
}

/** Fills `{{TAG}}`, `{{TAG:REL}}` and `{{TAG:REL:4}}` from the tags the reads showed. */
export function substitute(input: string, tags: Record<string, string>, path: string): string {
  return input.replace(/\{\{TAG(?::([^}:]+))?(?::(\d+))?\}\}/g, (_m, rel: string | undefined, digits: string | undefined) => {
    const tag = tags[rel ?? path] ?? 'MISSING';
    return digits === undefined ? tag : tag.slice(0, Number(digits));
  });
}

function verdictOf(attempt: Attempt, reply: Reply, before: string, after: string): Verdict {
  if (reply.metadata.error === 'internal') return 'crash';
  if (reply.status === 'success') return after === attempt.intended || (attempt.alsoExact ?? []).includes(after) ? 'exact' : 'wrong';
  if (after !== before) return 'partial';
  return attempt.mayRefuse ? 'refused' : 'over_refused';
}

async function runOne(attempt: Attempt, session: Session): Promise<Outcome> {
  const id = attempt.id;
  const tags: Record<string, string> = {};
  for (const [rel, text] of Object.entries(attempt.files)) await session.write(rel, text);
  for (const rel of Object.keys(attempt.files)) {
    const tag = await session.readWhole(rel, id);
    if (tag === undefined) throw new DriverCrash(`read of ${rel} showed no [path#TAG] header`);
    tags[rel] = tag;
  }
  const original = attempt.files[attempt.path] ?? '';
  const base = { attempt, before: original, after: original, expected: attempt.intended ?? original };
  if (attempt.first) {
    const sent = substitute(attempt.first.input, tags, attempt.path);
    const reply = await session.call('hash_edit', { input: sent }, id);
    const after = (await session.text(attempt.path)) ?? '';
    if (reply.status !== 'success' || after !== attempt.first.expected) {
      const verdict: Verdict = reply.status === 'success' ? 'wrong' : after !== original ? 'partial' : 'over_refused';
      return { ...base, verdict, sent, after, expected: attempt.first.expected, detail: `the first (valid) edit: ${reply.content.slice(0, 400)}` };
    }
  }
  if (attempt.outside !== undefined) await session.write(attempt.path, attempt.outside);
  const before = (await session.text(attempt.path)) ?? '';
  const sent = substitute(attempt.input, tags, attempt.path);
  const first = await session.call('hash_edit', { input: sent }, id);
  let reply = first;
  if (attempt.resend && first.status === 'error' && (await session.text(attempt.path)) === before) {
    reply = await session.call('hash_edit', { input: sent }, id);
  }
  const after = (await session.text(attempt.path)) ?? '';
  const verdict = verdictOf(attempt, reply, before, after);
  for (const spec of attempt.checks) {
    if (first.status === 'error') session.check(id, spec.name, first.content.includes(spec.needle), first.content.slice(0, 400));
    else if (!spec.whenRefused) session.check(id, spec.name, false, 'the call was not refused');
  }
  if (attempt.mustNotExist !== undefined) {
    const created = await session.exists(attempt.mustNotExist);
    session.check(id, 'mistyped path: no file created', !created, created ? `${attempt.mustNotExist} exists` : '');
  }
  const outcome: Outcome = { ...base, verdict, sent, before, after, expected: attempt.intended ?? before, detail: reply.status === 'error' ? reply.content : '' };
  if (verdict === 'refused' || verdict === 'over_refused') {
    if (attempt.retry) outcome.retried = await scriptedRetry(attempt, sent, reply, session);
  }
  return outcome;
}

export interface CorpusRun {
  outcomes: Outcome[];
  checks: CheckResult[];
  ms: number;
}

/** Runs every attempt; a DriverCrash marks that attempt as a crash and the run goes on. */
export async function runCorpus(attempts: readonly Attempt[], driver: Driver, progress?: (done: number) => void): Promise<CorpusRun> {
  const session = new Session(driver);
  const outcomes: Outcome[] = [];
  const start = Date.now();
  for (const attempt of attempts) {
    try {
      outcomes.push(await runOne(attempt, session));
    } catch (err) {
      if (!(err instanceof DriverCrash)) throw err;
      const original = attempt.files[attempt.path] ?? '';
      outcomes.push({ attempt, verdict: 'crash', sent: attempt.input, before: original, after: (await session.text(attempt.path)) ?? '', expected: attempt.intended ?? original, detail: err.message });
    }
    progress?.(outcomes.length);
  }
  return { outcomes, checks: session.checks, ms: Date.now() - start };
}

import { opSpan, type Attempt, type RetryPlan } from './attempt';
import { renderSection, similarity } from './model';
import type { Reply } from './driver';
import type { Session } from './session';

/**
 * The scripted retry after a refusal: it reads only the error text, does what the text says, and
 * where it must re-read it takes line numbers from the oracle — what a model does by looking at
 * the re-read file. It never uses the generator's knowledge of what went wrong.
 */

const MAX_ROUNDS = 3;

const headerOf = (input: string): { path: string; tag: string } | undefined => {
  const m = /^\[(.*)#([^\]#]*)\]$/m.exec(input);
  return m ? { path: m[1] as string, tag: m[2] as string } : undefined;
};

const withHeader = (input: string, path: string, tag: string): string => input.replace(/^\[.*#[^\]#]*\]$/m, `[${path}#${tag}]`);

/** The plan's ops under a fresh tag: a ranged read when it shows every line they rely on, else a whole read. */
async function replan(plan: RetryPlan, session: Session, id: string, range?: [string, number, number]): Promise<string | undefined> {
  if (range) {
    const [p, a, b] = range;
    const { tag } = await session.read(`${p}:${a}-${b}`, id);
    const inside = plan.ops.every((op) => {
      const span = opSpan(op);
      return span === undefined || (span[0] >= a && span[1] <= b);
    });
    if (tag && inside) return renderSection(plan.path, tag, plan.ops);
  }
  const tag = await session.readWhole(plan.path, id);
  return tag ? renderSection(plan.path, tag, plan.ops) : undefined;
}

/** `find` for the folder of a path that does not exist; the listed file whose name is closest. */
async function locate(missing: string, session: Session, id: string): Promise<string | undefined> {
  const slash = missing.lastIndexOf('/');
  const reply = await session.call('find', { query: slash > 0 ? missing.slice(0, slash + 1) : missing }, id);
  if (reply.status !== 'success') return undefined;
  const name = missing.slice(slash + 1);
  const found = reply.content.split('\n').filter((l) => l && !l.startsWith('[') && !l.endsWith('/'));
  return found.sort((x, y) => similarity(y.split('/').pop() ?? '', name) - similarity(x.split('/').pop() ?? '', name))[0];
}

/** The next input after an error with text `text`, or undefined when the text gives nothing to act on. */
async function nextInput(plan: RetryPlan, input: string, error: Reply, session: Session, id: string): Promise<string | undefined> {
  const text = error.content;
  const stale = /\(read ([^\s)]+):(\d+)-(\d+)\)/.exec(text);
  if (stale && /stale/.test(text)) return replan(plan, session, id, [stale[1] as string, Number(stale[2]), Number(stale[3])]);
  if (text.includes('drop the LINE: prefix')) return input.split('\n').map((r) => (r.startsWith('+') ? '+' + r.slice(1).replace(/^\d+:/, '') : r)).join('\n');
  const suggested = /did you mean `SWAP (\d+)(?:\.=(\d+))?`/.exec(text);
  if (suggested) {
    const range = suggested[2] === undefined ? suggested[1] : `${suggested[1]}.=${suggested[2]}`;
    return input.replace(/^SWAP \d+(?:\.=\d+)?:$/m, `SWAP ${range}:`);
  }
  if (/not produced for|six hex digits|not a hex tag/.test(text)) {
    const header = headerOf(input);
    const tag = header && (await session.readWhole(header.path, id));
    return header && tag ? withHeader(input, header.path, tag) : undefined;
  }
  // The rows are named after the op ("input line 2: SWAP has no +TEXT body rows: input lines 3-4 …"): take the last.
  const rows = [...text.matchAll(/input lines? (\d+)(?:-(\d+))?/g)].pop();
  if (rows && /'\+'|\+TEXT/.test(text)) {
    const from = Number(rows[1]);
    const to = Number(rows[2] ?? rows[1]);
    return input.split('\n').map((r, i) => (i + 1 >= from && i + 1 <= to && !r.startsWith('+') ? `+${r}` : r)).join('\n');
  }
  if (text.includes('use find')) {
    const header = headerOf(input);
    const found = header && (await locate(header.path, session, id));
    const tag = found && (await session.readWhole(found, id));
    return header && found && tag ? withHeader(input, found, tag) : undefined;
  }
  // Doing what "does not exist … create it with write" says would create the mistyped file: give up.
  if (/does not exist/.test(text)) return undefined;
  // "re-read the file", "use SWAP/DEL with an explicit range", and everything else: look again and redo the edit.
  return replan(plan, session, id);
}

/**
 * Retries a refused attempt for up to three rounds. True when a call succeeded and left the
 * plan's file exactly as meant; false when the text led nowhere, a call wrote something else, or a
 * refusal changed the file.
 */
export async function scriptedRetry(attempt: Attempt, input: string, error: Reply, session: Session): Promise<boolean> {
  const plan = attempt.retry;
  if (!plan) return false;
  let last = { input, error };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = await nextInput(plan, last.input, last.error, session, attempt.id);
    if (next === undefined) return false;
    const before = await session.text(plan.path);
    const reply = await session.call('hash_edit', { input: next }, attempt.id);
    const after = await session.text(plan.path);
    if (reply.status === 'success') return after === plan.expected;
    if (after !== before) return false;
    last = { input: next, error: reply };
  }
  return false;
}

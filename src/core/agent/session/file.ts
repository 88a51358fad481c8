/**
 * Reading and appending session files (JSON Lines). Durability model: every event is one line,
 * written with a single `write` on a descriptor opened with O_APPEND and `fdatasync`ed before its
 * promise resolves; appends are queued so lines never interleave. A crash can therefore leave at
 * most the last line torn — `loadSession` skips it and `SessionFile.open` cuts it off before
 * appending, so the file stays valid JSON Lines.
 */
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errnoOf } from '../../fs/paths';
import { SESSION_FORMAT_VERSION, SessionError, sessionEventSchema } from './types';
import type { SessionEvent, SessionEventBody, SessionStartEvent } from './types';

/** An event to append; `at` defaults to now. */
export type SessionEventInput = SessionEventBody & { at?: number };

export interface SessionStartInfo {
  id: string;
  cwd: string;
  provider: string;
  model: string;
  /** Epoch ms; defaults to now. */
  createdAt?: number;
}

export interface LoadedSession {
  events: SessionEvent[];
  start: SessionStartEvent;
  /** The file ended in a partial or non-JSON line (a crash mid-write); it was skipped. */
  tornTail: boolean;
  /** Lines skipped as torn: 0 or 1. */
  skipped: number;
  /** Byte length of the valid prefix: where the next line must start. */
  validBytes: number;
}

const NEWLINE = 0x0a;
/** Characters of a bad line quoted in an error, enough to recognise it without dumping it. */
const QUOTE_CHARS = 80;

/** A random url-safe session id (16 characters, 96 bits). */
export function newSessionId(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * `<cwd>/.magi/sessions/<timestamp>-<id>.jsonl`, the timestamp being the UTC ISO 8601 date-time with
 * `-` for `:` (Windows forbids colons in file names) so the files sort by creation time.
 */
export function defaultSessionPath(cwd: string, id: string, now: Date = new Date()): string {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`Session id ${JSON.stringify(id)} is not url-safe: use newSessionId()`);
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
  return path.join(cwd, '.magi', 'sessions', `${stamp}-${id}.jsonl`);
}

function quote(line: string): string {
  return JSON.stringify(line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line);
}

/** Parses one line's JSON, or undefined when it is not JSON at all. */
function parseJson(line: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(line) as unknown };
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/**
 * Reads and validates a whole session file. A torn last line — bytes after the final newline, or a
 * final line that is not JSON — is skipped and reported (`tornTail`); any other bad line means the
 * file is corrupt and throws a SessionError naming the line. Blank lines are ignored.
 */
export async function loadSession(file: string): Promise<LoadedSession> {
  const bytes = await fs.readFile(file);
  const lines: { text: string; end: number; number: number }[] = [];
  let startOffset = 0;
  for (let number = 1; startOffset < bytes.length; number++) {
    const nl = bytes.indexOf(NEWLINE, startOffset);
    const end = nl === -1 ? bytes.length : nl + 1;
    lines.push({ text: bytes.subarray(startOffset, nl === -1 ? bytes.length : nl).toString('utf8'), end, number });
    startOffset = end;
  }

  const events: SessionEvent[] = [];
  let validBytes = 0;
  let skipped = 0;
  for (const [index, line] of lines.entries()) {
    const isLast = index === lines.length - 1;
    const unterminated = isLast && bytes[bytes.length - 1] !== NEWLINE;
    if (line.text.trim() === '' && !unterminated) {
      validBytes = line.end;
      continue;
    }
    const json = unterminated ? undefined : parseJson(line.text);
    if (json === undefined) {
      if (isLast) {
        skipped++;
        break;
      }
      throw new SessionError(`${file}:${line.number}: not valid JSON (${quote(line.text)}); the session file is corrupt`, 'corrupt', file);
    }
    const parsed = sessionEventSchema.safeParse(json.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      throw new SessionError(`${file}:${line.number}: not a valid session event${where}: ${issue?.message ?? 'invalid'} (${quote(line.text)})`, 'corrupt', file);
    }
    if ((parsed.data.type === 'session_start') !== (events.length === 0)) {
      const why = events.length === 0 ? 'the first event must be session_start' : 'session_start may only be the first event';
      throw new SessionError(`${file}:${line.number}: ${why}; the file is not one session`, 'corrupt', file);
    }
    events.push(parsed.data);
    validBytes = line.end;
  }

  const start = events[0];
  if (start?.type !== 'session_start') throw new SessionError(`${file}: no session_start event; the file is empty or not a session`, 'corrupt', file);
  return { events, start, tornTail: skipped > 0, skipped, validBytes };
}

/** Validates an event and renders its line; the schema drops unknown keys such as `display`. */
function render(file: string, event: SessionEventInput): { event: SessionEvent; line: Buffer } {
  const parsed = sessionEventSchema.safeParse({ ...event, at: event.at ?? Date.now() });
  if (!parsed.success) {
    throw new SessionError(`Refusing to write an invalid ${event.type} event to ${file}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'invalid_event', file);
  }
  // JSON.stringify escapes every newline inside strings, so the event stays on one line.
  return { event: parsed.data, line: Buffer.from(`${JSON.stringify(parsed.data)}\n`, 'utf8') };
}

/** Makes a new directory entry durable; a no-op where directories cannot be fsynced (Windows). */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * An open session file. `append` is serialized and durable (resolved = on disk). After a failed write
 * the file may end in a partial line, so every later append fails too; reopen the file with `open`,
 * which cuts the partial line off. One writer per file: nothing stops two processes from opening the
 * same session, and their lines would interleave (whole, thanks to O_APPEND, but out of order).
 */
export class SessionFile {
  private queue: Promise<unknown> = Promise.resolve();
  private failure: Error | undefined;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly handle: fs.FileHandle,
  ) {}

  /** Creates a new session file with its session_start line; refuses a path that exists. */
  static async create(file: string, info: SessionStartInfo): Promise<SessionFile> {
    const createdAt = info.createdAt ?? Date.now();
    const start = render(file, { type: 'session_start', v: SESSION_FORMAT_VERSION, id: info.id, cwd: info.cwd, provider: info.provider, model: info.model, createdAt, at: createdAt });
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    let handle: fs.FileHandle;
    try {
      // 'ax' = O_APPEND | O_CREAT | O_EXCL: never clobbers another session.
      handle = await fs.open(file, 'ax', 0o600);
    } catch (err) {
      if (errnoOf(err) === 'EEXIST') throw new SessionError(`Session file ${file} already exists: pick a new id, or open it to resume`, 'exists', file);
      throw err;
    }
    const session = new SessionFile(file, handle);
    await session.enqueue(start.line);
    await syncDirectory(path.dirname(file));
    return session;
  }

  /** Opens an existing session to resume it: loads its events and cuts off a torn last line. */
  static async open(file: string): Promise<{ session: SessionFile; loaded: LoadedSession }> {
    const loaded = await loadSession(file);
    // No O_CREAT: a file removed since it was read is an error, not a fresh empty session.
    const handle = await fs.open(file, fsConstants.O_WRONLY | fsConstants.O_APPEND);
    try {
      if (loaded.tornTail) {
        await handle.truncate(loaded.validBytes);
        await handle.datasync();
      }
    } catch (err) {
      await handle.close();
      throw err;
    }
    return { session: new SessionFile(file, handle), loaded };
  }

  /** Appends one event; resolves with the event as written once it is on disk. */
  async append(event: SessionEventInput): Promise<SessionEvent> {
    if (this.closed) throw new SessionError(`Session file ${this.path} is closed`, 'closed', this.path);
    const rendered = render(this.path, event);
    await this.enqueue(rendered.line);
    return rendered.event;
  }

  /** Waits for pending appends, then closes the file. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue; // never rejects: each append reports its own failure
    await this.handle.close();
  }

  private enqueue(line: Buffer): Promise<void> {
    const write = this.queue.then(async () => {
      if (this.failure) {
        throw new SessionError(`Session file ${this.path} is unusable after a failed write (${this.failure.message}); reopen it to resume`, 'write_failed', this.path);
      }
      try {
        const { bytesWritten } = await this.handle.write(line);
        if (bytesWritten !== line.length) throw new Error(`short write: ${bytesWritten} of ${line.length} bytes`);
        await this.handle.datasync();
      } catch (err) {
        this.failure = err instanceof Error ? err : new Error(String(err));
        throw err;
      }
    });
    // The chain continues after a failure; the next write sees `failure` and refuses.
    this.queue = write.catch(() => undefined);
    return write;
  }
}

import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { SessionSummary } from '../../../webview/protocol';

/** Sessions the chat lists at most (the newest). */
export const LISTED_SESSIONS = 50;
/** Bytes read from the head of each session file to find its start and first task. */
export const HEAD_BYTES = 16 * 1024;
const TITLE_CHARS = 120;

/** The session files directly under `<root>/.magi/sessions`, newest first, each titled by its first task. */
export async function listSessions(root: string): Promise<SessionSummary[]> {
  const dir = path.join(root, '.magi', 'sessions');
  const names = await fsp.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  // The names start with their UTC creation time, so the name order is the time order.
  const newest = names.filter((n) => n.endsWith('.jsonl')).sort().reverse().slice(0, LISTED_SESSIONS);
  const summaries = await Promise.all(newest.map((name) => summarize(path.join(dir, name))));
  return summaries.filter((s): s is SessionSummary => s !== undefined);
}

/** The summary of one file from its head only; undefined when it is not a session file (or vanished). */
export async function summarize(file: string): Promise<SessionSummary | undefined> {
  let head: string;
  try {
    const handle = await fsp.open(file, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let createdAt: number | undefined;
  let title: string | undefined;
  // The last line may be cut by the head's limit; only whole lines are parsed.
  for (const line of head.split('\n').slice(0, -1)) {
    const event = parseLine(line);
    if (event?.type === 'session_start' && typeof event.createdAt === 'number') createdAt = event.createdAt;
    if (event?.type === 'user' && typeof event.text === 'string') {
      title = clip(event.text);
      break;
    }
  }
  if (createdAt === undefined) return undefined;
  return { file, title: title ?? '(no task yet)', createdAt };
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    // A line that is not JSON is not an event (a torn write); the file is still listed by its other lines.
    return undefined;
  }
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

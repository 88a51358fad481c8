import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { PLAIN_READ_LINES } from './fixtures';
import { wholeRead } from './attempt';
import { parseDoc } from './model';
import type { Driver, Reply } from './driver';

/**
 * The attempt's side of the session: files on disk (written as "another process" would), tool
 * calls, and the checks every hash_edit message must pass wherever it appears.
 */

export interface CheckResult {
  name: string;
  pass: boolean;
  attemptId: string;
  detail: string;
}

export class Session {
  readonly checks: CheckResult[] = [];

  constructor(readonly driver: Driver) {}

  private abs(rel: string): string {
    return path.join(this.driver.root, rel);
  }

  async write(rel: string, text: string): Promise<void> {
    await fsp.mkdir(path.dirname(this.abs(rel)), { recursive: true });
    await fsp.writeFile(this.abs(rel), text, 'utf8');
  }

  async text(rel: string): Promise<string | undefined> {
    try {
      return await fsp.readFile(this.abs(rel), 'utf8');
    } catch {
      return undefined;
    }
  }

  async exists(rel: string): Promise<boolean> {
    return (await fsp.lstat(this.abs(rel)).catch(() => undefined)) !== undefined;
  }

  check(attemptId: string, name: string, pass: boolean, detail: string): void {
    this.checks.push({ name, pass, attemptId, detail });
  }

  /** One tool call; every result is checked for temp-dir paths, hash_edit's stale errors for ranged advice. */
  async call(tool: string, args: Record<string, unknown>, attemptId: string): Promise<Reply> {
    const reply = await this.driver.call(tool, args);
    const leak = reply.content.includes(this.driver.tempDir);
    this.check(attemptId, 'no absolute temp-dir path in a message', !leak, leak ? reply.content.slice(0, 300) : '');
    if (tool === 'hash_edit') {
      if (reply.status === 'error' && (reply.metadata.error === 'stale_tag' || /\bstale\b/.test(reply.content))) {
        const ranged = /\(read [^\s)]+:\d+-\d+\)/.test(reply.content);
        this.check(attemptId, 'stale message names read PATH:A-B', ranged, ranged ? '' : reply.content.slice(0, 300));
      }
    }
    return reply;
  }

  /** Reads `target` with the real read tool; the tag of its first section, or undefined with the reply. */
  async read(target: string, attemptId: string): Promise<{ tag: string | undefined; reply: Reply }> {
    const reply = await this.call('read', { paths: [target] }, attemptId);
    const tag = reply.status === 'success' ? /^\[.*#([0-9A-F]{6})\]$/m.exec(reply.content)?.[1] : undefined;
    return { tag, reply };
  }

  /** Reads the whole current file (a plain read, or an explicit range past 400 lines). */
  async readWhole(rel: string, attemptId: string): Promise<string | undefined> {
    const text = (await this.text(rel)) ?? '';
    return (await this.read(wholeRead(rel, parseDoc(text).lines.length, PLAIN_READ_LINES), attemptId)).tag;
  }
}

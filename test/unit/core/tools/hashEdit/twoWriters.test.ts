import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnMagi } from '../../../helpers/cli';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

interface Reply {
  status: string;
  content: string;
  metadata: Record<string, unknown>;
}

/** One long-lived `magi tools` session: a request a line on stdin, a result a line on stdout. */
class ToolSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: ((line: string) => void)[] = [];

  constructor(cwd: string) {
    this.child = spawnMagi(['tools', '--cwd', cwd]);
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => this.pending.shift()?.(line));
  }

  call(tool: string, args: unknown): Promise<Reply> {
    return new Promise((resolve) => {
      this.pending.push((line) => resolve(JSON.parse(line) as Reply));
      this.child.stdin.write(JSON.stringify({ tool, args }) + '\n');
    });
  }

  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.child.on('close', resolve));
    this.child.stdin.end();
    await closed;
  }
}

/** Two processes that read one file and edit it at the same moment never lose an edit. */
describe('hash_edit: two writers in two processes', function () {
  this.timeout(120_000);
  let ws: TempWorkspace;
  let sessions: ToolSession[] = [];
  before(async () => {
    ws = await tempWorkspace();
    sessions = [new ToolSession(ws.root), new ToolSession(ws.root)];
  });
  after(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    await ws.cleanup();
  });

  it('lands both edits or refuses the second as stale, over 200 rounds', async () => {
    const [a, b] = sessions;
    if (!a || !b) throw new Error('sessions did not start');
    const file = path.join(ws.root, 'f.txt');
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    let lost = 0;
    let bothLanded = 0;
    const tagOf = async (s: ToolSession): Promise<string> => /#([0-9A-F]{6})\]/.exec((await s.call('read', { paths: ['f.txt'] })).content)?.[1] ?? '';
    for (let round = 0; round < 200; round++) {
      await fsp.writeFile(file, lines.join('\n') + '\n');
      const tags: string[] = await Promise.all([tagOf(a), tagOf(b)]);
      // Every fourth round both edit the same line: only one of them may win.
      const lineB = round % 4 === 0 ? 2 : 9;
      const replies: Reply[] = await Promise.all([
        a.call('hash_edit', { input: `[f.txt#${tags[0] ?? ''}]\nSWAP 2:\n+edited by A` }),
        b.call('hash_edit', { input: `[f.txt#${tags[1] ?? ''}]\nSWAP ${lineB}:\n+edited by B` }),
      ]);
      const text = await fsp.readFile(file, 'utf8');
      const landed = replies.map((reply, i) => reply.status === 'success' && text.includes(`edited by ${i === 0 ? 'A' : 'B'}`));
      replies.forEach((reply, i) => {
        if (reply.status === 'success' && !landed[i]) lost++;
        if (reply.status !== 'success') assert.equal(reply.metadata.error, 'stale_tag', reply.content);
      });
      if (landed[0] && landed[1]) bothLanded++;
      if (lineB === 2) assert.ok(!(landed[0] && landed[1]), 'two edits of one line cannot both land');
    }
    assert.equal(lost, 0, `${lost} edits answered success but are not in the file`);
    assert.ok(bothLanded > 100, `only ${bothLanded} rounds landed both edits of different lines`);
  });
});

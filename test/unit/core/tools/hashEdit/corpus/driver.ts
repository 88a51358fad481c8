import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';

/**
 * How the corpus reaches the tools: one session in which every read and hash_edit of the run
 * happens. The process driver talks JSONL to a long-lived `magi tools --cwd DIR` child, as the
 * issue's corpus did; the in-process driver (inProcess.ts) calls dispatch directly.
 */

/** One tool result as the model sees it. */
export interface Reply {
  status: string;
  content: string;
  metadata: Record<string, unknown>;
}

/** The call did not come back as a result: the process died, timed out or wrote something unparseable. */
export class DriverCrash extends Error {}

export interface Driver {
  /** The workspace root (canonical); every attempt's files live under it. */
  readonly root: string;
  /** The temp folder holding the root: no message may contain it. */
  readonly tempDir: string;
  readonly label: string;
  /** Never rejects except with DriverCrash. */
  call(tool: string, args: Record<string, unknown>): Promise<Reply>;
  /** Sessions started after the first (a crashed child is replaced so the corpus can go on). */
  readonly restarts: number;
  close(): Promise<void>;
}

/** A fresh `<tmp>/magi-corpus-XXXX/ws` folder. */
export async function makeWorkspace(): Promise<{ tempDir: string; root: string }> {
  const tempDir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-corpus-')));
  const root = path.join(tempDir, 'ws');
  await fsp.mkdir(root);
  return { tempDir, root };
}

export function asReply(value: unknown): Reply {
  const v = value as Partial<Reply> | null;
  if (typeof v !== 'object' || v === null || typeof v.status !== 'string' || typeof v.content !== 'string') {
    throw new DriverCrash(`unparseable result: ${JSON.stringify(value).slice(0, 200)}`);
  }
  return { status: v.status, content: v.content, metadata: typeof v.metadata === 'object' && v.metadata !== null ? (v.metadata as Record<string, unknown>) : {} };
}

const CALL_TIMEOUT_MS = 60_000;

export class ProcessDriver implements Driver {
  readonly label: string;
  restarts = 0;
  private child: ChildProcessWithoutNullStreams | undefined;
  private waiting: { resolve: (line: string) => void; reject: (err: Error) => void } | undefined;
  private stderr = '';

  private constructor(
    private readonly cli: string,
    readonly root: string,
    readonly tempDir: string,
  ) {
    this.label = `process (${cli})`;
  }

  static async start(cli: string): Promise<ProcessDriver> {
    const { tempDir, root } = await makeWorkspace();
    const driver = new ProcessDriver(cli, root, tempDir);
    driver.spawnChild();
    return driver;
  }

  private spawnChild(): void {
    const child = spawn(process.execPath, [this.cli, 'tools', '--cwd', this.root], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-2000)));
    readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.resolve(line);
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      const w = this.waiting;
      this.waiting = undefined;
      w?.reject(new DriverCrash(`magi tools exited (code ${code}, signal ${signal}): ${this.stderr.trim().slice(-500)}`));
    });
    child.stdin.on('error', () => undefined);
  }

  async call(tool: string, args: Record<string, unknown>): Promise<Reply> {
    if (!this.child) {
      this.restarts++;
      this.spawnChild();
    }
    const child = this.child as ChildProcessWithoutNullStreams;
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        child.kill();
        reject(new DriverCrash(`no result within ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      this.waiting = {
        resolve: (l) => (clearTimeout(timer), resolve(l)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
      child.stdin.write(JSON.stringify({ tool, args }) + '\n');
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new DriverCrash(`unparseable result line: ${line.slice(0, 200)}`);
    }
    return asReply(parsed);
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      await Promise.race([gone, new Promise<void>((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill();
    }
    await fsp.rm(this.tempDir, { recursive: true, force: true });
  }
}

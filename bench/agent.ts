/**
 * The agent loop's own cost: a 200-turn session against the scripted provider on 127.0.0.1, each
 * turn one `read` of a 4 KiB file, then a final answer. Reports the loop's overhead per turn (wall
 * time not spent streaming from the provider nor running tools, both measured from the activity
 * stream) and the heap the session holds at its end. Run: node --expose-gc --import tsx bench/agent.ts
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AgentSession } from '../src/core/agent/agentSession';
import { createHttpProvider } from '../src/core/agent/providers';
import { Settings } from '../src/core/settings';
import { createDefaultRegistry } from '../src/core/tools';
import { startScriptedProvider, type ScriptStep } from '../test/unit/helpers/scriptedProvider';
import { median } from './measure';

const TURNS = 200;

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** One 200-turn run; `durable` keeps a session file (two fdatasync'd appends a turn). */
async function run(durable: boolean): Promise<void> {
  const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-bench-agent-')));
  const root = path.join(base, 'ws');
  await fsp.mkdir(root);
  await fsp.writeFile(path.join(root, 'a.txt'), Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(32)}`).join('\n') + '\n');
  const steps: ScriptStep[] = [
    ...Array.from({ length: TURNS - 1 }, (): ScriptStep => ({ toolCalls: [{ name: 'read', arguments: { paths: ['a.txt'] } }], chunkSize: 64, usage: { input: 1000, output: 20 } })),
    { text: 'done', usage: { input: 1000, output: 1 } },
  ];
  const server = await startScriptedProvider(steps);
  const provider = createHttpProvider({ kind: 'openai', baseUrl: server.baseUrl, model: 'bench', apiKey: 'bench' });
  const before = heapMb();
  const session = await AgentSession.open({ root, settings: new Settings({ agent: { max_turns: TURNS } }), provider, registry: createDefaultRegistry(), sessionFile: durable ? path.join(base, 'bench.jsonl') : null });

  const streaming: number[] = [];
  const tools: number[] = [];
  let turnStarted = 0;
  let toolStarted = 0;
  session.onActivity((e) => {
    const now = performance.now();
    if (e.type === 'turn_start') {
      turnStarted = now;
      server.requests.length = 0; // the server is in this process; keep its records out of the heap figure
    } else if (e.type === 'message_end') streaming.push(now - turnStarted);
    else if (e.type === 'tool_start') toolStarted = now;
    else if (e.type === 'tool_end') tools.push(now - toolStarted);
  });
  const started = performance.now();
  const result = await session.run('read a.txt 199 times', new AbortController().signal);
  const total = performance.now() - started;
  const after = heapMb();
  if (result.outcome !== 'completed' || result.turns !== TURNS) throw new Error(`bench run ended ${result.outcome} after ${result.turns} turns: ${result.error}`);
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const overhead = total - sum(streaming) - sum(tools);
  const sessionBytes = durable ? (await fsp.stat(path.join(base, 'bench.jsonl'))).size : 0;
  console.log(`agent loop, ${TURNS} turns against the scripted provider (each: one read of a 4 KiB file), ${durable ? 'with a durable session file' : 'without a session file'}`);
  console.log(`  wall ${total.toFixed(0)} ms; provider streaming ${sum(streaming).toFixed(0)} ms (median ${median(streaming).toFixed(2)} ms/turn); tools ${sum(tools).toFixed(0)} ms (median ${median(tools).toFixed(2)} ms/call)`);
  console.log(`  loop overhead ${(overhead / TURNS).toFixed(2)} ms/turn (wall − streaming − tools: building requests, activity, ${durable ? 'session appends' : 'no session appends'})`);
  console.log(`  heap ${before.toFixed(1)} MB before, ${after.toFixed(1)} MB after the session (${(after - before).toFixed(1)} MB held: ${result.messages.length} messages); session file ${(sessionBytes / 1024).toFixed(0)} KiB; RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
  await session.close();
  await provider.close?.();
  await server.close();
  await fsp.rm(base, { recursive: true, force: true });
}

async function main(): Promise<void> {
  await run(false);
  await run(true);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

// Builds activity entries the way the host numbers them (store-wide `n`, per-run `seq`), for the
// webview tests and bench/webview.ts.

/** An append-only log of entries, like the host's store. */
export class EntryLog {
  entries = [];
  #seq = new Map();
  #at = Date.UTC(2026, 0, 1);

  /** Appends one event of `runId` and returns its entry. */
  push(runId, body, agent = 'main') {
    const seq = (this.#seq.get(runId) ?? 0) + 1;
    this.#seq.set(runId, seq);
    this.#at += 7;
    const entry = { n: this.entries.length + 1, event: { runId, seq, at: this.#at, agent, ...body } };
    this.entries.push(entry);
    return entry;
  }

  /** The entries after `afterN` (what the host replays). */
  after(afterN) {
    return this.entries.slice(afterN);
  }
}

const TOOLS = ['read', 'grep', 'bash', 'hash_edit', 'write', 'find'];

function summaryOf(tool, i) {
  switch (tool) {
    case 'read': return { paths: [`src/file${i}.ts`] };
    case 'grep': return { patterns: [`needle${i}`], path: 'src' };
    case 'bash': return { intent: `Run step ${i}` };
    case 'hash_edit': return { input_bytes: 120 + i, paths: [`src/edit${i}.ts`] };
    case 'write': return { path: `out/new${i}.txt`, bytes: 42 + i };
    default: return { query: `q${i}` };
  }
}

/** Whether call `i` of manyCalls fails (every seventh does). */
export const failsAt = (i) => i % 7 === 3;
export const toolAt = (i) => TOOLS[i % TOOLS.length];

/** One run with `count` tool calls (start and end each), cycling through six tools. */
export function manyCalls(log, count, runId = 'run-1') {
  log.push(runId, { type: 'run_start', task: `A task with ${count} calls`, cwd: '/w', provider: 'fake', model: 'm', sessionFile: null, resumed: false });
  for (let i = 0; i < count; i++) {
    const tool = toolAt(i);
    const callId = `call-${i}`;
    log.push(runId, { type: 'tool_start', turn: 1 + Math.floor(i / 4), callId, tool, summary: summaryOf(tool, i), mutates: tool === 'write' || tool === 'hash_edit' });
    log.push(runId, endOf(tool, callId, i, failsAt(i) ? 'error' : 'success'));
  }
}

export function endOf(tool, callId, i, status) {
  const diff = `--- a/src/edit${i}.ts\n+++ b/src/edit${i}.ts\n@@ -1,2 +1,2 @@\n-const old${i} = 1;\n+const new${i} = 2;\n unchanged`;
  return {
    type: 'tool_end', turn: 1 + Math.floor(i / 4), callId, tool, status,
    metadata: tool === 'grep' ? { total_matched: 3, files_matched: 2, truncated: i % 5 === 0 } : {},
    output: status === 'error' ? `Error in call ${i}: re-read the file, then retry` : `output of call ${i}`,
    outputTruncated: i % 11 === 0,
    durationMs: 5 + (i % 300), bytesIn: 100 + i, bytesOut: 2000 + i, tokens: Math.ceil((2000 + i) / 4),
    ...(tool === 'hash_edit' && status === 'success' ? { display: { diffs: [{ path: `src/edit${i}.ts`, diff }] } } : {}),
  };
}

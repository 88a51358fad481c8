/**
 * The webviews in headless Chromium (the e2e harness: real bundles, the host's CSP, a fake host):
 *  - the minified bundles' sizes (raw and gzip), built here the way `--production` builds them;
 *  - Mission Control: 10,000 activity events (5,000 tool calls) streamed as the host sends them
 *    (a batch every 16 ms), time until the last one is on screen, and the longest frame while they
 *    stream (gaps between animation frames, and long tasks);
 *  - the same 10,000 events arriving at once (a replay after a reload): time to the first frame;
 *  - chat: a 4,000-delta answer streamed 10 deltas per message every 16 ms: time and longest frame.
 * Numbers are reported, never asserted. Run with `node bench/webview.mjs` (needs the test harness's
 * playwright-core: test/host/setup.sh).
 */
/* global window, document, performance, requestAnimationFrame, PerformanceObserver */
import * as esbuild from 'esbuild';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { EntryLog, manyCalls } from '../test/e2e/activity.mjs';
import { launch, openView, startServer } from '../test/e2e/harness.mjs';

const EVENTS = 10_000;
const BATCH = Number(process.env.MAGI_BENCH_BATCH ?? 50);

async function buildMinified(dir) {
  await esbuild.build({
    entryPoints: { chat: 'webview/chat/main.ts', missionControl: 'webview/missionControl/main.ts' },
    outdir: dir, bundle: true, minify: true, platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, join(dir, file));
  for (const file of ['chat.js', 'chat.css', 'missionControl.js', 'missionControl.css']) {
    const bytes = readFileSync(join(dir, file));
    console.log(`bundle ${file.padEnd(20)} ${(bytes.length / 1024).toFixed(1).padStart(7)} KiB  gzip ${(gzipSync(bytes).length / 1024).toFixed(1).padStart(6)} KiB`);
  }
}

/**
 * In the page: posts `batches` one per `every` ms and resolves, at the first frame where `doneTest`
 * holds, with the ms since the first post, the longest gap between animation frames and the
 * longest task meanwhile (the probe starts after the batches arrived, so their transfer is not counted).
 */
function stream({ batches, every, doneTest }) {
  const done = new Function(`return (${doneTest})()`);
  return new Promise((resolve) => {
    const longTasks = [];
    const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)));
    observer.observe({ type: 'longtask' });
    const start = performance.now();
    let last = start;
    let longestFrame = 0;
    let i = 0;
    const next = () => {
      if (i < batches.length) {
        window.postMessage(batches[i++], '*');
        setTimeout(next, every);
      }
    };
    next();
    const frame = (now) => {
      longestFrame = Math.max(longestFrame, now - last);
      last = now;
      if (!done()) return void requestAnimationFrame(frame);
      observer.disconnect();
      resolve({ ms: now - start, longestFrame, longestTask: Math.max(0, ...longTasks) });
    };
    requestAnimationFrame(frame);
  });
}

const measure = (page, batches, every, doneTest) => page.evaluate(stream, { batches, every, doneTest: doneTest.toString() });

const fmt = (r) => `${r.ms.toFixed(0)} ms; longest frame ${r.longestFrame.toFixed(1)} ms; longest task ${r.longestTask.toFixed(0)} ms`;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'magi-bench-webview-'));
  await buildMinified(dir);
  const { server, origin } = await startServer(dir);
  const browser = await launch();
  try {
    const log = new EntryLog();
    manyCalls(log, EVENTS / 2 - 1);
    log.push('run-1', { type: 'run_end', outcome: 'completed', turns: 1, durationMs: 1, finalText: 'ok' });
    const entries = log.entries;
    const batches = [];
    for (let i = 0; i < entries.length; i += BATCH) batches.push({ type: 'activity', entries: entries.slice(i, i + BATCH) });
    const lastCall = `call-${EVENTS / 2 - 2}`;
    const allShown = new Function(`return () => document.querySelector('[data-testid="activity-list"]')?.dataset.rowCount === '${EVENTS / 2 - 1}' && !!document.querySelector('[data-call-id="${lastCall}"][data-status="success"]')`)();

    let view = await openView(browser, origin, 'missionControl');
    console.log(`Mission Control, ${entries.length} events streamed in batches of ${BATCH} every 16 ms: ${fmt(await measure(view.page, batches, 16, allShown))}`);
    await view.context.close();

    view = await openView(browser, origin, 'missionControl');
    console.log(`Mission Control, ${entries.length} events in one replay: ${fmt(await measure(view.page, [{ type: 'replay', afterN: 0, entries }], 0, allShown))}`);
    await view.context.close();

    const chatLog = new EntryLog();
    chatLog.push('r', { type: 'run_start', task: 'Write a long answer', cwd: '/w', provider: 'f', model: 'm', sessionFile: null, resumed: false });
    chatLog.push('r', { type: 'message_start', turn: 1 });
    for (let i = 0; i < 4000; i++) chatLog.push('r', { type: 'text_delta', turn: 1, text: i % 40 === 39 ? `word${i}.\n\n` : `word **${i}** ` });
    // The host batches what arrived in each 16 ms tick: at ~600 deltas/s that is 10 per message.
    const deltas = [];
    for (let i = 0; i < chatLog.entries.length; i += 10) deltas.push({ type: 'activity', entries: chatLog.entries.slice(i, i + 10) });
    const answerShown = () => document.querySelector('[data-testid="assistant-message"]')?.textContent.includes('word3999');
    view = await openView(browser, origin, 'chat');
    console.log(`Chat, a 4,000-delta answer, 10 deltas per message every 16 ms: ${fmt(await measure(view.page, deltas, 16, answerShown))}`);
    await view.context.close();
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

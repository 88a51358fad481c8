/**
 * `browser` against playwright-core driven directly (the reference: the same library and Chromium,
 * no tool around it), in the same run, on a form page served on 127.0.0.1: launch + open, an AI
 * snapshot, then fill + select + click (submit) + get text. The ratio is the tool's overhead:
 * argument parsing, ref checks, serialization, output capping. Medians of MAGI_BENCH_RUNS (5).
 * Numbers are reported, never asserted. Run with `npx tsx bench/browser.ts`.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { createDefaultRegistry } from '../src/core/tools';
import { dispatchTool } from '../src/core/tools/dispatch';
import { defaultCandidates, findExecutable } from '../src/core/tools/browser/executable';
import { ToolRuntime } from '../src/core/tools/runtime';
import { median, timed } from './measure';

const RUNS = Number(process.env.MAGI_BENCH_RUNS ?? 5);
const FIELDS = Array.from({ length: 40 }, (_, i) => `<label>Field ${i} <input name="f${i}"></label>`).join('\n');
const FORM = `<!doctype html><title>Form</title><form action="/done">${FIELDS}
<label>Name <input name="name"></label><label>Color <select name="color"><option value="r">Red</option><option value="g">Green</option></select></label><button>Send</button></form>`;

type Phases = { start: number; snapshot: number; act: number };

async function tool(url: string): Promise<Phases> {
  const runtime = await ToolRuntime.create({ root: mkdtempSync(path.join(os.tmpdir(), 'magi-bench-browser-')) });
  const registry = createDefaultRegistry();
  const run = async (command: string): Promise<string> => {
    const { result } = await dispatchTool(registry, runtime, 'browser', { command });
    if (result.status !== 'success') throw new Error(`${command}: ${result.content}`);
    return result.content;
  };
  try {
    const [start] = await timed(() => run(`open ${url}`));
    const [snapshot, text] = await timed(() => run('snapshot -i'));
    const ref = (label: string): string => new RegExp(`${label} (@e\\d+)`).exec(text)?.[1] ?? '';
    const [act] = await timed(async () => {
      await run(`fill ${ref('textbox "Name"')} Ada`);
      await run(`select ${ref('combobox "Color"')} Green`);
      await run(`click ${ref('button "Send"')}`);
      await run('get text');
    });
    return { start, snapshot, act };
  } finally {
    await runtime.dispose();
  }
}

async function direct(url: string, executablePath: string): Promise<Phases> {
  const [start, { browser, page }] = await timed(async () => {
    const launched = await chromium.launch({ executablePath });
    const opened = await (await launched.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await opened.goto(url, { waitUntil: 'load' });
    return { browser: launched, page: opened };
  });
  try {
    const [snapshot] = await timed(() => page.ariaSnapshot({ mode: 'ai' }));
    const [act] = await timed(async () => {
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada');
      await page.getByRole('combobox', { name: 'Color' }).selectOption('Green');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('body').innerText();
    });
    return { start, snapshot, act };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(request.url?.startsWith('/done') ? `<title>Done</title><p>${request.url}</p>` : FORM);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const executable = findExecutable(undefined, defaultCandidates());
  const ours: Phases[] = [];
  const theirs: Phases[] = [];
  for (let i = 0; i < RUNS; i++) {
    ours.push(await tool(url));
    theirs.push(await direct(url, executable));
  }
  server.close();
  console.log(`browser vs playwright-core directly (${executable}; medians of ${RUNS}, ms)`);
  for (const phase of ['start', 'snapshot', 'act'] as const) {
    const a = median(ours.map((p) => p[phase]));
    const b = median(theirs.map((p) => p[phase]));
    console.log(`  ${phase.padEnd(9)} tool ${a.toFixed(1).padStart(8)}  direct ${b.toFixed(1).padStart(8)}  ratio ${(a / b).toFixed(2)}`);
  }
}

void main();

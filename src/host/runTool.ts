import * as vscode from 'vscode';
import { dispatchTool } from '../core/tools/dispatch';
import type { ToolRegistry } from '../core/tools/registry';
import type { ToolRuntime } from '../core/tools/runtime';
import { failure, formatVisible, type ToolMetadata, type ToolResult } from '../core/tools/result';
import { abortSignalOf } from './cancellation';
import type { Command } from './commands';
import type { WorkspaceRuntimes } from './runtimes';

export const RUN_TOOL_COMMAND = 'magi.runTool';

/** What `magi.runTool` returns: the provider-visible part of a `ToolResult`, with the tool's canonical name. */
export interface RunToolResult {
  tool: string;
  status: ToolResult['status'];
  content: string;
  metadata: ToolMetadata;
}

export interface RunToolDeps {
  registry: ToolRegistry;
  runtimes: WorkspaceRuntimes;
  output: vscode.OutputChannel;
}

/**
 * `magi.runTool`. Without arguments it asks for a tool (QuickPick) and its JSON arguments
 * (InputBox), runs it with a cancellable progress notification and shows the visible block in the
 * output channel; it resolves to undefined when the person cancels a prompt. With arguments
 * (`executeCommand('magi.runTool', 'read', { paths: ['a.txt'] })`) it runs without any UI.
 * Either way the tool runs against the first workspace folder and never throws: an unknown tool,
 * bad arguments or a missing folder come back as an error result.
 */
export function runToolCommand(deps: RunToolDeps): Command {
  return {
    id: RUN_TOOL_COMMAND,
    execute: (...args: unknown[]) => (args.length === 0 ? runInteractive(deps) : runTool(deps, args[0], args[1])),
  };
}

async function runTool(deps: RunToolDeps, name: unknown, args: unknown, signal?: AbortSignal): Promise<RunToolResult> {
  const { tool, result } = typeof name === 'string'
    ? await dispatchInFolder(deps, name, args, signal)
    : { tool: String(name), result: failure(`${RUN_TOOL_COMMAND} takes a tool name (string) and a JSON object of arguments; got ${typeof name}.`) };
  deps.output.appendLine(`── ${tool} ──`);
  deps.output.appendLine(formatVisible(result));
  return { tool, status: result.status, content: result.content, metadata: result.metadata };
}

async function dispatchInFolder(deps: RunToolDeps, name: string, args: unknown, signal?: AbortSignal): Promise<{ tool: string; result: ToolResult }> {
  const runtime = await folderRuntime(deps).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  if (runtime instanceof Error) return { tool: name, result: failure(runtime.message) };
  return dispatchTool(deps.registry, runtime, name, args, signal ? { signal } : {});
}

/** The first workspace folder's runtime; rejects with the message a run shows when there is none. */
async function folderRuntime(deps: RunToolDeps): Promise<ToolRuntime> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') throw new Error('Magi tools run in a workspace folder on disk: open a folder first (File > Open Folder).');
  try {
    return await deps.runtimes.forFolder(folder);
  } catch (err) {
    throw new Error(`Cannot use ${folder.uri.fsPath} as the workspace root: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function runInteractive(deps: RunToolDeps): Promise<RunToolResult | undefined> {
  // Without a usable folder the list shows no reasons; the run itself then reports the problem.
  const runtime = await folderRuntime(deps).catch(() => undefined);
  const picked = await vscode.window.showQuickPick(
    deps.registry.list().map((tool) => {
      // Restricted Mode (or a missing editor service) still lists the tool, saying why a run will be refused.
      const unavailable = runtime ? tool.unavailable?.(runtime) : undefined;
      return { label: tool.name, description: unavailable ? `unavailable: ${unavailable}` : firstLine(tool.description) };
    }),
    { title: 'Magi: Run Tool', placeHolder: 'Tool to run', matchOnDescription: true },
  );
  if (!picked) return undefined;
  const properties = deps.registry.providerSpecs().find((spec) => spec.name === picked.label)?.parameters['properties'];
  const fields = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  const raw = await vscode.window.showInputBox({
    title: `Magi: ${picked.label} arguments`,
    prompt: `A JSON object${fields.length ? ` with ${fields.join(', ')}` : ''}`,
    value: '{}',
    validateInput: (value) => parseArguments(value).error,
  });
  if (raw === undefined) return undefined;
  const args = parseArguments(raw).value;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Magi: running ${picked.label}`, cancellable: true },
    async (_progress, token) => {
      const abort = abortSignalOf(token);
      try {
        return await runTool(deps, picked.label, args, abort.signal);
      } finally {
        abort.dispose();
      }
    },
  );
  deps.output.show(true);
  return result;
}

/** An InputBox value as a JSON object, or the message `validateInput` shows. */
export function parseArguments(text: string): { value?: Record<string, unknown>; error?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `Not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'The arguments must be a JSON object: {"paths": ["README.md"]}' };
  return { value: value as Record<string, unknown> };
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]?.trim() ?? '';
}

import * as vscode from 'vscode';
import { AgentSession } from '../../core/agent/agentSession';
import type { ModelProvider } from '../../core/agent/provider';
import type { ToolRegistry } from '../../core/tools/registry';
import type { ApiKeys } from '../keys';
import { restriction, type HostPorts } from '../runtimes';
import { readSettings } from '../settings';
import { TaskFailedError } from './taskErrors';
import { taskProvider } from './taskProvider';

export interface WorkspaceSessionDeps {
  registry: ToolRegistry;
  ports: HostPorts;
  keys: ApiKeys;
}

/** An AgentSession on the first workspace folder and the provider it owns; `close` ends both. */
export interface WorkspaceSession {
  session: AgentSession;
  provider: ModelProvider;
  close(): Promise<void>;
}

/** The first workspace folder, when it is on disk; otherwise a TaskFailedError that says what to do. */
export function taskFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') throw new TaskFailedError('Magi runs tasks in a workspace folder on disk: open a folder first (File > Open Folder).', 'failed');
  return folder;
}

/**
 * Opens an AgentSession on the first workspace folder as Run Task and the chat do: the provider
 * from the settings read now (and the stored key), the host's ports, Restricted Mode applied.
 * `sessionFile` resumes that file; undefined starts a new one under `.magi/sessions`.
 * Rejects with TaskFailedError (no folder), TaskSetupError or ProviderError; on rejection nothing stays open.
 */
export async function openWorkspaceSession(deps: WorkspaceSessionDeps, sessionFile?: string): Promise<WorkspaceSession> {
  const folder = taskFolder();
  const { registry, ports } = deps;
  const provider = await taskProvider(deps.keys, folder.uri);
  try {
    const session = await AgentSession.open({
      root: folder.uri.fsPath,
      settings: readSettings(folder.uri),
      provider,
      registry,
      ...(sessionFile !== undefined ? { sessionFile } : {}),
      ...(ports.files ? { files: ports.files } : {}),
      ...(ports.languages ? { languages: ports.languages } : {}),
      ...(ports.review ? { review: ports.review } : {}),
      ...(ports.approval ? { approval: ports.approval } : {}),
      ...(ports.secretEnvNames ? { secretEnvNames: ports.secretEnvNames } : {}),
      ...(ports.credentials ? { credentials: ports.credentials } : {}),
      ...restriction(),
    });
    return {
      session,
      provider,
      close: async () => {
        try {
          await session.close();
        } finally {
          await provider.close?.();
        }
      },
    };
  } catch (err) {
    await provider.close?.();
    throw err;
  }
}

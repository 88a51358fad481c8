import * as vscode from 'vscode';

/** A contributed command: its id in `package.json` and what it does. */
export interface Command {
  readonly id: string;
  execute(...args: unknown[]): unknown;
}

/** Registers each command; the caller puts the returned disposables in `context.subscriptions`. */
export function registerCommands(commands: readonly Command[]): vscode.Disposable[] {
  return commands.map((command) => vscode.commands.registerCommand(command.id, (...args: unknown[]) => command.execute(...args)));
}

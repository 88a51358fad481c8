import * as vscode from 'vscode';
import { Settings, type SettingsTree } from '../core/settings';

/** The configuration section the core's settings live under (`magi.capabilities.tools.read.absolute_paths`). */
export const SETTINGS_SECTION = 'magi';

/**
 * The `magi` section as the core's `Settings`, defaults from `package.json` included. The section
 * object carries its values as plain properties next to its methods, so a JSON round trip is the
 * tree (keys the manifest does not declare, such as older-seed aliases, come along too).
 */
export function readSettings(scope?: vscode.Uri): Settings {
  const section = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  return new Settings(JSON.parse(JSON.stringify(section)) as SettingsTree);
}

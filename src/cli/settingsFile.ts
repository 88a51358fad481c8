import { promises as fsp } from 'node:fs';
import { Settings, type SettingsTree } from '../core/settings';
import { UsageError } from './args';

/** The `--settings FILE` JSON object, or the defaults without one; a bad file is a usage error. */
export async function loadSettings(file: string | undefined): Promise<Settings> {
  if (file === undefined) return new Settings();
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read settings file ${file}: ${(err as Error).message}`);
  }
  let tree: unknown;
  try {
    tree = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`settings file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) throw new UsageError(`settings file ${file} must hold a JSON object`);
  return new Settings(tree as SettingsTree);
}

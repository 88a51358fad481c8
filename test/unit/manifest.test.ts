import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Settings } from '../../src/core/settings';
import { agentLimits } from '../../src/core/agent/config';
import { loadReminderConfig } from '../../src/core/agent/reminders';
import { EXECUTABLE_SETTING, findExecutable } from '../../src/core/tools/browser/executable';
import { DEFAULT_MAX_IMAGE_BYTES, MAX_IMAGE_BYTES_LIMIT, viewImageConfig } from '../../src/core/tools/viewImage/config';

interface Property {
  type?: string;
  default?: unknown;
  description?: string;
  markdownDescription?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
}

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Property> }; commands: { command: string; title: string }[] };
};
const properties = manifest.contributes.configuration.properties;

/** The manifest's defaults as the core's settings tree (the `magi.` prefix dropped). */
function manifestDefaults(): Settings {
  return new Settings(Object.fromEntries(Object.entries(properties).map(([key, p]) => [key.replace(/^magi\./, ''), p.default])));
}

describe('package.json contributions', () => {
  it('gives every setting a description and a default of its type', () => {
    for (const [key, p] of Object.entries(properties)) {
      assert.ok(key.startsWith('magi.'), key);
      assert.ok((p.description ?? p.markdownDescription ?? '').length > 20, `${key} has a description`);
      assert.ok('default' in p, `${key} has a default`);
      const actual = Array.isArray(p.default) ? 'array' : Number.isInteger(p.default) && p.type === 'integer' ? 'integer' : typeof p.default;
      assert.equal(actual, p.type, `${key}'s default is a ${p.type}`);
      if (p.enum) assert.ok(p.enum.includes(p.default), `${key}'s default is one of its values`);
    }
  });

  it("declares the settings the issue names, and its defaults are the core's", () => {
    for (const key of ['provider', 'model', 'baseUrl', 'edits.review', 'capabilities.tools.bash.shell_expansion', 'capabilities.tools.output_compression.enabled', 'agent.reminders.enabled', 'capabilities.tools.subagents.max_depth']) {
      assert.ok(`magi.${key}` in properties, `magi.${key} is declared`);
    }
    for (const tool of ['read', 'write', 'hash_edit', 'list_files', 'grep', 'find', 'bash']) assert.ok(`magi.capabilities.tools.${tool}.absolute_paths` in properties, tool);
    assert.deepEqual(agentLimits(manifestDefaults()), agentLimits(new Settings()), 'agent limits: manifest defaults = core defaults');
    const reminders = loadReminderConfig(manifestDefaults());
    assert.equal(reminders.enabled, false);
    assert.equal(reminders.maxRetries, loadReminderConfig(new Settings()).maxRetries);
  });

  it("declares view_image's settings with the core's bounds, unconfigured by default and restricted in untrusted workspaces", () => {
    const key = (name: string): string => `magi.capabilities.tools.view_image.${name}`;
    for (const name of ['vision_model', 'max_image_bytes', 'absolute_paths']) assert.ok(key(name) in properties, name);
    const max = properties[key('max_image_bytes')];
    assert.deepEqual([max?.default, max?.minimum, max?.maximum], [DEFAULT_MAX_IMAGE_BYTES, 1, MAX_IMAGE_BYTES_LIMIT]);
    assert.throws(() => viewImageConfig(manifestDefaults()), /no vision model is configured/);
    const restricted = (manifest as unknown as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } }).capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.ok(restricted.includes(key('vision_model')), 'a workspace cannot point the stored key at its own server');
  });

  it("declares the browser's executable path, empty by default (look for an installed browser) and restricted in untrusted workspaces", () => {
    const key = `magi.${EXECUTABLE_SETTING}`;
    assert.equal(properties[key]?.default, '');
    assert.equal(findExecutable(manifestDefaults().get(EXECUTABLE_SETTING), [process.execPath]), process.execPath, 'the default lets Magi look');
    const restricted = (manifest as unknown as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } }).capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.ok(restricted.includes(key), 'a workspace cannot make Magi start a program of its choosing');
  });

  it('titles every command under the Magi category', () => {
    for (const c of manifest.contributes.commands) {
      assert.match(c.command, /^magi\.[a-zA-Z]+$/);
      assert.ok(c.title.length > 2);
    }
  });
});

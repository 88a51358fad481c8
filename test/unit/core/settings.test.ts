import assert from 'node:assert/strict';
import { Settings } from '../../../src/core/settings';

describe('Settings', () => {
  it('reads nested and dotted newer keys', () => {
    const s = new Settings({ capabilities: { tools: { bash: { shell_expansion: false } } }, 'agent.reminders.enabled': true });
    assert.equal(s.get('capabilities.tools.bash.shell_expansion'), false);
    assert.equal(s.get('agent.reminders.enabled'), true);
  });

  it('maps older keys (tools.*, ttsr.*, fffind/ffgrep/shell) onto the newer ones', () => {
    const s = new Settings({ tools: { fffind: { absolute_paths: false }, shell: { shell_expansion: false } }, ttsr: { enabled: true } });
    assert.equal(s.absolutePathsAllowed('find'), false);
    assert.equal(s.absolutePathsAllowed('fffind'), false);
    assert.equal(s.get('capabilities.tools.bash.shell_expansion'), false);
    assert.equal(s.get('agent.reminders.enabled'), true);
  });

  it('lets a newer key win over its older alias whatever the order', () => {
    const a = new Settings({ 'capabilities.tools.read.absolute_paths': true, 'tools.read.absolute_paths': false });
    const b = new Settings({ 'tools.read.absolute_paths': false, 'capabilities.tools.read.absolute_paths': true });
    assert.equal(a.absolutePathsAllowed('read'), true);
    assert.equal(b.absolutePathsAllowed('read'), true);
  });

  it('defaults absolute_paths to true and ignores non-boolean values', () => {
    assert.equal(new Settings().absolutePathsAllowed('write'), true);
    assert.equal(new Settings({ 'capabilities.tools.write.absolute_paths': 'no' }).absolutePathsAllowed('write'), true);
  });
});

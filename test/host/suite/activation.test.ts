import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'magi-code.magi-code';

describe('Magi activation in the real extension host', () => {
  it('is not active before it is used, activates on demand, and reports how long that took', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    // Nothing in the manifest activates at start-up: VS Code's own start is never slowed by Magi.
    assert.equal(extension.isActive, false, 'activated before anything asked for it');
    const started = performance.now();
    await extension.activate();
    const ms = performance.now() - started;
    assert.equal(extension.isActive, true);
    console.log(`MAGI_MEASURE activation_ms=${ms.toFixed(1)}`);
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['magi.runTool', 'magi.runTask', 'magi.cancel', 'magi.setApiKey', 'magi.acceptEdit', 'magi.rejectEdit', 'magi.revertEdit', 'magi.newChat', 'magi.openMissionControl']) {
      assert.ok(commands.includes(id), `${id} is registered`);
    }
  });
});

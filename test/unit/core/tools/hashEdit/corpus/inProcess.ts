import { promises as fsp } from 'node:fs';
import { createDefaultRegistry } from '../../../../../../src/core/tools';
import { dispatchTool } from '../../../../../../src/core/tools/dispatch';
import { ToolRuntime } from '../../../../../../src/core/tools/runtime';
import { DriverCrash, makeWorkspace, type Driver, type Reply } from './driver';

/**
 * The unit test's driver: the default registry and one ToolRuntime over a temp workspace, called
 * through dispatch exactly as the agent loop calls it (read is the real read). A throw out of
 * dispatch — which promises never to throw — is reported as a crash.
 */
export async function inProcessDriver(): Promise<Driver> {
  const { tempDir, root } = await makeWorkspace();
  const runtime = await ToolRuntime.create({ root });
  const registry = createDefaultRegistry();
  return {
    root: runtime.root,
    tempDir,
    label: 'in-process',
    restarts: 0,
    async call(tool, args): Promise<Reply> {
      try {
        const { result } = await dispatchTool(registry, runtime, tool, args);
        return { status: result.status, content: result.content, metadata: { ...result.metadata } };
      } catch (err) {
        throw new DriverCrash(`dispatch threw: ${(err as Error).stack ?? String(err)}`);
      }
    },
    async close() {
      await runtime.dispose();
      await fsp.rm(tempDir, { recursive: true, force: true });
    },
  };
}

import { strict as assert } from 'node:assert';
import type { SubagentRunner, SubagentTask, SubagentTaskResult } from '../../../../../src/core/tools/subagents/port';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { dispatchTool, type DispatchOutcome } from '../../../../../src/core/tools/dispatch';
import { formatVisible } from '../../../../../src/core/tools/result';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

/** A runner that answers each task from a table, as the agent layer would after running children. */
function runner(answers: (task: SubagentTask) => SubagentTaskResult, limits: Partial<SubagentRunner> = {}): SubagentRunner & { seen: SubagentTask[][] } {
  const seen: SubagentTask[][] = [];
  return {
    canSpawn: true,
    maxTasks: 8,
    maxOutputBytes: 16_384,
    identityNames: () => ['reviewer'],
    seen,
    async run(tasks) {
      seen.push([...tasks]);
      return tasks.map(answers);
    },
    ...limits,
  };
}

describe('subagents tool', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  const registry = createDefaultRegistry();
  /** Calls the tool in a runtime whose agent is `r`. */
  const call = (r: SubagentRunner, args: unknown, name = 'subagents'): Promise<DispatchOutcome> => dispatchTool(registry, ws.runtime.derive({ subagents: r }), name, args);

  it('needs an agent: outside a run it says how to get one', async () => {
    const result = await ws.run('subagents', { tasks: [{ task: 'x' }] });
    assert.equal(result.status, 'error');
    assert.match(result.content, /magi run/);
  });

  it('answers through the older name parallel_subagents too; the visible block is only the summary', async () => {
    const r = runner((t) => ({ status: 'completed', output: `did ${t.task}`, turns: 2 }));
    const { result, tool } = await call(r, { tasks: [{ task: 'a', identity: null }, { task: 'b', identity: 'reviewer', label: 'review' }] }, 'parallel_subagents');
    assert.equal(tool, 'subagents');
    assert.equal(result.status, 'success');
    assert.deepEqual(r.seen, [[{ task: 'a' }, { task: 'b', identity: 'reviewer', label: 'review' }]]);
    assert.equal(result.content, 'summary: total=2 completed=2 failed=0\n--- TASK 1: completed (2 turns) ---\ndid a\n--- TASK 2: completed (2 turns) ---\ndid b');
    assert.equal(formatVisible(result), 'STATUS: success\nTOTAL: 2\nCOMPLETED: 2\nFAILED: 0\nTRUNCATED: false\nOUTPUT:\nsummary: total=2 completed=2 failed=0');
  });

  it('refuses at the maximum depth, over max_tasks, with an unknown identity or a blank task, before running anything', async () => {
    const content = async (r: SubagentRunner, args: unknown): Promise<string> => (await call(r, args)).result.content;
    const ok = (): SubagentTaskResult => ({ status: 'completed', output: '', turns: 1 });
    const deep = runner(ok, { canSpawn: false });
    assert.match(await content(deep, { tasks: [{ task: 'x' }] }), /maximum subagent depth/);
    const few = runner(ok, { maxTasks: 1 });
    assert.match(await content(few, { tasks: [{ task: 'x' }, { task: 'y' }] }), /2 tasks, over the limit of 1/);
    const named = runner(ok);
    assert.match(await content(named, { tasks: [{ task: 'x', identity: 'ghost' }] }), /"ghost" is not a discovered identity; known: reviewer/);
    assert.match(await content(named, { tasks: [{ task: '  ' }] }), /task must not be blank/);
    assert.deepEqual([deep, few, named].flatMap((r) => (r as ReturnType<typeof runner>).seen), []);
  });

  it('cuts each answer to its share of the output cap and is an error only when every task failed', async () => {
    const big = runner((t) => (t.task === 'fail' ? { status: 'failed', output: 'provider failed', turns: 1 } : { status: 'completed', output: 'é'.repeat(5000), turns: 1 }), { maxOutputBytes: 1024 });
    const { result } = await call(big, { tasks: [{ task: 'a' }, { task: 'fail' }] });
    assert.equal(result.status, 'success', 'one completed task makes the call a success');
    assert.match(result.content, /^summary: total=2 completed=1 failed=1/);
    assert.match(result.content, /\[truncated: first 1024 of 10000 bytes\]/);
    assert.equal(result.metadata.truncated, true);
    const allFail = runner(() => ({ status: 'failed', output: 'no', turns: 0 }));
    const failed = await call(allFail, { tasks: [{ task: 'a' }] });
    assert.equal(failed.result.status, 'error');
    assert.equal(failed.result.display?.visibleOutput, 'summary: total=1 completed=0 failed=1');
  });
});

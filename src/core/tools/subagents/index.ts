import { z } from 'zod';
import { clipUtf8 } from '../../process/capture';
import { defineTool } from '../definition';
import { ToolError } from '../errors';
import { success, failure } from '../result';
import { SUBAGENTS_DESCRIPTION } from './description';

/** The whole provider-visible result stays under the seeds' usual 64 KiB output cap. */
const MAX_CONTENT_BYTES = 64 * 1024;
const HARD_MAX_TASKS = 32;

const input = z.strictObject({
  tasks: z
    .array(
      z.strictObject({
        task: z.string().refine((s) => s.trim() !== '', 'task must not be blank').describe('Self-contained instructions: the child sees nothing of this conversation'),
        identity: z.string().min(1).nullish().describe('Name of a discovered subagent identity; omit or null for the default agent'),
        label: z.string().max(80).nullish().describe('A short label people see while it runs'),
      }),
    )
    .min(1)
    .max(HARD_MAX_TASKS)
    .describe('Independent tasks, run in parallel child sessions'),
});

export const subagentsTool = defineTool({
  name: 'subagents',
  aliases: ['parallel_subagents'],
  description: SUBAGENTS_DESCRIPTION,
  // Children may write files; the call runs alone, after the calls before it.
  mutates: true,
  input,
  async execute(args, ctx) {
    const runner = ctx.runtime.subagents;
    if (!runner) throw new ToolError('subagents: no agent is running this session (the CLI `magi tool` has no model); use `magi run` or the extension.');
    if (!runner.canSpawn) throw new ToolError('subagents: this agent is at the maximum subagent depth (capabilities.tools.subagents.max_depth) and cannot start children; do the task yourself.');
    if (args.tasks.length > runner.maxTasks) {
      throw new ToolError(`subagents: ${args.tasks.length} tasks, over the limit of ${runner.maxTasks} (capabilities.tools.subagents.max_tasks); split the work over several calls.`);
    }
    const known = runner.identityNames();
    for (const [i, t] of args.tasks.entries()) {
      if (t.identity != null && !known.includes(t.identity)) {
        throw new ToolError(`subagents: tasks[${i}].identity "${t.identity}" is not a discovered identity; known: ${known.length ? known.slice(0, 20).join(', ') : 'none'}. Omit it for the default agent.`);
      }
    }
    const tasks = args.tasks.map((t) => ({ task: t.task, ...(t.identity != null ? { identity: t.identity } : {}), ...(t.label != null ? { label: t.label } : {}) }));
    const results = await runner.run(tasks, ctx.signal, (i, r) => ctx.progress?.(`task ${i + 1} of ${tasks.length} ${r.status}${tasks[i]?.label ? `: ${tasks[i]?.label}` : ''}`));
    const perTask = Math.min(runner.maxOutputBytes, Math.floor(MAX_CONTENT_BYTES / tasks.length) - 256);
    const completed = results.filter((r) => r.status === 'completed').length;
    const summary = `summary: total=${results.length} completed=${completed} failed=${results.length - completed}`;
    let truncated = false;
    const sections = results.map((r, i) => {
      const output = clipUtf8(r.output, perTask, 'start');
      const cut = output.length < r.output.length;
      truncated ||= cut;
      const who = r.identity ? `, identity ${r.identity}` : '';
      const note = cut ? `\n[truncated: first ${Buffer.byteLength(output)} of ${Buffer.byteLength(r.output)} bytes]` : '';
      return `--- TASK ${i + 1}: ${r.status} (${r.turns} turns${who}) ---\n${output}${note}`;
    });
    const content = [summary, ...sections].join('\n');
    const metadata = { total: results.length, completed, failed: results.length - completed, truncated };
    const display = { visibleOutput: summary };
    // Partial success is success: the model reads which tasks failed from the sections.
    return completed > 0 ? success(content, metadata, display) : { ...failure(content, metadata), display };
  },
});

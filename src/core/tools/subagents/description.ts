export const SUBAGENTS_DESCRIPTION = `Run independent tasks in parallel child sessions and get each one's final answer.

- tasks: 1 or more objects {"task": "...", "identity": null, "label": "..."}; at most capabilities.tools.subagents.max_tasks (default 8) per call, max_parallel (default 3) run at once.
- Each child starts fresh: it sees none of this conversation, only its task text (and the identity's instructions when one is named), and has the same workspace and tools (an identity may narrow them). Write each task so it can be done alone, saying which files matter and what answer to return.
- identity: the name of a discovered subagent definition (from .magi/agents/*.md in the workspace or ~/.magi/agents/); omit or null for the default agent.
- Result: a summary line "summary: total=N completed=C failed=F", then one section per task with its status and final answer, each cut at capabilities.tools.subagents.max_output_bytes (default 16 KiB; the whole result at 64 KiB) with a truncation note. People watching see only the summary line.
- Children cannot start children beyond capabilities.tools.subagents.max_depth (default 1: only the top-level agent may). Do not give two children edits of the same file.`;

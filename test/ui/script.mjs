// What the UI test asks the agent, what the scripted model answers, and what the workspace must hold
// afterwards. The model reads notes.txt, then edits line 2 with hash_edit (its anchor tag taken from
// the read result the agent sent back), then streams its final answer.

export const EDITED_FILE = 'notes.txt';
export const TASK = 'Make line 2 of notes.txt upper case.';
export const FIRST_ANSWER = 'I will read notes.txt first.';
export const FINAL_ANSWER = 'Done: line 2 of notes.txt now reads BETA, and the other lines are unchanged.';
export const BYTES_BEFORE = 'alpha\nbeta\ngamma\n';
export const BYTES_AFTER = 'alpha\nBETA\ngamma\n';

/** The anchor tag `[notes.txt#XXXXXX]` of the read result in an OpenAI Chat Completions request. */
export function tagFrom(body, file) {
  const shown = (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content)).join('\n');
  const match = new RegExp(`\\[${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}#([0-9A-F]{6})\\]`).exec(shown);
  // Thrown inside a function step: the scripted provider answers 400 with this message and the run fails visibly.
  if (!match) throw new Error(`no read of ${file} in the request: ${shown.slice(0, 300)}`);
  return match[1];
}

/** One step per model request, for test/unit/helpers/scriptedProvider.ts. */
export function modelScript() {
  return [
    { text: FIRST_ANSWER, toolCalls: [{ name: 'read', arguments: { paths: [EDITED_FILE] } }] },
    (request) => ({
      toolCalls: [{ name: 'hash_edit', arguments: { input: `[${EDITED_FILE}#${tagFrom(request.body, EDITED_FILE)}]\nSWAP 2:\n+BETA` } }],
    }),
    // Slow enough (about 2 s) that the test sees the answer grow before it is complete.
    { text: FINAL_ANSWER, chunkSize: 3, delayMs: 80, usage: { input: 200, output: 20 } },
  ];
}

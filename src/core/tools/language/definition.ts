import { z } from 'zod';
import { defineTool } from '../definition';
import { columnSchema, languagesOf, limitSchema, lineSchema, needsLanguages } from './format';
import { answerPositionQuery } from './locations';

const DESCRIPTION = `Go to the definition of the symbol at a position, from VS Code's language services (the same as "Go to Definition").

Arguments: {"path": "src/example.ts", "line": 42, "column": 13, "limit": 50}
line and column are 1-based and must point at a character of the symbol's name.
Rows: path:line:column: the line's trimmed text (text only for files inside the workspace; library definitions show their path only). Limits: limit default 50, max 500; output at most 64 KiB.`;

export const definitionTool = defineTool({
  name: 'definition',
  aliases: [],
  description: DESCRIPTION,
  mutates: false,
  unavailable: needsLanguages('definition'),
  input: z.strictObject({
    path: z.string().min(1).describe('File containing the symbol'),
    line: lineSchema,
    column: columnSchema,
    limit: limitSchema,
  }),
  async execute(args, ctx) {
    const languages = languagesOf('definition', ctx.runtime);
    return answerPositionQuery(
      'definition',
      args,
      ctx,
      (absolute) => languages.definition(absolute, args.line, args.column, ctx.signal),
      (where) => `No definition found for the symbol at ${where}. Check that line and column (1-based) point at the symbol's name.`,
    );
  },
});

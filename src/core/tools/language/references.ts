import { z } from 'zod';
import { defineTool } from '../definition';
import { columnSchema, languagesOf, limitSchema, lineSchema, needsLanguages } from './format';
import { answerPositionQuery } from './locations';

const DESCRIPTION = `Find references to the symbol at a position, from VS Code's language services (the same as "Find All References"). Use it to check whether code is still used, where a text search would also match comments and strings.

Arguments: {"path": "src/example.ts", "line": 42, "column": 13, "include_declaration": false, "limit": 50}
line and column are 1-based and must point at a character of the symbol's name. include_declaration (default false) also lists the declaration itself.
Rows: path:line:column: the line's trimmed text (text only for files inside the workspace). Limits: limit default 50, max 500; output at most 64 KiB.`;

export const referencesTool = defineTool({
  name: 'references',
  aliases: [],
  description: DESCRIPTION,
  mutates: false,
  unavailable: needsLanguages('references'),
  input: z.strictObject({
    path: z.string().min(1).describe('File containing the symbol'),
    line: lineSchema,
    column: columnSchema,
    include_declaration: z.boolean().default(false).describe('Also list the declaration (default false)'),
    limit: limitSchema,
  }),
  async execute(args, ctx) {
    const languages = languagesOf('references', ctx.runtime);
    return answerPositionQuery(
      'references',
      args,
      ctx,
      (absolute) => languages.references(absolute, args.line, args.column, args.include_declaration, ctx.signal),
      (where) => `No references found for the symbol at ${where}${args.include_declaration ? '' : ' (besides its declaration)'}. Check that line and column (1-based) point at the symbol's name.`,
    );
  },
});

import type { z } from 'zod';

function fieldName(path: readonly PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : '(arguments)';
}

/** Turns zod issues into one message that names each offending field and says what is expected. */
export function describeIssues(tool: string, error: z.ZodError, allowedFields: readonly string[]): string {
  const parts = error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => `\`${[...issue.path, k].map(String).join('.')}\``).join(', ');
      return `unknown field ${keys} (allowed fields: ${allowedFields.join(', ')})`;
    }
    return `field \`${fieldName(issue.path)}\`: ${issue.message}`;
  });
  return `${tool}: invalid arguments: ${parts.join('; ')}.`;
}

import type { ToolMetadata } from '../tools/result';

/**
 * The safe facts a pending tool card shows before the call ends, after the seeds' visible-output
 * rules: `read` its requested paths, `write` path and size, `hash_edit` its input bytes and the
 * files it names, `bash` its intent. Never file contents, replacement payloads or command text
 * (a command line may carry a secret; its intent is written for people).
 */
export function pendingSummary(tool: string, args: unknown): ToolMetadata {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const str = (key: string): string | undefined => (typeof a[key] === 'string' ? (a[key] as string) : undefined);
  const out: ToolMetadata = {};
  const put = (key: string, value: string | number | readonly string[] | undefined): void => {
    if (value !== undefined) out[key] = value;
  };
  switch (tool) {
    case 'read':
      put('paths', Array.isArray(a.paths) ? a.paths.filter((p): p is string => typeof p === 'string') : str('path') === undefined ? undefined : [str('path') as string]);
      break;
    case 'write':
      put('path', str('path'));
      put('bytes', str('content') === undefined ? undefined : Buffer.byteLength(str('content') as string));
      break;
    case 'hash_edit': {
      const input = str('input') ?? '';
      put('input_bytes', Buffer.byteLength(input));
      const paths = [...input.matchAll(/^\[(.+)#[0-9a-fA-F]{6}\]\s*$/gm)].map((m) => m[1] as string);
      put('paths', paths.length ? [...new Set(paths)] : undefined);
      break;
    }
    case 'bash':
      put('intent', str('intent'));
      put('cwd', str('cwd'));
      break;
    case 'grep':
      put('patterns', Array.isArray(a.patterns) ? a.patterns.filter((p): p is string => typeof p === 'string').slice(0, 8) : str('pattern') === undefined ? undefined : [str('pattern') as string]);
      put('path', str('path'));
      break;
    case 'find':
      put('query', str('query'));
      put('path', str('path'));
      break;
    case 'list_files':
      put('path', str('path') ?? '.');
      break;
    case 'ast_grep':
      put('operation', str('operation') ?? 'search');
      put('pattern', str('pattern'));
      put('language', str('language'));
      put('path', str('path'));
      break;
    case 'repo_map':
      put('path', str('path'));
      put('query', str('query'));
      break;
    case 'web': {
      put('operation', str('operation'));
      put('query', str('query'));
      // Before validation a URL may still carry credentials or secrets: only its origin and path are shown.
      const url = str('url');
      if (url !== undefined) put('url', originAndPath(url));
      put('reference', str('reference'));
      break;
    }
    case 'browser':
      put('command', browserCommandSummary(str('command')));
      put('mode', str('mode'));
      break;
    case 'view_image': {
      // The file's name and the start of the question; never the path's folders nor the image bytes.
      const file = str('path');
      put('path', file === undefined ? undefined : file.split(/[\\/]/).pop());
      const prompt = str('prompt');
      put('prompt', prompt === undefined ? undefined : prompt.length > 80 ? `${prompt.slice(0, 80)}…` : prompt);
      break;
    }
    case 'subagents':
      put('tasks', Array.isArray(a.tasks) ? a.tasks.length : undefined);
      break;
    default:
      break;
  }
  return out;
}

/** A URL as far as it is safe to show: credentials, query and fragment may hold secrets. */
function originAndPath(url: string): string {
  if (!URL.canParse(url)) return '(not a URL)';
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * A browser command without what it types (a fill may be a password): `fill @e5 (12 characters)`;
 * an opened URL as origin and path; anything else as written, cut to 120 characters.
 */
function browserCommandSummary(command: string | undefined): string | undefined {
  if (command === undefined) return undefined;
  const [verb = '', target = ''] = command.trim().split(/\s+/, 2);
  if (verb === 'open') return `open ${originAndPath(target)}`;
  if (verb === 'fill' || verb === 'type' || verb === 'select') {
    const text = command.trim().slice(verb.length).trim().slice(target.length).trim();
    return `${verb} ${target} (${text.length} characters)`;
  }
  return command.length > 120 ? `${command.slice(0, 120)}…` : command;
}

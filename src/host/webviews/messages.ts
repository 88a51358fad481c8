import type { WebviewMessage } from '../../../webview/protocol';

/**
 * A message from a webview, checked: the WebviewMessage it is, or undefined for anything else
 * (an unknown type, a missing or mistyped field), which the host ignores.
 */
export function parseWebviewMessage(value: unknown): WebviewMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  const str = (key: string): string | undefined => (typeof m[key] === 'string' ? (m[key] as string) : undefined);
  switch (m.type) {
    case 'ready': {
      const lastN = typeof m.lastN === 'number' && Number.isFinite(m.lastN) && m.lastN >= 0 ? Math.floor(m.lastN) : undefined;
      return lastN === undefined ? undefined : { type: 'ready', lastN };
    }
    case 'send': {
      const text = str('text');
      return text === undefined ? undefined : { type: 'send', text };
    }
    case 'cancel':
    case 'new_chat':
      return { type: m.type };
    case 'open_session': {
      const file = str('file');
      return file === undefined ? undefined : { type: 'open_session', file };
    }
    case 'open_diff':
    case 'revert': {
      const runId = str('runId');
      const callId = str('callId');
      return runId === undefined || callId === undefined ? undefined : { type: m.type, runId, callId };
    }
    default:
      return undefined;
  }
}

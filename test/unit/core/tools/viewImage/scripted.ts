import { promises as fsp } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Settings, type SettingsTree } from '../../../../../src/core/settings';
import type { CredentialSource } from '../../../../../src/core/tools/credentials';
import { dispatchTool, type DispatchOptions } from '../../../../../src/core/tools/dispatch';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';
import { createViewImageTool, type ViewImageToolOptions } from '../../../../../src/core/tools/viewImage';

/** Tiny real 1×1 images. */
export const IMAGES = {
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
  jpeg: Buffer.from(
    '/9j/4AAQSkZJRgABAQEAYABgAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxgRQyoZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAAgBAQAAPwD3+iiigD//2Q==',
    'base64',
  ),
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  webp: Buffer.from('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA', 'base64'),
};

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** What the server does with a request: answer it, or hold it (cancellation tests). */
export type Script = (req: Recorded, res: ServerResponse) => void;

/** A vision endpoint on 127.0.0.1 that records every request and counts sockets that closed. */
export class ScriptedVision {
  readonly requests: Recorded[] = [];
  script: Script = (_req, res) => json(res, 200, {});
  connections = 0;
  closedConnections = 0;
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') as Record<string, unknown> };
        this.requests.push(recorded);
        this.script(recorded, res);
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.connections++;
      socket.on('close', () => this.closedConnections++);
    });
  }

  static async start(): Promise<ScriptedVision> {
    const vision = new ScriptedVision();
    await new Promise<void>((resolve) => vision.server.listen(0, '127.0.0.1', resolve));
    return vision;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Forgets what was seen, keeping the script. */
  forget(): void {
    this.requests.length = 0;
    this.connections = 0;
    this.closedConnections = 0;
  }

  reset(): void {
    this.forget();
    this.script = (_req, res) => json(res, 200, {});
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Keys handed out by a test's CredentialSource, with the services asked for. */
export function fixedCredentials(keys: Partial<Record<'openai' | 'anthropic', string>>): CredentialSource & { asked: string[] } {
  const asked: string[] = [];
  return { asked, apiKey: async (service) => (asked.push(service), keys[service]) };
}

/** A temp workspace (`<base>/ws`) with a sibling folder outside it, a runtime and the view_image tool alone. */
export interface ImageWorkspace {
  base: string;
  root: string;
  outside: string;
  write(rel: string, bytes: Buffer | string, where?: 'root' | 'outside'): Promise<string>;
  run(args: unknown, options?: DispatchOptions): Promise<ToolResult>;
  runtime: ToolRuntime;
  cleanup(): Promise<void>;
}

const created: ImageWorkspace[] = [];

/** Removes every workspace made since the last call (a test may make several). */
export async function cleanupImageWorkspaces(): Promise<void> {
  await Promise.all(created.splice(0).map((ws) => ws.cleanup()));
}

export async function imageWorkspace(settings: SettingsTree, credentials?: CredentialSource, options: ViewImageToolOptions = {}): Promise<ImageWorkspace> {
  const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-view-image-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  await fsp.mkdir(root);
  await fsp.mkdir(outside);
  const runtime = await ToolRuntime.create({ root, settings: new Settings(settings), ...(credentials ? { credentials } : {}) });
  const registry = new ToolRegistry([createViewImageTool(options)]);
  const ws: ImageWorkspace = {
    base,
    root,
    outside,
    runtime,
    async write(rel, bytes, where = 'root') {
      const abs = path.join(where === 'root' ? root : outside, rel);
      await fsp.mkdir(path.dirname(abs), { recursive: true });
      await fsp.writeFile(abs, bytes);
      return abs;
    },
    run: async (args, dispatchOptions) => (await dispatchTool(registry, runtime, 'view_image', args, dispatchOptions)).result,
    cleanup: () => fsp.rm(base, { recursive: true, force: true }),
  };
  created.push(ws);
  return ws;
}

/** Settings with a vision model at `baseUrl`. */
export function visionSettings(provider: string, baseUrl: string | undefined, extra: Record<string, unknown> = {}): SettingsTree {
  return { capabilities: { tools: { view_image: { vision_model: { provider, model: 'vision-1', ...(baseUrl !== undefined ? { baseUrl } : {}) }, ...extra } } } };
}

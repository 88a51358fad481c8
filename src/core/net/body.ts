import type { Readable } from 'node:stream';

/**
 * Reads a response body up to `maxBytes`. A longer body is cut there (`truncated`) and the rest is
 * never read: the stream is destroyed, which also ends the download.
 */
export async function readCapped(body: Readable, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const piece = chunk as Buffer;
    if (size + piece.length > maxBytes) {
      chunks.push(piece.subarray(0, maxBytes - size));
      body.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(piece);
    size += piece.length;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

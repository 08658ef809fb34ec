// Reads a ustar archive file entry by entry (one entry's bytes in memory at a time), for `records verify --archive`.
import fs from 'node:fs/promises';
import { BLOCK, parseTarHeader } from './tar';

export type TarItem = { kind: 'file'; name: string; data: Buffer } | { kind: 'bad'; offset: number; reason: string };

/** Every regular file of the archive in order; a malformed part ends the walk with one `bad` item saying where. */
export async function* readTarFile(path: string): AsyncGenerator<TarItem> {
  const file = await fs.open(path, 'r');
  try {
    const { size: total } = await file.stat();
    let offset = 0;
    const read = async (length: number): Promise<Buffer> => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await file.read(buf, 0, length, offset);
      offset += bytesRead;
      return buf.subarray(0, bytesRead);
    };
    for (;;) {
      const at = offset;
      const header = parseTarHeader(await read(BLOCK));
      if (header.kind === 'end') {
        const second = await read(BLOCK);
        if (second.length !== BLOCK || second.some((b) => b !== 0)) yield { kind: 'bad', offset: at + BLOCK, reason: 'the closing zero blocks are altered or missing' };
        else if (offset < total && (await read(total - offset)).some((b) => b !== 0)) yield { kind: 'bad', offset: at + 2 * BLOCK, reason: 'bytes after the end of the archive' };
        return;
      }
      if (header.kind === 'bad') {
        yield { kind: 'bad', offset: at, reason: header.reason };
        return;
      }
      const data = await read(header.size);
      if (data.length !== header.size) {
        yield { kind: 'bad', offset: at, reason: `${header.name}: ${header.size} bytes announced, ${data.length} present (archive truncated)` };
        return;
      }
      const padding = (BLOCK - (header.size % BLOCK)) % BLOCK;
      if (padding && (await read(padding)).some((b) => b !== 0)) {
        yield { kind: 'bad', offset: at, reason: `${header.name}: the padding after its bytes is altered` };
        return;
      }
      yield { kind: 'file', name: header.name, data };
    }
  } finally {
    await file.close();
  }
}

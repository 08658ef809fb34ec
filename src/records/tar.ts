// The POSIX ustar format (POSIX.1-1988, as GNU tar and every unpacker read it), written and read here by hand:
// the audit export needs only regular files with short ASCII names, and a header is 512 bytes of fixed fields.
// Pure: builds and parses blocks; the streams live in archive-write.ts and tar-read.ts.

export const BLOCK = 512;
/** Two zero blocks close an archive. */
export const TAR_END = Buffer.alloc(2 * BLOCK);
/** ustar's name field: the export's paths are built to fit it (no prefix field, no PAX headers needed). */
export const MAX_NAME = 100;
/** An octal size field of 11 digits holds up to 8 GiB - 1. */
const MAX_SIZE = 0o77777777777;

function writeOctal(block: Buffer, value: number, offset: number, length: number): void {
  // length - 1 octal digits, zero-padded, then NUL (the checksum field differs: see tarHeader)
  block.write(value.toString(8).padStart(length - 1, '0') + '\0', offset, length, 'ascii');
}

/** The 512-byte header of a regular file of `size` bytes; mtime in seconds since the epoch. */
export function tarHeader(name: string, size: number, mtime: number): Buffer {
  if (!/^[\x21-\x7e]+$/.test(name) || name.length > MAX_NAME) throw new Error(`tar: name "${name}" must be 1-${MAX_NAME} printable ASCII characters without spaces`);
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_SIZE) throw new Error(`tar: size ${size} out of range`);
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, MAX_NAME, 'ascii');
  writeOctal(block, 0o644, 100, 8); // mode
  writeOctal(block, 0, 108, 8); // uid
  writeOctal(block, 0, 116, 8); // gid
  writeOctal(block, size, 124, 12);
  writeOctal(block, Math.max(0, Math.floor(mtime)), 136, 12);
  block.fill(0x20, 148, 156); // checksum computed with its own field as spaces
  block.write('0', 156, 1, 'ascii'); // typeflag: regular file
  block.write('ustar\0', 257, 6, 'ascii');
  block.write('00', 263, 2, 'ascii');
  const sum = checksumOf(block);
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return block;
}

/** Zero bytes that fill the last block of a file of `size` bytes. */
export function tarPadding(size: number): Buffer {
  const rest = size % BLOCK;
  return rest ? Buffer.alloc(BLOCK - rest) : Buffer.alloc(0);
}

function checksumOf(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return sum;
}

export type ParsedHeader = { kind: 'end' } | { kind: 'file'; name: string; size: number } | { kind: 'bad'; reason: string };

/** Reads one header block: a regular file, the zero block that ends the archive, or why it is not one. */
export function parseTarHeader(block: Buffer): ParsedHeader {
  if (block.length !== BLOCK) return { kind: 'bad', reason: `a header is ${BLOCK} bytes, found ${block.length} (archive truncated)` };
  if (block.every((b) => b === 0)) return { kind: 'end' };
  const field = (offset: number, length: number) => {
    const raw = block.subarray(offset, offset + length);
    const nul = raw.indexOf(0);
    return raw.subarray(0, nul === -1 ? length : nul).toString('ascii');
  };
  const stored = parseInt(field(148, 8).trim(), 8);
  if (stored !== checksumOf(block)) return { kind: 'bad', reason: `header checksum ${field(148, 8).trim()} does not match its bytes (header altered)` };
  if (field(257, 6) !== 'ustar') return { kind: 'bad', reason: 'not a ustar header' };
  const type = field(156, 1);
  if (type !== '0' && type !== '') return { kind: 'bad', reason: `entry type "${type}" is not a regular file` };
  const sizeText = field(124, 12).trim();
  if (!/^[0-7]+$/.test(sizeText)) return { kind: 'bad', reason: `size field "${sizeText}" is not octal` };
  const name = field(0, MAX_NAME);
  if (!name) return { kind: 'bad', reason: 'empty file name' };
  return { kind: 'file', name, size: parseInt(sizeText, 8) };
}

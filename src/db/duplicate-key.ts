/** True for a unique-index violation (E11000), as MongoDB and FerretDB both report it. */
export function isDuplicateKeyError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return !!e && (e.code === 11000 || e.code === 11001 || (typeof e.message === 'string' && e.message.includes('E11000')));
}

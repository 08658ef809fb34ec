import type { Model } from 'mongoose';

/**
 * One insert command for many documents (ordered: false, so every document is tried). Per document, in order:
 * null when stored, else the write error that refused it (a duplicate key, say). An error that is not about one
 * document (the connection) is thrown. Among documents that collide, the earlier one wins, as MongoDB applies
 * the inserts in order.
 */
export async function insertEach(model: Model<any>, docs: object[]): Promise<(unknown | null)[]> {
  if (!docs.length) return [];
  try {
    await model.insertMany(docs, { ordered: false });
    return docs.map(() => null);
  } catch (err) {
    // mongoose lists, per input document, either the stored document or the error that refused it.
    const results = (err as { results?: unknown[] }).results;
    if (!results || results.length !== docs.length) throw err;
    return results.map((r) => (isWriteError(r) ? r : null));
  }
}

function isWriteError(r: unknown): boolean {
  return r instanceof Error || (typeof r === 'object' && r !== null && 'errmsg' in r && 'code' in r);
}

// How the benches wait for their invoices to leave the pipeline, without measuring themselves.
import { Invoice } from '../../src/db/models';

const IN_PIPELINE: readonly string[] = ['queued', 'transformed', 'validated', 'delivered'];

/**
 * Waits until none of `ids` is still in the pipeline (queued to delivered), or the deadline; true when the deadline
 * cut it short. One lookup by `_id` per invoice, in the given order, resuming where the last poll stopped (an
 * invoice never goes back), so the probe costs the same whatever the store holds. A count by status decodes every
 * stored invoice of the SME on FerretDB, whose planner filters the status after reading each row: in bench:e2e's
 * grown store (c) and in bench:csv's wait such counts were the biggest load on the store, paid by the bench and
 * billed to the service. A missing invoice counts as out (the benches report it lost).
 */
export async function waitOutOfPipeline(ids: readonly string[], deadline: number, opts: { pollMs: number; note: (progress: string) => void }): Promise<boolean> {
  let lastNote = Date.now();
  let done = 0; // ids[0 .. done) have left the pipeline
  const pending = async () => {
    for (; done < ids.length; done++) {
      const doc = await Invoice.findOne({ _id: ids[done] }, { status: 1 }).lean<{ status: string }>();
      if (doc && IN_PIPELINE.includes(doc.status)) return true;
    }
    return false;
  };
  while (Date.now() < deadline) {
    if (!(await pending())) return false;
    if (Date.now() - lastNote > 10_000) (lastNote = Date.now()), opts.note(`${done} of ${ids.length} out of the pipeline (in order)`);
    await new Promise((r) => setTimeout(r, opts.pollMs));
  }
  return pending();
}

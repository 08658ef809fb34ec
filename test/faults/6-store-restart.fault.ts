// Fault: the MongoDB-compatible server killed (-9) and started again under load (issue 13, item 1). This scenario
// runs its own store (FerretDB on the machine's PostgreSQL, or on SQLite, as provisioning picks), so killing it
// leaves the suite's alone; its data outlives the process. While it is away the API answers 503 problem+json with
// Retry-After; the client resends those requests with the same Idempotency-Key afterwards. Every invoice the API
// accepted (201) must be stored and acknowledged, with no extra invoice and no restart of the API or the worker.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { ensureMongo, type MongoHandle, type MongoOptions } from '../../scripts/infra/mongo-server';
import { freePort } from '../../scripts/infra/net';
import { postJson, sleep, startFaultStack, until, type FaultStack, type JsonResponse } from '../../scripts/faults/stack';
import { randomTrn } from '../helpers/partners';
import { invoiceBody } from '../helpers/invoices';

const DOWN_MS = Number(process.env.FAULTS_STORE_DOWN_MS || 10_000);

interface Sent {
  key: string;
  body: unknown;
  res: JsonResponse | null;
  at: number;
}

describe('fault: the MongoDB-compatible server restarted under load', function () {
  this.timeout(10 * 60_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-faults-store-'));
  let opts: MongoOptions;
  let store: MongoHandle;
  let stack: FaultStack;
  let db: mongoose.Connection;
  let headers: Record<string, string>;
  let sme: { smeId: string; trn: string };

  before(async () => {
    opts = { dataDir, port: await freePort(), logDir: dataDir, database: 'einvoice_faults', postgresDatabase: `einvoice_faults_${process.pid}`, throwAway: false };
    store = await ensureMongo(opts);
    stack = await startFaultStack({ MONGODB_URI: store.uri });
    db = await mongoose.createConnection(store.uri).asPromise();
    const admin = { Authorization: `Bearer ${stack.env.ADMIN_TOKEN}` };
    const partner = (await postJson(`${stack.adminBase}/v1/admin/partners`, admin, { name: 'Store fault ERP', mode: 'test' })).body;
    sme = (await postJson(`${stack.adminBase}/v1/admin/partners/${partner.partnerId}/smes`, admin, { trn: randomTrn(), name: 'Store Fault SME LLC' })).body;
    headers = { 'X-API-Key': partner.apiKey, 'X-API-Secret': partner.apiSecret, 'x-erp-partner-secret': (sme as { connectionSecret?: string }).connectionSecret! };
  });

  after(async () => {
    await stack?.stop();
    await db?.close();
    await store?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('503 problem+json while it is away, recovery by itself, every accepted invoice acknowledged, none extra', async () => {
    const invoices = () => db.collection('invoices');
    const post = (s: Pick<Sent, 'key' | 'body'>) => postJson(`${stack.base}/v1/partner/invoices`, { ...headers, 'Idempotency-Key': s.key }, s.body).catch(() => null);
    const sent: Sent[] = [];
    let loading = true;
    const client = async () => {
      while (loading) {
        const s: Sent = { key: randomUUID(), body: invoiceBody({ sme: sme as never }), res: null, at: Date.now() };
        s.res = await post(s);
        sent.push(s);
        await sleep(100);
      }
    };
    const clients = Array.from({ length: 4 }, client);

    await until('some invoices acknowledged before the fault', async () => (await invoices().countDocuments({ smeId: sme.smeId, status: 'acknowledged' })) >= 20, 60_000, 200);
    process.kill(store.pid!, 'SIGKILL');
    const killedAt = Date.now();
    await sleep(DOWN_MS);
    store = await ensureMongo({ ...opts, throwAway: true });
    const backAt = Date.now();
    await sleep(5000); // load goes on against the restarted store
    loading = false;
    await Promise.all(clients);

    const statusOf = (s: Sent) => s.res?.status ?? 0;
    const tally = (list: Sent[]) => list.reduce<Record<string, number>>((acc, s) => ((acc[statusOf(s)] = (acc[statusOf(s)] ?? 0) + 1), acc), {});
    const whileAway = sent.filter((s) => s.at >= killedAt && s.at < backAt);
    const unavailable = sent.filter((s) => statusOf(s) === 503);
    console.log(`    [store-restart] away ${((backAt - killedAt) / 1000).toFixed(1)} s; ${sent.length} requests: ${JSON.stringify(tally(sent))}; sent while away: ${JSON.stringify(tally(whileAway))}`);
    expect(unavailable.length, 'some requests answered 503 while the store was away').to.be.greaterThan(0);
    for (const s of unavailable) {
      expect(s.res!.headers.get('content-type')).to.contain('application/problem+json');
      expect(s.res!.headers.get('retry-after')).to.match(/^\d+$/);
      expect(s.res!.body.code).to.equal('store_unavailable');
    }
    expect(sent.filter((s) => ![201, 503].includes(statusOf(s))).map(statusOf), 'only 201 or 503 (0: connection error)').to.deep.equal([]);

    // The client's part: resend what got no 201, with the same key.
    const retried = sent.filter((s) => statusOf(s) !== 201);
    for (const s of retried) {
      await until(`resend of ${s.key} accepted`, async () => {
        s.res = await post(s);
        return statusOf(s) === 201;
      }, 60_000, 1000);
    }
    const ids = sent.map((s) => s.res!.body.invoiceId as string);
    expect(new Set(ids).size, 'one invoice per request').to.equal(sent.length);
    await until(`all ${ids.length} acknowledged`, async () => (await invoices().countDocuments({ smeId: sme.smeId, status: 'acknowledged' })) === ids.length, 5 * 60_000, 1000);
    const stored = await invoices().find({ smeId: sme.smeId }, { projection: { _id: 1, status: 1 } }).toArray();
    console.log(`    [store-restart] ${retried.length} resent with their keys; ${stored.length} stored, all acknowledged; API and worker still the first processes: ${stack.api.proc.exitCode === null && stack.worker.proc.exitCode === null}`);
    expect(new Set(stored.map((d) => String(d._id)))).to.deep.equal(new Set(ids));
    expect(stack.api.proc.exitCode, 'API process not restarted').to.equal(null);
    expect(stack.worker.proc.exitCode, 'worker process not restarted').to.equal(null);
  });
});

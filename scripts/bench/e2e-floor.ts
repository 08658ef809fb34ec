// bench:e2e's bare floor, in a process of its own: a Temporal worker for e2e-floor-workflow.ts, and an HTTP control
// listener (BENCH_FLOOR_PORT) on which the bench asks for one phase's worth of floor "invoices":
//   POST /run {count, writes, concurrency?, intervalMs?} -> {latenciesMs: number[]}
// Each floor invoice is: one document inserted and then updated writes-1 times by _id (the same number of store
// writes as one of our invoices makes, with nothing in them), one workflow started, one signal, and its completion
// awaited. Burst: `concurrency` at a time; steady: one every `intervalMs`, open loop. The driver runs in this process,
// so the floor's CPU includes its own client work too (a floor that flatters the floor, not us).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { MongoClient } from 'mongodb';

const env = process.env;
const taskQueue = `${env.TEMPORAL_TASK_QUEUE}-floor`;

async function main(): Promise<void> {
  const mongo = await new MongoClient(env.MONGODB_URI!).connect();
  const docs = mongo.db().collection<{ _id: string; n: number }>('bench_floor');
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address: env.TEMPORAL_ADDRESS }),
    taskQueue,
    workflowsPath: require.resolve('./e2e-floor-workflow'),
  });
  void worker.run();
  const client = new Client({ connection: await Connection.connect({ address: env.TEMPORAL_ADDRESS }) });

  const one = async (writes: number): Promise<number> => {
    const t = Date.now();
    const _id = randomUUID();
    await docs.insertOne({ _id, n: 0 });
    const handle = await client.workflow.start('floorWorkflow', { taskQueue, workflowId: `floor-${_id}` });
    for (let i = 1; i < writes; i++) await docs.updateOne({ _id }, { $set: { n: i } });
    await handle.signal('floor');
    await handle.result();
    return Date.now() - t;
  };

  const run = async (o: { count: number; writes: number; concurrency?: number; intervalMs?: number }): Promise<number[]> => {
    const latencies: number[] = [];
    if (o.intervalMs) {
      const start = Date.now();
      const all: Promise<void>[] = [];
      for (let i = 0; i < o.count; i++) {
        await new Promise((r) => setTimeout(r, start + i * o.intervalMs! - Date.now()));
        all.push(one(o.writes).then((ms) => void latencies.push(ms)));
      }
      await Promise.all(all);
    } else {
      let next = 0;
      const lane = async () => {
        while (next++ < o.count) latencies.push(await one(o.writes));
      };
      await Promise.all(Array.from({ length: o.concurrency ?? 200 }, lane));
    }
    return latencies;
  };

  http
    .createServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(200).end('ready'); // the bench's readiness probe
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        Promise.resolve()
          .then(() => run(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
          .then(
          (latenciesMs) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ latenciesMs })),
          (err: Error) => res.writeHead(500).end(err.stack),
        );
      });
    })
    .listen(Number(env.BENCH_FLOOR_PORT), '127.0.0.1', () => console.log('floor ready'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// The baseline of bench:ingest, run as its own process like the API: a Koa endpoint that parses the JSON body,
// inserts it into MongoDB (collection bench_bare) and answers 201. Nothing else. PORT, MONGODB_URI.
import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import mongoose from 'mongoose';

async function main(): Promise<void> {
  await mongoose.connect(process.env.MONGODB_URI!, { serverSelectionTimeoutMS: 10_000, autoIndex: false });
  const collection = mongoose.connection.db!.collection('bench_bare');
  const router = new Router();
  router.post('/bare', async (ctx) => {
    await collection.insertOne({ ...(ctx.request.body as object) });
    ctx.status = 201;
    ctx.body = { ok: true };
  });
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });
  const app = new Koa();
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '1mb' })).use(router.routes());
  app.listen(Number(process.env.PORT), '127.0.0.1');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// bench:e2e's webhook receiver, in a process of its own (as an integrator's would be): `npm start`'s receiver
// (src/dev/webhook-receiver.ts, verifyWebhook on the raw bytes) on BENCH_RECEIVER_PORT, and a second listener on
// BENCH_RECEIVER_STATS_PORT that answers GET with what arrived: {ok, refused, invoiceIds} (ids of events whose
// signature verified). Nothing is printed per event: at a burst's rate the printing would be the receiver's work.
import http from 'node:http';
import { PARTNER_WEBHOOK_PATH, startDevReceiver } from '../../src/dev/webhook-receiver';

const secret = process.env.BENCH_WEBHOOK_SECRET ?? '';
const counts = { ok: 0, refused: 0, invoiceIds: [] as string[] };

void startDevReceiver({
  port: Number(process.env.BENCH_RECEIVER_PORT),
  routes: { [PARTNER_WEBHOOK_PATH]: { label: 'webhook', secret: () => secret } },
  // The line is `[webhook] signature ok <raw body>` or `[webhook] signature REFUSED (<reason>) <raw body>`.
  print: (line) => {
    if (!line.startsWith('[webhook] signature ok ')) return void counts.refused++;
    counts.ok++;
    counts.invoiceIds.push((JSON.parse(line.slice('[webhook] signature ok '.length).trim()) as { invoiceId: string }).invoiceId);
  },
});
http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(counts))).listen(Number(process.env.BENCH_RECEIVER_STATS_PORT), '127.0.0.1');

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Invoice, type InvoiceStatus } from '../../src/db/models';
import type { TestPartner } from './partners';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  receivedAt: number;
}

/** What the receiver answers to its n-th request (1-based): a status, optionally extra headers. */
export type Responder = (req: ReceivedRequest, n: number) => number | { status: number; headers?: Record<string, string> };

/** A real HTTP webhook receiver on loopback that records every request it gets. */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private waiters: (() => void)[] = [];
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    public respond: Responder,
  ) {}

  static async start(respond: Responder = () => 200, path = '/hooks/einvoice'): Promise<WebhookReceiver> {
    let self: WebhookReceiver | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
        self!.requests.push(received);
        const answer = self!.respond(received, self!.requests.length);
        const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
        res.writeHead(status, headers).end(status < 300 ? 'ok' : 'nope');
        for (const wake of self!.waiters.splice(0)) wake();
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    self = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, respond);
    return self;
  }

  /** Resolves once `count` requests have arrived (bounded by the mocha test timeout). */
  async waitForRequests(count: number): Promise<ReceivedRequest[]> {
    while (this.requests.length < count) await new Promise<void>((r) => this.waiters.push(r));
    return this.requests;
  }

  forDelivery(deliveryId: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.headers['x-webhook-delivery-id'] === deliveryId);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** An invoice of the partner's SME stored directly in MongoDB, already at `status` (no pipeline needed). */
export async function invoiceAt(partner: TestPartner, status: InvoiceStatus, reason: string | null = null, history: { status: InvoiceStatus; reason?: string | null }[] = [{ status, reason }]): Promise<string> {
  const id = randomUUID();
  const at = new Date();
  await Invoice.create({
    _id: id, partnerId: partner.partnerId, smeId: partner.sme.smeId, mode: partner.mode, number: `INV-${id.slice(0, 8)}`, numberScope: `sme:${partner.sme.smeId}`, numberPeriod: 2026,
    issueDate: '2026-11-01', sellerTrn: partner.sme.trn, status, reason, history: history.map((h) => ({ status: h.status, reason: h.reason ?? null, at, run: 1 })), body: {},
  });
  return id;
}

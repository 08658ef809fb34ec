import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { temporalClient } from '../../src/temporal/client';
import { invoiceWorkflowId } from '../../src/temporal/contract';
import { call, type ApiResponse } from './http';
import type { TestPartner } from './partners';

const MINIMAL = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/bodies/01-tax-invoice-minimal.json'), 'utf8'));

/** The minimal tax invoice of the fixtures, issued by the partner's SME, with a fresh number. */
export function invoiceBody(p: Pick<TestPartner, 'sme'>, patch: (body: any) => void = () => {}): any {
  const body = structuredClone(MINIMAL);
  body.trn = p.sme.trn;
  body.seller.trn = p.sme.trn;
  body.number = `INV-${randomUUID().slice(0, 13)}`;
  patch(body);
  return body;
}

export function postInvoice(p: TestPartner, body: unknown, key: string = randomUUID()): Promise<ApiResponse> {
  return call('POST', '/v1/partner/invoices', { headers: { ...p.headers, 'Idempotency-Key': key }, json: body });
}

export function getInvoice(p: TestPartner, invoiceId: string): Promise<ApiResponse> {
  return call('GET', `/v1/partner/invoices/${invoiceId}`, { headers: p.headers });
}

/**
 * Polls GET until the invoice reaches one of `statuses`. The deadline only keeps a broken pipeline from
 * hanging the run; it asserts nothing about speed.
 */
export async function waitForStatus(p: TestPartner, invoiceId: string, statuses: string | string[], opts: { deadlineMs?: number } = {}): Promise<any> {
  const wanted = ([] as string[]).concat(statuses);
  const deadline = Date.now() + (opts.deadlineMs ?? 60_000);
  let last: ApiResponse | undefined;
  while (Date.now() < deadline) {
    last = await getInvoice(p, invoiceId);
    if (last.status === 200 && wanted.includes(last.body.status)) return last.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`invoice ${invoiceId} did not reach ${wanted.join('|')}; last answer ${last?.status} ${last?.text}`);
}

/**
 * The workflow's description once its InvoiceStatus search attribute shows `status`: the workflow mirrors a
 * stored status just after the activity that wrote it returns, so it may trail the database briefly.
 */
export async function describeWhenStatus(invoiceId: string, status: string): Promise<WorkflowExecutionDescription> {
  const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(invoiceId));
  const deadline = Date.now() + 30_000;
  let description = await handle.describe();
  while (description.searchAttributes.InvoiceStatus?.[0] !== status && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    description = await handle.describe();
  }
  return description;
}

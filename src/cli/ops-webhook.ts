import { webhookWorkflowId } from '../temporal/contract';
import { deliveriesOf, isWebhookError } from '../webhooks/deliveries';
import { replayStatusWebhook } from '../webhooks/start';
import { usageError, type CliIo } from './io';
import { printWithServices } from './with-services';

// Support operations on invoice.status_changed webhooks; `einvoice ops` dispatches here. Prints JSON.

/** `einvoice ops replay-webhook <invoiceId>`: a new delivery of the invoice's last event (as the API's replay). */
export async function replayWebhookCommand(args: string[], io: CliIo): Promise<number> {
  const invoiceId = single(args, 'usage: einvoice ops replay-webhook <invoiceId>');
  return printWithServices(io, 'einvoice ops', isWebhookError, async () => {
    const started = await replayStatusWebhook(invoiceId);
    return { invoiceId, ...started, workflowId: webhookWorkflowId(started.deliveryId) };
  });
}

/** `einvoice ops webhook-deliveries <invoiceId>`: every delivery row, newest first, with each attempt's log. */
export async function webhookDeliveriesCommand(args: string[], io: CliIo): Promise<number> {
  const invoiceId = single(args, 'usage: einvoice ops webhook-deliveries <invoiceId>');
  return printWithServices(io, 'einvoice ops', isWebhookError, async () =>
    (await deliveriesOf(invoiceId)).map(({ _id, ...row }) => ({ deliveryId: _id, workflowId: webhookWorkflowId(_id), ...row })),
  );
}

function single(args: string[], usage: string): string {
  const [value, ...extra] = args;
  if (!value || value.startsWith('-') || extra.length) throw usageError(usage);
  return value;
}

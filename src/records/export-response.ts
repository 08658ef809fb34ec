// The HTTP answer of an audit export (GET /v1/partner/records, GET /v1/records): the query checked, then the
// archive streamed as the client reads it (Koa pipes the Readable: no more is read from the store than is sent).
import { Readable } from 'node:stream';
import type { ParameterizedContext } from 'koa';
import { serviceErrors } from '../domain/errors';
import { logger } from '../logger';
import { exportArchive } from './export-archive';
import { exportFileName, resolveExportQuery } from './export-period';
import type { ExportSource } from './export-source';

export function sendExport(ctx: ParameterizedContext, source: ExportSource): void {
  const { value: period, errors } = resolveExportQuery(ctx.query);
  if (!period) throw serviceErrors.validation(errors, 'InvalidQuery: the query string failed validation; see the errors.');
  const body = Readable.from(exportArchive(source, period.from, period.to));
  // Headers are gone once the archive streams: a store failure midway can only cut it short (no closing blocks,
  // which `records verify --archive` reports as truncated). Logged here with the request's own logger fields.
  body.once('error', (err) => logger.error({ err, trn: source.trn, ...period }, 'records export failed while streaming'));
  ctx.set('Content-Disposition', `attachment; filename="${exportFileName(source.trn, period)}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/x-tar';
  ctx.body = body;
}

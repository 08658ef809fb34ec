// POST /documents/validate as HTML: the findings, and the document beside them when it reads as a PINT-AE
// invoice or credit note (a document too broken to read still gets its findings). Pure code.
import type { Findings } from '@einvoice/pint-ae';
import { isServiceError } from '../domain/errors';
import { documentView, UNREADABLE_DOCUMENT, type DocumentView } from './document-view';
import { findingsHtml } from './html';

export function findingsPage(findings: Findings, xml: string): string {
  let view: DocumentView | undefined;
  try {
    view = documentView(xml);
  } catch (err) {
    if (!isServiceError(err, UNREADABLE_DOCUMENT)) throw err;
  }
  return findingsHtml(findings, view);
}

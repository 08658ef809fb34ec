// The document view as one self-contained HTML page (inline CSS, no script, no external resource): labels in
// English and Arabic, Arabic text in dir="rtl" spans so the browser shapes and orders it. Values are
// HTML-escaped and isolated with <bdi> so a value in one script cannot reorder its neighbours. Pure code.
import { addressLines, categoryName, money, plain, registrationName, unitName } from './format';
import { hasArabic, type AllowanceChargeView, type DocumentView, type LineView, type PartyView } from './document-view';
import { LABELS, type Bilingual, type LabelKey } from './labels';
import type { Finding, Findings } from '@einvoice/pint-ae';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]);
}

/** A value: Arabic text gets dir="rtl" lang="ar", anything else is isolated so it keeps its own order. */
function v(s: string | undefined): string {
  if (s === undefined || s === '') return '';
  return hasArabic(s) ? `<bdi dir="rtl" lang="ar">${esc(s)}</bdi>` : `<bdi>${esc(s)}</bdi>`;
}

function bi(b: Bilingual): string {
  return `<span class="en">${esc(b.en)}</span> <span class="ar" dir="rtl" lang="ar">${esc(b.ar)}</span>`;
}

function lab(key: LabelKey): string {
  return bi(LABELS[key]);
}

function row(key: LabelKey, value: string | undefined, raw = false): string {
  if (!value) return '';
  return `<tr><th>${lab(key)}</th><td>${raw ? value : v(value)}</td></tr>`;
}

const CSS = `
body{font-family:"Noto Sans","Noto Sans Arabic","Segoe UI",Tahoma,Arial,sans-serif;color:#1b1b1b;margin:24px;font-size:13px}
h1{font-size:20px;margin:0 0 4px} h2{font-size:14px;margin:18px 0 6px;border-bottom:1px solid #999;padding-bottom:2px}
.ar{font-family:"Noto Sans Arabic","Noto Naskh Arabic",Tahoma,sans-serif;color:#444}
h1 .ar,h2 .ar{float:right}
.parties{display:flex;gap:16px} .party{flex:1;border:1px solid #ccc;border-radius:4px;padding:8px}
.party .arname{font-size:15px;font-weight:bold;display:block;text-align:right}
table{border-collapse:collapse;width:100%} th,td{padding:3px 6px;vertical-align:top;text-align:left}
table.kv th{width:40%;font-weight:normal;color:#555}
table.grid th{background:#eee;font-weight:normal;font-size:11px;border:1px solid #ccc}
table.grid td{border:1px solid #ddd} td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
table.totals{width:55%;margin-left:auto} table.totals tr.due td,table.totals tr.due th{font-weight:bold;border-top:2px solid #333}
.small{font-size:11px;color:#555} .flags span.flag{display:inline-block;border:1px solid #888;border-radius:3px;padding:1px 5px;margin:2px}
.mono{font-family:monospace;word-break:break-all} .fatal{color:#a00} .warning{color:#8a5a00}
`;

function partyBlock(key: LabelKey, p: PartyView): string {
  const out: string[] = [`<div class="party"><h2>${lab(key)}</h2>`];
  if (p.arabicName) out.push(`<span class="arname" dir="rtl" lang="ar">${esc(p.arabicName)}</span>`);
  out.push('<table class="kv">');
  out.push(row('legalName', p.legalName));
  for (const t of p.tradeNames) out.push(row('tradeName', t));
  out.push(row('trn', p.trn));
  if (p.registration) {
    const type = registrationName(p.registration.type);
    const regText = `${v(p.registration.id)}${type ? ` <span class="small">${bi(type)}</span>` : p.registration.type ? ` (${esc(p.registration.type)})` : ''}${p.registration.authority ? ` <span class="small">${v(p.registration.authority)}</span>` : ''}`;
    out.push(row('registration', regText, true));
  }
  if (p.endpoint) out.push(row('endpoint', `${p.endpoint.scheme ? p.endpoint.scheme + ':' : ''}${p.endpoint.id}`));
  for (const i of p.identifiers) out.push(row('identifier', `${i.scheme ? i.scheme + ':' : ''}${i.id}`));
  const addr = addressLines(p.address);
  if (addr.lines.length) {
    const em = addr.emirate ? ` <span class="ar" dir="rtl" lang="ar">${esc(addr.emirate.ar)}</span>` : '';
    out.push(row('address', addr.lines.map(v).join('<br>') + em, true));
  }
  if (p.contact.length) out.push(row('contact', p.contact.map(v).join('<br>'), true));
  out.push('</table>');
  if (p.arabicNameFromRecord) out.push(`<div class="small">${lab('arabicFromRecord')}</div>`);
  out.push('</div>');
  return out.join('');
}

function acText(a: AllowanceChargeView): string {
  const kind = a.charge ? LABELS.charge : LABELS.allowance;
  const pct = a.percent && a.baseAmount ? ` (${plain(a.percent)}% × ${money(a.baseAmount)})` : '';
  const reason = [a.reasonCode, a.reason].filter(Boolean).join(' ');
  return `${bi(kind)} ${a.charge ? '+' : '−'}${money(a.amount)}${pct}${reason ? ' ' + v(reason) : ''}`;
}

function lineRow(l: LineView): string {
  const cat = categoryName(l.taxCategory);
  const item = [
    l.name ? `<b>${v(l.name)}</b>` : '',
    l.description && l.description !== l.name ? v(l.description) : '',
    l.sellerItemId ? `<span class="small">${esc(l.sellerItemId)}</span>` : '',
    l.note ? `<span class="small">${v(l.note)}</span>` : '',
    l.period ? `<span class="small">${esc(l.period)}</span>` : '',
    l.goodsType ? `<span class="small">${v(l.goodsType)}</span>` : '',
    l.exemptionReason ? `<span class="small">${v(l.exemptionReason)}</span>` : '',
  ].filter(Boolean);
  const price =
    money(l.price) +
    (l.baseQuantity && l.baseQuantity !== '1' ? ` / ${plain(l.baseQuantity)}` : '') +
    (l.priceDiscount && l.grossPrice && Number(l.priceDiscount) !== 0 ? `<br><span class="small">${money(l.grossPrice)} − ${money(l.priceDiscount)}</span>` : '');
  return (
    `<tr><td>${esc(l.id)}</td><td>${item.join('<br>')}</td><td class="num">${plain(l.quantity)}</td><td>${esc(unitName(l.unitCode))}</td>` +
    `<td class="num">${price}</td><td>${l.allowancesCharges.map(acText).join('<br>')}</td>` +
    `<td>${esc(l.taxCategory ?? '')}${cat ? ` <span class="small">${bi(cat)}</span>` : ''}</td><td class="num">${l.taxPercent !== undefined ? plain(l.taxPercent) + '%' : ''}</td>` +
    `<td class="num">${money(l.net)}</td><td class="num">${l.vat !== undefined ? money(l.vat) : ''}</td></tr>`
  );
}

/** The document body (no <html> wrapper): used alone and beside validation findings. */
export function documentHtmlFragment(d: DocumentView): string {
  const out: string[] = [];
  out.push(`<h1>${bi(d.title)}</h1><div class="small">${lab('generatedFrom')}</div>`);
  out.push('<table class="kv" style="width:60%">');
  out.push(row('number', d.number));
  out.push(row('issueDate', d.issueTime ? `${d.issueDate ?? ''} ${d.issueTime}` : d.issueDate));
  out.push(row('dueDate', d.dueDate));
  out.push(row('taxPointDate', d.taxPointDate));
  out.push(row('period', d.period));
  out.push(row('currency', d.currency + (d.taxCurrency && d.taxCurrency !== d.currency ? ` (VAT in ${d.taxCurrency})` : '')));
  out.push(row('uuid', d.uuid));
  for (const r of d.references) out.push(row(r.key, r.value));
  out.push('</table>');

  out.push(`<h2>${lab('transactionType')}</h2><div class="flags">`);
  if (d.transactionTypes.length) out.push(d.transactionTypes.map((f) => `<span class="flag">${bi(f)}</span>`).join(''));
  else out.push(lab('noSpecialTransaction'));
  if (d.transactionFlags) out.push(` <span class="small mono">BTAE-02 ${esc(d.transactionFlags)}</span>`);
  out.push('</div>');

  out.push(`<div class="parties">${partyBlock('seller', d.seller)}${partyBlock('buyer', d.buyer)}</div>`);
  if (d.payee || d.taxRepresentative) {
    out.push('<div class="parties">');
    if (d.payee) out.push(partyBlock('payee', d.payee));
    if (d.taxRepresentative) out.push(partyBlock('taxRepresentative', d.taxRepresentative));
    out.push('</div>');
  }
  if (d.deliveryDate || d.deliveryAddress) {
    out.push(`<h2>${lab('delivery')}</h2><table class="kv">${row('deliveryDate', d.deliveryDate)}`);
    const a = addressLines(d.deliveryAddress);
    if (a.lines.length) out.push(row('address', a.lines.map(v).join('<br>'), true));
    out.push('</table>');
  }

  out.push(`<h2>${lab('lines')}</h2><table class="grid"><thead><tr>`);
  for (const k of ['line', 'item', 'quantity', 'unit', 'unitPrice', 'allowancesCharges', 'taxCategory', 'rate', 'net', 'lineVat'] as const) out.push(`<th>${lab(k)}</th>`);
  out.push('</tr></thead><tbody>');
  for (const l of d.lines) out.push(lineRow(l));
  out.push('</tbody></table>');

  if (d.allowancesCharges.length) {
    out.push(`<h2>${lab('documentAllowancesCharges')}</h2><table class="grid"><tbody>`);
    for (const a of d.allowancesCharges) {
      out.push(`<tr><td>${acText(a)}</td><td>${esc(a.taxCategory ?? '')} ${a.taxPercent !== undefined ? plain(a.taxPercent) + '%' : ''}</td></tr>`);
    }
    out.push('</tbody></table>');
  }

  out.push(`<h2>${lab('vatBreakdown')}</h2><table class="grid"><thead><tr><th>${lab('taxCategory')}</th><th>${lab('rate')}</th><th>${lab('taxableAmount')}</th><th>${lab('vatAmount')}</th></tr></thead><tbody>`);
  for (const b of d.vatBreakdown) {
    const cat = categoryName(b.category);
    out.push(
      `<tr><td>${esc(b.category)}${cat ? ` ${bi(cat)}` : ''}${b.exemptionReason ? `<br><span class="small">${v(b.exemptionReason)}</span>` : ''}</td>` +
        `<td class="num">${b.percent !== undefined ? plain(b.percent) + '%' : ''}</td><td class="num">${money(b.taxable)}</td><td class="num">${money(b.tax)}</td></tr>`,
    );
  }
  out.push('</tbody></table>');

  const t = d.totals;
  const cur = esc(d.currency);
  const trow = (key: LabelKey, amount: string | undefined, cls = '') => (amount === undefined ? '' : `<tr class="${cls}"><th>${lab(key)}</th><td class="num">${cur} ${money(amount)}</td></tr>`);
  out.push(`<h2>${lab('totals')}</h2><table class="totals">`);
  out.push(trow('sumOfLines', t.lineExtension), trow('allowanceTotal', t.allowanceTotal), trow('chargeTotal', t.chargeTotal));
  out.push(trow('totalExclVat', t.taxExclusive), trow('totalVat', d.vatTotal), trow('totalInclVat', t.taxInclusive));
  out.push(trow('prepaid', t.prepaid), trow('rounding', t.rounding), trow('payable', t.payable, 'due'));
  if (d.vatTotalAccounting) out.push(`<tr><th>${lab('vatInAccountingCurrency')}</th><td class="num">${esc(d.vatTotalAccounting.currency)} ${money(d.vatTotalAccounting.amount)}</td></tr>`);
  out.push('</table>');

  if (d.paymentMeans.length || d.paymentTerms.length) {
    out.push(`<h2>${lab('payment')}</h2><table class="kv">`);
    for (const p of d.paymentMeans) {
      out.push(row('paymentMeans', [p.code, p.name].filter(Boolean).join(' ')));
      out.push(row('account', [p.account, p.accountName, p.institution].filter(Boolean).join(' · ') || p.card));
      out.push(row('paymentId', p.paymentId ?? p.mandate));
    }
    for (const term of d.paymentTerms) out.push(row('paymentTerms', term));
    out.push('</table>');
  }
  if (d.notes.length) out.push(`<h2>${lab('notes')}</h2>${d.notes.map((n) => `<p>${v(n)}</p>`).join('')}`);

  if (d.evidence) {
    const e = d.evidence;
    out.push(`<h2>${lab('deliveryEvidence')}</h2><table class="kv">`);
    out.push(row('submissionId', e.submissionId ?? undefined), row('ackRef', e.ackRef ?? undefined));
    for (const s of e.statuses ?? []) out.push(row('status', `${s.status} ${s.at}`));
    if (e.documentSha256) out.push(row('sha256', `<span class="mono">${esc(e.documentSha256)}</span>`, true));
    out.push('</table>');
  }
  return out.join('');
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head><body>${body}</body></html>`;
}

/** The rendition as a complete HTML page. */
export function documentHtml(d: DocumentView): string {
  return page(`${d.title.en} ${d.number}`, documentHtmlFragment(d));
}

function findingRows(kind: 'fatal' | 'warning', list: Finding[]): string {
  return list.map((f) => `<tr class="${kind}"><td>${kind}</td><td class="mono">${esc(f.id)}</td><td class="mono">${esc(f.location)}</td><td>${esc(f.text)}</td></tr>`).join('');
}

/** POST /documents/validate as HTML: the findings, then the document they are about (when it can be read). */
export function findingsHtml(findings: Findings, d: DocumentView | undefined): string {
  const out: string[] = [`<h1>${lab('findings')}</h1>`];
  if (!findings.fatal.length && !findings.warning.length) out.push(`<p>${lab('noFindings')}</p>`);
  else {
    out.push('<table class="grid"><thead><tr><th>flag</th><th>rule</th><th>location</th><th>text</th></tr></thead><tbody>');
    out.push(findingRows('fatal', findings.fatal), findingRows('warning', findings.warning), '</tbody></table>');
  }
  if (d) out.push('<hr>', documentHtmlFragment(d));
  return page(`${LABELS.findings.en}${d ? ' ' + d.number : ''}`, out.join(''));
}

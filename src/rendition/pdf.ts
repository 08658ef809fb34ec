// The document view as an A4 PDF with pdfkit (pure JS; fontkit shapes Arabic with the font's OpenType
// tables and lays Arabic words right to left), with IBM Plex Sans Arabic (both scripts in one font, embedded
// as a subset). Text is split into script runs; a line whose first strong character is Arabic is laid out
// right to left (its runs in reverse order), so digits inside an Arabic name keep their place. Pages are
// written out as they fill (no page buffering), so memory does not grow with the line count beyond the output
// itself. Pure apart from the font files read once.
import PDFDocument from 'pdfkit';
import { addressLines, categoryName, money, plain, registrationName, unitName } from './format';
import { hasArabic, type AllowanceChargeView, type DocumentView, type LineView, type PartyView } from './document-view';
import { LABELS, type Bilingual, type LabelKey } from './labels';
import { rendFonts, type FontRole } from './pdf-fonts';

const MARGIN = 36;
const A4 = { w: 595.28, h: 841.89 };
const CONTENT_W = A4.w - 2 * MARGIN;
const GREY = '#555555';

type Doc = PDFKit.PDFDocument;

interface Run {
  text: string;
  arabic: boolean;
}

const ARABIC_CHAR = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
// An Arabic-script stretch: from one Arabic letter to the last, with the spaces and punctuation between.
const RTL_STRETCH = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF](?:[^A-Za-z0-9\u00C0-\u024F]*[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF])?/gu;

/**
 * Script runs in visual (left to right) order. An Arabic run is laid out whole by fontkit, which reverses
 * its glyphs (see Writer.line: without `features` pdfkit would lay it out word by word, left to right).
 * Characters the font cannot shape as Arabic stay in place as their own runs. A line whose first strong character is
 * Arabic has its runs in reverse order.
 */
export function visualRuns(s: string): Run[] {
  if (!ARABIC_CHAR.test(s)) return [{ text: s, arabic: false }];
  const fonts = rendFonts();
  const runs: Run[][] = [];
  let last = 0;
  const ltr = (text: string) => {
    if (text) runs.push([{ text, arabic: false }]);
  };
  for (const m of s.matchAll(RTL_STRETCH)) {
    ltr(s.slice(last, m.index));
    last = m.index + m[0].length;
    const segs: Run[] = [];
    for (const ch of m[0]) {
      const arabic = fonts.arabicHas(ch.codePointAt(0)!);
      const prev = segs[segs.length - 1];
      if (prev && prev.arabic === arabic) prev.text += ch;
      else segs.push({ text: ch, arabic });
    }
    runs.push(segs.reverse());
  }
  ltr(s.slice(last));
  const firstStrong = s.match(/[A-Za-z\u00C0-\u024F]|[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/)?.[0];
  if (firstStrong && ARABIC_CHAR.test(firstStrong)) runs.reverse();
  return runs.flat();
}

const ARABIC_FEATURES = {} as unknown as PDFKit.Mixins.OpenTypeFeatures[];

interface EmbeddedFontLike {
  encode(text: string, features?: unknown): unknown;
  unicode: (number[] | undefined)[];
  rtlLigaturesFixed?: Set<number>;
}

/**
 * A ligature glyph (lam-alef, and Plex's own) maps to several letters in the ToUnicode map, which pdfkit
 * writes in logical order; text extractors that put right-to-left text back in logical order letter by
 * letter (poppler's pdftotext, pdf.js) reverse the ligature's letters too. Written in visual order, they
 * come back logical.
 */
function reverseArabicLigatures(font: EmbeddedFontLike): void {
  if (font.rtlLigaturesFixed) return;
  const fixed = (font.rtlLigaturesFixed = new Set<number>());
  const encode = font.encode.bind(font);
  font.encode = (text, features) => {
    const out = encode(text, features);
    font.unicode.forEach((cps, gid) => {
      if (!cps || fixed.has(gid)) return;
      fixed.add(gid);
      if (cps.length > 1 && cps.every((cp) => ARABIC_CHAR.test(String.fromCodePoint(cp)))) font.unicode[gid] = [...cps].reverse();
    });
    return out;
  };
}

class Writer {
  y = MARGIN;
  private readonly swapped = new Set<FontRole>();
  constructor(readonly doc: Doc) {}

  /**
   * Selects a font. The first time in a document, its layout font is swapped for the process's parsed one
   * (pdf-fonts.ts): pdfkit keeps the subset on its own copy, same file and glyph ids, so the PDF is unchanged.
   */
  useFont(role: FontRole): Doc {
    this.doc.font(role);
    if (!this.swapped.has(role)) {
      this.swapped.add(role);
      (this.doc as unknown as { _font: { font: unknown } })._font.font = rendFonts().parsed[role];
    }
    return this.doc;
  }

  /** One font for both scripts (see pdf-fonts.ts); `arabic` only says how the run is laid out. */
  font(_arabic: boolean, bold: boolean): FontRole {
    return bold ? 'bold' : 'regular';
  }

  /** Recent widths: a cell is measured, then measured again as it is drawn (kept small: memory stays flat). */
  private readonly widths = new Map<string, number>();
  private color = '';

  width(s: string, size: number, bold = false): number {
    const key = `${size}|${bold ? 1 : 0}|${s}`;
    let w = this.widths.get(key);
    if (w !== undefined) return w;
    w = 0;
    for (const r of visualRuns(s)) w += this.useFont(this.font(r.arabic, bold)).fontSize(size).widthOfString(r.text);
    if (this.widths.size > 256) this.widths.clear();
    this.widths.set(key, w);
    return w;
  }

  fill(color: string): void {
    if (color === this.color) return;
    this.color = color;
    this.doc.fillColor(color);
  }

  /** One line of text at (x, y) within width: shrunk to fit when longer, aligned left or right. */
  line(s: string, x: number, y: number, width: number, opts: { size?: number; bold?: boolean; align?: 'left' | 'right'; color?: string } = {}): void {
    if (!s) return;
    let size = opts.size ?? 8;
    let w = this.width(s, size, opts.bold);
    if (w > width && w > 0) {
      size = Math.max(4, (size * width) / w);
      w = this.width(s, size, opts.bold);
    }
    let cx = opts.align === 'right' ? x + width - w : x;
    this.fill(opts.color ?? '#1b1b1b');
    for (const r of visualRuns(s)) {
      this.useFont(this.font(r.arabic, !!opts.bold)).fontSize(size);
      if (r.arabic) reverseArabicLigatures((this.doc as unknown as { _font: EmbeddedFontLike })._font);
      // Any `features` makes pdfkit lay the run out whole (fontkit then orders the Arabic right to left).
      this.doc.text(r.text, cx, y, { lineBreak: false, features: r.arabic ? ARABIC_FEATURES : undefined });
      cx += this.doc.widthOfString(r.text);
    }
  }

  /** Text wrapped to width (lines without Arabic), or one fitted line (with Arabic); returns the height used. */
  block(s: string, x: number, y: number, width: number, opts: { size?: number; bold?: boolean; color?: string; measureOnly?: boolean } = {}): number {
    const size = opts.size ?? 8;
    if (!s) return 0;
    if (hasArabic(s)) {
      if (!opts.measureOnly) this.line(s, x, y, width, opts);
      return size * 1.5;
    }
    // Most cells fit on one line: drawn without pdfkit's line wrapper, which costs most of a long invoice's time.
    if (this.width(s, size, opts.bold) <= width) {
      if (!opts.measureOnly) this.line(s, x, y, width, opts);
      return size * 1.4;
    }
    this.useFont(this.font(false, !!opts.bold)).fontSize(size);
    const h = this.doc.heightOfString(s, { width });
    if (!opts.measureOnly) {
      this.fill(opts.color ?? '#1b1b1b');
      this.doc.text(s, x, y, { width });
    }
    return h;
  }

  /** English label, then the Arabic one right-aligned in the same box. */
  bilingual(b: Bilingual, x: number, y: number, width: number, size = 7, bold = false): void {
    const enW = Math.min(this.width(b.en, size, bold), width * 0.55);
    this.line(b.en, x, y, enW + 0.5, { size, bold, color: GREY });
    this.line(b.ar, x + enW + 4, y, width - enW - 4, { size, bold, align: 'right', color: GREY });
  }

  ensure(h: number): void {
    if (this.y + h > A4.h - MARGIN - 14) this.newPage();
  }

  newPage(): void {
    this.doc.addPage();
    this.color = ''; // a new page starts with the default graphics state
    this.y = MARGIN;
  }

  heading(key: LabelKey): void {
    this.ensure(70); // with room for what follows: no heading alone at a page's foot
    this.y += 8;
    this.bilingual(LABELS[key], MARGIN, this.y, CONTENT_W, 10, true);
    this.y += 15;
    this.doc.moveTo(MARGIN, this.y).lineTo(MARGIN + CONTENT_W, this.y).lineWidth(0.5).strokeColor('#999999').stroke();
    this.y += 4;
  }

  /** A label / value row at (x, y) in a column; returns its height. */
  kv(key: LabelKey | Bilingual, value: string, x: number, y: number, width: number): number {
    const labelW = width * 0.42;
    this.bilingual(typeof key === 'string' ? LABELS[key] : key, x, y + 1, labelW - 4);
    return Math.max(11, this.block(value, x + labelW, y, width - labelW, { size: 8 }) + 2);
  }

  kvRows(rows: [LabelKey | Bilingual, string | undefined][], x = MARGIN, width = CONTENT_W): void {
    for (const [k, v] of rows) {
      if (!v) continue;
      const need = Math.max(11, this.block(v, x + width * 0.42, 0, width * 0.58, { measureOnly: true }) + 2);
      this.ensure(need);
      this.y += this.kv(k, v, x, this.y, width);
    }
  }
}

function partyRows(p: PartyView): [LabelKey | Bilingual, string | undefined][] {
  const rows: [LabelKey | Bilingual, string | undefined][] = [['legalName', p.legalName]];
  for (const t of p.tradeNames) rows.push(['tradeName', t]);
  rows.push(['trn', p.trn]);
  if (p.registration) {
    const type = registrationName(p.registration.type);
    rows.push(['registration', [p.registration.id, type ? type.en : p.registration.type, p.registration.authority].filter(Boolean).join(' · ')]);
  }
  if (p.endpoint) rows.push(['endpoint', `${p.endpoint.scheme ? p.endpoint.scheme + ':' : ''}${p.endpoint.id}`]);
  for (const i of p.identifiers) rows.push(['identifier', `${i.scheme ? i.scheme + ':' : ''}${i.id}`]);
  const a = addressLines(p.address);
  a.lines.forEach((l, i) => rows.push([i === 0 ? 'address' : { en: '', ar: '' }, l]));
  if (a.emirate) rows.push([{ en: '', ar: '' }, a.emirate.ar]);
  p.contact.forEach((c, i) => rows.push([i === 0 ? 'contact' : { en: '', ar: '' }, c]));
  return rows;
}

/** Two parties side by side; returns nothing, advances y past the taller one. */
function parties(w: Writer, left: [LabelKey, PartyView], right: [LabelKey, PartyView] | undefined): void {
  const colW = (CONTENT_W - 12) / 2;
  const cols = right ? [left, right] : [left];
  const heights = cols.map(([, p]) => 34 + (p.arabicName ? 16 : 0) + partyRows(p).filter(([, v]) => !!v).length * 12 + (p.arabicNameFromRecord ? 10 : 0));
  w.ensure(Math.max(...heights));
  const top = w.y;
  let bottom = top;
  cols.forEach(([key, p], i) => {
    const x = MARGIN + i * (colW + 12);
    let y = top + 4;
    w.bilingual(LABELS[key], x + 4, y, colW - 8, 10, true);
    y += 16;
    if (p.arabicName) {
      w.line(p.arabicName, x + 4, y, colW - 8, { size: 11, bold: true, align: 'right' });
      y += 16;
    }
    for (const [k, v] of partyRows(p)) if (v) y += w.kv(k, v, x + 4, y, colW - 8);
    if (p.arabicNameFromRecord) {
      w.line(LABELS.arabicFromRecord.en, x + 4, y, colW - 8, { size: 6, color: GREY });
      y += 10;
    }
    w.doc.rect(x, top, colW, y - top + 4).lineWidth(0.5).strokeColor('#cccccc').stroke();
    bottom = Math.max(bottom, y + 8);
  });
  w.y = bottom + 4;
}

interface Col {
  key: LabelKey;
  width: number;
  right?: boolean;
}

const LINE_COLS: Col[] = [
  { key: 'line', width: 20 },
  { key: 'item', width: 125 },
  { key: 'quantity', width: 42, right: true },
  { key: 'unit', width: 38 },
  { key: 'unitPrice', width: 52, right: true },
  { key: 'allowancesCharges', width: 72 },
  { key: 'taxCategory', width: 42 },
  { key: 'rate', width: 26, right: true },
  { key: 'net', width: 56, right: true },
  { key: 'lineVat', width: CONTENT_W - 473, right: true },
];

function tableHeader(w: Writer, cols: Col[]): void {
  w.ensure(40);
  let x = MARGIN;
  w.fill('#eeeeee');
  w.doc.rect(MARGIN, w.y, CONTENT_W, 22).fill();
  for (const c of cols) {
    const b = LABELS[c.key];
    w.line(b.en, x + 2, w.y + 2, c.width - 4, { size: 6.5, color: GREY, align: c.right ? 'right' : 'left' });
    w.line(b.ar, x + 2, w.y + 11, c.width - 4, { size: 6.5, color: GREY, align: c.right ? 'right' : 'left' });
    x += c.width;
  }
  w.y += 24;
}

function acShort(a: AllowanceChargeView): string {
  const kind = a.charge ? LABELS.charge.en : LABELS.allowance.en;
  const pct = a.percent && a.baseAmount ? ` ${plain(a.percent)}%` : '';
  return `${kind} ${a.charge ? '+' : '-'}${money(a.amount)}${pct}${a.reason ? ' ' + a.reason : ''}`;
}

function lineCells(l: LineView): string[][] {
  const item = [l.name ?? '', l.description && l.description !== l.name ? l.description : '', l.note ?? '', l.goodsType ?? '', l.exemptionReason ?? ''].filter(Boolean);
  const price = [money(l.price) + (l.baseQuantity && l.baseQuantity !== '1' ? ` / ${plain(l.baseQuantity)}` : '')];
  if (l.priceDiscount && l.grossPrice && Number(l.priceDiscount) !== 0) price.push(`${money(l.grossPrice)} - ${money(l.priceDiscount)}`);
  const cat = categoryName(l.taxCategory);
  return [
    [l.id],
    item,
    [plain(l.quantity)],
    [unitName(l.unitCode)],
    price,
    l.allowancesCharges.map(acShort),
    [l.taxCategory ?? '', cat?.en ?? ''].filter(Boolean),
    [l.taxPercent !== undefined ? plain(l.taxPercent) + '%' : ''],
    [money(l.net)],
    [l.vat !== undefined ? money(l.vat) : ''],
  ];
}

function tableRow(w: Writer, cols: Col[], cells: string[][], onNewPage: () => void): void {
  const size = 7;
  const heights = cells.map((lines, i) => lines.reduce((h, s) => h + w.block(s, 0, 0, cols[i].width - 4, { size, measureOnly: true }), 0));
  const h = Math.max(11, ...heights) + 3;
  if (w.y + h > A4.h - MARGIN - 14) {
    w.newPage();
    onNewPage();
  }
  let x = MARGIN;
  cells.forEach((lines, i) => {
    let y = w.y + 1;
    for (const s of lines) {
      if (cols[i].right) {
        w.line(s, x + 2, y, cols[i].width - 4, { size, align: 'right' });
        y += size * 1.4;
      } else y += w.block(s, x + 2, y, cols[i].width - 4, { size });
    }
    x += cols[i].width;
  });
  w.y += h;
  w.doc.moveTo(MARGIN, w.y - 1).lineTo(MARGIN + CONTENT_W, w.y - 1).lineWidth(0.25).strokeColor('#dddddd').stroke();
}

function totalsRow(w: Writer, key: LabelKey, currency: string, amount: string | undefined, bold = false): void {
  if (amount === undefined) return;
  w.ensure(14);
  const x = MARGIN + CONTENT_W * 0.4;
  w.bilingual(LABELS[key], x, w.y + 1, CONTENT_W * 0.38, 8, bold);
  w.line(`${currency} ${money(amount)}`, x + CONTENT_W * 0.38, w.y, CONTENT_W * 0.22, { size: bold ? 10 : 8.5, bold, align: 'right' });
  w.y += bold ? 15 : 12;
}

function writeDocument(w: Writer, d: DocumentView): void {
  w.line(d.title.en, MARGIN, w.y, CONTENT_W / 2, { size: 16, bold: true });
  w.line(d.title.ar, MARGIN + CONTENT_W / 2, w.y, CONTENT_W / 2, { size: 16, bold: true, align: 'right' });
  w.y += 24;
  w.line(`${LABELS.generatedFrom.en}`, MARGIN, w.y, CONTENT_W / 2, { size: 6.5, color: GREY });
  w.line(LABELS.generatedFrom.ar, MARGIN + CONTENT_W / 2, w.y, CONTENT_W / 2, { size: 6.5, color: GREY, align: 'right' });
  w.y += 14;

  w.kvRows(
    [
      ['number', d.number],
      ['issueDate', d.issueTime ? `${d.issueDate ?? ''} ${d.issueTime}` : d.issueDate],
      ['dueDate', d.dueDate],
      ['taxPointDate', d.taxPointDate],
      ['period', d.period],
      ['currency', d.currency + (d.taxCurrency && d.taxCurrency !== d.currency ? ` (VAT in ${d.taxCurrency})` : '')],
      ['uuid', d.uuid],
      ...d.references.map((r): [LabelKey, string] => [r.key, r.value]),
    ],
    MARGIN,
    CONTENT_W * 0.7,
  );

  w.heading('transactionType');
  const flags = d.transactionTypes.length ? d.transactionTypes : [LABELS.noSpecialTransaction];
  for (const f of flags) {
    w.ensure(12);
    w.line(`${f.en}`, MARGIN, w.y, CONTENT_W * 0.45, { size: 8.5 });
    w.line(f.ar, MARGIN + CONTENT_W * 0.45, w.y, CONTENT_W * 0.25, { size: 8.5, align: 'right' });
    w.y += 12;
  }
  if (d.transactionFlags) {
    w.line(`BTAE-02 ${d.transactionFlags}`, MARGIN, w.y, CONTENT_W, { size: 6.5, color: GREY });
    w.y += 10;
  }
  w.y += 6;

  parties(w, ['seller', d.seller], ['buyer', d.buyer]);
  if (d.payee || d.taxRepresentative) {
    const list = [d.payee ? (['payee', d.payee] as [LabelKey, PartyView]) : undefined, d.taxRepresentative ? (['taxRepresentative', d.taxRepresentative] as [LabelKey, PartyView]) : undefined].filter(
      (x): x is [LabelKey, PartyView] => !!x,
    );
    parties(w, list[0], list[1]);
  }
  if (d.deliveryDate || d.deliveryAddress) {
    w.heading('delivery');
    w.kvRows([['deliveryDate', d.deliveryDate], ['address', addressLines(d.deliveryAddress).lines.join(', ')]]);
  }

  w.heading('lines');
  tableHeader(w, LINE_COLS);
  for (const l of d.lines) tableRow(w, LINE_COLS, lineCells(l), () => tableHeader(w, LINE_COLS));

  if (d.allowancesCharges.length) {
    w.heading('documentAllowancesCharges');
    for (const a of d.allowancesCharges) {
      w.ensure(12);
      w.line(`${acShort(a)}  ${a.taxCategory ?? ''} ${a.taxPercent !== undefined ? plain(a.taxPercent) + '%' : ''}`, MARGIN, w.y, CONTENT_W, { size: 8 });
      w.y += 12;
    }
  }

  w.heading('vatBreakdown');
  const vatCols: Col[] = [
    { key: 'taxCategory', width: 250 },
    { key: 'rate', width: 60, right: true },
    { key: 'taxableAmount', width: 106, right: true },
    { key: 'vatAmount', width: CONTENT_W - 416, right: true },
  ];
  tableHeader(w, vatCols);
  for (const b of d.vatBreakdown) {
    const cat = categoryName(b.category);
    const first = [b.category, cat ? `${cat.en}` : ''].filter(Boolean).join(' ');
    tableRow(w, vatCols, [[first, ...(cat ? [cat.ar] : []), ...(b.exemptionReason ? [b.exemptionReason] : [])], [b.percent !== undefined ? plain(b.percent) + '%' : ''], [money(b.taxable)], [money(b.tax)]], () => tableHeader(w, vatCols));
  }

  w.heading('totals');
  const t = d.totals;
  totalsRow(w, 'sumOfLines', d.currency, t.lineExtension);
  totalsRow(w, 'allowanceTotal', d.currency, t.allowanceTotal);
  totalsRow(w, 'chargeTotal', d.currency, t.chargeTotal);
  totalsRow(w, 'totalExclVat', d.currency, t.taxExclusive);
  totalsRow(w, 'totalVat', d.currency, d.vatTotal);
  totalsRow(w, 'totalInclVat', d.currency, t.taxInclusive);
  totalsRow(w, 'prepaid', d.currency, t.prepaid);
  totalsRow(w, 'rounding', d.currency, t.rounding);
  totalsRow(w, 'payable', d.currency, t.payable, true);
  if (d.vatTotalAccounting) totalsRow(w, 'vatInAccountingCurrency', d.vatTotalAccounting.currency, d.vatTotalAccounting.amount);

  if (d.paymentMeans.length || d.paymentTerms.length) {
    w.heading('payment');
    const rows: [LabelKey, string | undefined][] = [];
    for (const p of d.paymentMeans) {
      rows.push(['paymentMeans', [p.code, p.name].filter(Boolean).join(' ')]);
      rows.push(['account', [p.account, p.accountName, p.institution].filter(Boolean).join(' · ') || p.card]);
      rows.push(['paymentId', p.paymentId ?? p.mandate]);
    }
    for (const term of d.paymentTerms) rows.push(['paymentTerms', term]);
    w.kvRows(rows);
  }
  if (d.notes.length) {
    w.heading('notes');
    for (const n of d.notes) {
      const h = w.block(n, MARGIN, 0, CONTENT_W, { size: 8, measureOnly: true });
      w.ensure(h);
      w.y += w.block(n, MARGIN, w.y, CONTENT_W, { size: 8 }) + 2;
    }
  }
  if (d.evidence) {
    const e = d.evidence;
    w.heading('deliveryEvidence');
    w.kvRows([
      ['submissionId', e.submissionId ?? undefined],
      ['ackRef', e.ackRef ?? undefined],
      ...(e.statuses ?? []).map((s): [LabelKey, string] => ['status', `${s.status} ${s.at}`]),
      ['sha256', e.documentSha256 ?? undefined],
    ]);
  }
}

/**
 * The rendition as a PDF stream (pipe it to a response, or collect it with pdfBuffer). Page numbers are
 * not printed: they would need every page buffered until the end.
 */
export function documentPdfStream(d: DocumentView): NodeJS.ReadableStream {
  const fonts = rendFonts();
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, autoFirstPage: true, info: { Title: `${d.title.en} ${d.number}`, Creator: 'einvoice rendition' }, lang: 'en' } as PDFKit.PDFDocumentOptions);
  for (const role of Object.keys(fonts.buffers) as FontRole[]) doc.registerFont(role, fonts.buffers[role]);
  const w = new Writer(doc);
  writeDocument(w, d);
  doc.end();
  return doc;
}

/** The whole PDF in memory (CLI, tests). */
export async function documentPdf(d: DocumentView): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of documentPdfStream(d) as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

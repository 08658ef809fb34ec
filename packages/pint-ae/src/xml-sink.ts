// Two ways to write the same XML. The renderer writes through the small XmlSink interface:
//
// - StringSink (default): appends escaped text to a string, far faster than building xmlbuilder2's
//   DOM (README, "Why the code looks like this"): every invoice created is rendered and validated,
//   so both must stay small beside a request.
// - Xmlbuilder2Sink: builds the same document with xmlbuilder2 (the stack's XML library) and
//   serializes it. Tests render the whole corpus through both and require identical output, so
//   xmlbuilder2 remains the reference for well-formedness and escaping; `renderInvoice(body,
//   { engine: 'xmlbuilder2' })` selects it.
//
// Escaping follows xmlbuilder2's serializer exactly: text escapes & < >; attribute values escape
// & < > "; characters XML 1.0 forbids are dropped. Pure code.
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

/** Attribute names and values; not changed once written (StringSink caches their text by object). */
export type Attrs = Readonly<Record<string, string>>;

export interface XmlSink {
  /** Start an element; the root element's attributes carry the namespace declarations. */
  open(name: string, attrs?: Attrs): void;
  /** An element with text content only. */
  leaf(name: string, text: string, attrs?: Attrs): void;
  close(): void;
  /** The serialized document (XML declaration included). */
  done(): string;
}

export const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
} as const;

const XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>';

// Characters outside XML 1.0's Char production (lone surrogates included, thanks to the u flag).
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Drops characters that XML 1.0 cannot carry (as xmlbuilder2 does with invalidCharReplacement ''). */
export function xmlSafe(value: string): string {
  return value.replace(INVALID_XML_CHARS, '');
}

// eslint-disable-next-line no-control-regex
const NEEDS_TEXT_WORK = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex
const NEEDS_ATTR_WORK = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
/** Up to this length a value is tested by a loop (below); longer ones by the regex. */
const SHORT = 12;

/**
 * Whether a short value holds what NEEDS_TEXT_WORK (or, with `quote`, NEEDS_ATTR_WORK) matches.
 * Most values are short (amounts, codes, flags) and flat, where this loop costs a fraction of a
 * regex test; on a long value, often a cons string (a template result),
 * each charCodeAt unwraps it again and the regex, which flattens once, is cheaper.
 */
function shortNeedsWork(value: string, quote: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x40) {
      if (c < 0x20 ? c !== 0x09 && c !== 0x0a && c !== 0x0d : c === 0x26 || c === 0x3c || c === 0x3e || (quote && c === 0x22)) return true;
    } else if (c >= 0xd800 && (c < 0xe000 || c >= 0xfffe)) return true;
  }
  return false;
}

export function escapeText(value: string): string {
  if (value.length <= SHORT ? !shortNeedsWork(value, false) : !NEEDS_TEXT_WORK.test(value)) return value;
  return xmlSafe(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(value: string): string {
  if (value.length <= SHORT ? !shortNeedsWork(value, true) : !NEEDS_ATTR_WORK.test(value)) return value;
  return xmlSafe(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function attrString(attrs: Attrs | undefined): string {
  if (!attrs) return '';
  let out = '';
  for (const k in attrs) out += ' ' + k + '="' + escapeAttr(attrs[k]) + '"';
  return out;
}

/**
 * Appending to one string builds a rope (one cons-string node per append) that stays alive until
 * done(), and every young-generation GC walked and copied it again: a long invoice cost far more
 * per line than a short one. The text is flattened into a chunk every CHUNK characters instead (an
 * array of small pieces joined at the end measured no better; joined per chunk it cost more
 * instructions than this rope). Each rope node costs instructions to make and flatten, so tags are made once per element name (with their attributes, when the same
 * constant attributes object comes again) rather than concatenated per element.
 */
const CHUNK = 16 * 1024;

/**
 * Past this many chunks (a document above 128 KiB, more than ~110 lines) the chunks are written to
 * the SPILL buffer as UTF-8 and dropped, instead of being kept for the final join: live chunks were
 * what the young-generation collector copied again and again in a long render, while a buffer
 * lives outside the collected heap and its pages, reused from
 * one render to the next, are already mapped. The result is decoded from it once at the end (one
 * copy, as the join was). Smaller documents keep the join, which is cheaper for them.
 */
const SPILL_AFTER = 8;
/** Above this size the buffer is dropped after the render rather than kept for the next one. */
const SPILL_KEEP = 16 * 1024 * 1024;

/**
 * One buffer shared by the renders of this thread (a render is synchronous, so one runs at a time).
 * `taken` counts the sinks that started spilling into it: a sink whose number is no longer the
 * last was overtaken, which only code interleaving two sinks could do, and it then refuses to
 * go on rather than return another render's text (a render that threw simply leaves it behind).
 */
const spill = { buf: Buffer.alloc(0), taken: 0 };

/** The constant strings of one element name. */
interface Tag {
  /** '<name' (followed by attributes) */
  start: string;
  /** '<name>' */
  open: string;
  /** '</name>' */
  end: string;
  /** '<name/>' */
  empty: string;
  /** The last attributes object written with this name and its '<name a="v">': most are constants (AED). */
  lastAttrs?: Attrs;
  lastOpen?: string;
}

/** By element name (the renderer's constants: a few dozen). */
const TAGS = new Map<string, Tag>();

/** '<name a="v">', cached while the same attributes object (read-only, see Attrs) comes again. */
function openWith(tag: Tag, attrs: Attrs): string {
  if (tag.lastAttrs !== attrs) {
    tag.lastAttrs = attrs;
    tag.lastOpen = tag.start + attrString(attrs) + '>';
  }
  return tag.lastOpen!;
}

function tagOf(name: string): Tag {
  let tag = TAGS.get(name);
  if (tag === undefined) {
    tag = { start: '<' + name, open: '<' + name + '>', end: '</' + name + '>', empty: '<' + name + '/>' };
    TAGS.set(name, tag);
  }
  return tag;
}

/** Fast serializer: appends escaped text to a string, flattened into a chunk every CHUNK characters. */
export class StringSink implements XmlSink {
  private out = XML_DECL;
  private readonly chunks: string[] = [];
  private readonly stack: Tag[] = [];
  /** Bytes written to the shared buffer; -1 until the document outgrows SPILL_AFTER chunks. */
  private spilled = -1;
  /** This sink's number in spill.taken (see spill). */
  private spillTurn = 0;
  /** Every spilled chunk was ASCII (as many UTF-8 bytes as characters). */
  private ascii = true;

  private flushIfLong(): void {
    if (this.out.length < CHUNK) return;
    const flat = this.out;
    this.out = '';
    if (this.spilled >= 0) return this.spillWrite(flat);
    flat.charCodeAt(0); // V8 flattens a cons string on character access
    this.chunks.push(flat);
    if (this.chunks.length < SPILL_AFTER) return;
    this.spilled = 0;
    this.spillTurn = ++spill.taken;
    for (const c of this.chunks) this.spillWrite(c);
    this.chunks.length = 0;
  }

  /** Appends `text` as UTF-8 to the shared buffer, growing it first if it might not fit. */
  private spillWrite(text: string): void {
    if (this.spillTurn !== spill.taken) throw new Error('StringSink: another sink wrote to the shared buffer during this render');
    const room = this.spilled + text.length * 3; // a UTF-16 code unit is at most 3 bytes of UTF-8
    if (spill.buf.length < room) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(room, 2 * spill.buf.length, 1 << 20));
      spill.buf.copy(bigger, 0, 0, this.spilled);
      spill.buf = bigger;
    }
    const bytes = spill.buf.write(text, this.spilled, 'utf8');
    if (bytes !== text.length) this.ascii = false;
    this.spilled += bytes;
  }

  open(name: string, attrs?: Attrs): void {
    const tag = tagOf(name);
    this.out += attrs ? openWith(tag, attrs) : tag.open;
    this.stack.push(tag);
  }

  leaf(name: string, text: string, attrs?: Attrs): void {
    const tag = tagOf(name);
    const t = escapeText(text);
    if (attrs) this.out += t === '' ? tag.start + attrString(attrs) + '/>' : openWith(tag, attrs) + t + tag.end;
    else this.out += t === '' ? tag.empty : tag.open + t + tag.end;
    this.flushIfLong();
  }

  close(): void {
    const tag = this.stack.pop();
    if (tag === undefined) throw new Error('XmlSink.close() without open()');
    this.out += tag.end;
    this.flushIfLong();
  }

  done(): string {
    if (this.stack.length) throw new Error(`unclosed elements: ${this.stack.map((t) => t.start.slice(1)).join(' > ')}`);
    if (this.spilled >= 0) {
      this.spillWrite(this.out);
      // ASCII reads the same as Latin-1, and node returns a long Latin-1 text (above ~1 MB) as an
      // external string in memory it mallocs instead of a large object on the V8 heap: measured
      // faster. Both still mostly pay for fresh pages: glibc gives the freed memory back to the
      // kernel.
      const text = spill.buf.toString(this.ascii ? 'latin1' : 'utf8', 0, this.spilled);
      if (spill.buf.length > SPILL_KEEP) spill.buf = Buffer.alloc(0);
      return text;
    }
    if (this.chunks.length === 0) return this.out;
    this.chunks.push(this.out);
    return this.chunks.join('');
  }
}

function nsFor(name: string, fallback: string | undefined): string | undefined {
  const i = name.indexOf(':');
  if (i < 0) return fallback;
  const prefix = name.slice(0, i) as keyof typeof NS;
  return NS[prefix];
}

/** Reference serializer: the same calls build an xmlbuilder2 document. */
export class Xmlbuilder2Sink implements XmlSink {
  private readonly doc: XMLBuilder = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });
  private readonly stack: XMLBuilder[] = [];
  private rootNs: string | undefined;

  private parent(): XMLBuilder {
    return this.stack.length ? this.stack[this.stack.length - 1] : this.doc;
  }

  private element(name: string, attrs: Attrs | undefined): XMLBuilder {
    if (!this.stack.length && attrs?.xmlns) this.rootNs = attrs.xmlns;
    const el = this.parent().ele(nsFor(name, this.rootNs) ?? null, name);
    if (attrs) {
      for (const k in attrs) {
        if (k === 'xmlns') continue; // declared by the element's namespace
        el.att(k, attrs[k]);
      }
    }
    return el;
  }

  open(name: string, attrs?: Attrs): void {
    this.stack.push(this.element(name, attrs));
  }

  leaf(name: string, text: string, attrs?: Attrs): void {
    const el = this.element(name, attrs);
    if (text !== '') el.txt(text);
  }

  close(): void {
    if (!this.stack.pop()) throw new Error('XmlSink.close() without open()');
  }

  done(): string {
    return this.doc.end({ prettyPrint: false });
  }
}

/**
 * A small, fast, namespace-aware XML parser into a light element tree: just what the PINT-AE rules
 * need (elements, attributes, text nodes as the XPath data model sees them), nothing else.
 *
 * Parsing only builds elements and attributes; each element remembers where its content lies in
 * the source, and its text is decoded on first use (most elements' text is never read by a rule).
 *
 * Text nodes follow XDM: a maximal run of character data (text, entity references, CDATA) between
 * two pieces of markup that are not CDATA (element tags, comments, processing instructions) is one
 * text node. `text()` in a rule is `El.texts`; the string value of an element is `El.value`.
 */

export const NS = {
  CBC: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  CAC: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  EXT: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  INVOICE: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CREDIT_NOTE: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  XML: 'http://www.w3.org/XML/1998/namespace',
  XMLNS: 'http://www.w3.org/2000/xmlns/',
} as const;

/** Conventional prefixes used in finding locations. */
const LOCATION_PREFIX: Record<string, string> = {
  [NS.CBC]: 'cbc',
  [NS.CAC]: 'cac',
  [NS.EXT]: 'ext',
};

export class XmlParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} (line ${line}, column ${column})`);
    this.name = 'XmlParseError';
  }
}

export interface Attr {
  /** Namespace URI ('' for an unprefixed attribute). */
  ns: string;
  local: string;
  prefix: string;
  value: string;
}

const NO_ATTRS: Attr[] = [];
const NO_KIDS: El[] = [];

function isBlankText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

/** Interned element name: the strings are shared by every element with that name. */
export interface Name {
  raw: string;
  prefix: string;
  local: string;
  /** Free for the rule engine: what it looked up for this name (its rules), kept here to skip a map lookup per element. */
  cache: unknown;
  /** Free for the rule engine too: whether rules list all elements of this local name, as of version `askedVersion`. */
  asked: boolean;
  askedVersion: number;
  /** The namespace scope this name was last resolved in, and the namespace it gave (see addElement). */
  scope: Scope | undefined;
  scopeNs: string;
}

/** Rarely needed per-element state, allocated on first use. */
interface Extra {
  /** The string value of an element whose text is not plain (see El.value). */
  value?: string;
  texts?: string[];
  positions?: Map<El, [number, number]>;
  byName?: Map<string, El[]>;
}

/**
 * Content kinds the parser records at an element's end tag, so that reading its text needs no
 * search for markup (an indexOf on the document per value read was a measurable share of a validation).
 */
const MIXED = 0; // child elements, comments, PIs or CDATA inside (or not parsed yet)
const PLAIN = 1; // character data only, without references
const PLAIN_REFS = 2; // character data only, possibly with entity or character references
type TextKind = typeof MIXED | typeof PLAIN | typeof PLAIN_REFS;

/** Above this many children, child lookups by name use a per-element index (wide roots: 1,000 lines). */
const INDEX_WIDTH = 24;

export class El {
  /** Element children in document order (do not mutate). */
  kids: El[] = NO_KIDS;
  attrs: Attr[] = NO_ATTRS;
  /** Position in document order (root = 0). */
  order = 0;
  /**
   * Source offsets of the content (where the element's markup ends is found from them when needed,
   * see endOf: fields no rule reads cost memory on each of a long invoice's 120,000 elements).
   */
  contentStart = 0;
  contentEnd = 0;
  /** xs:decimal(.) of this element once computed (a Decimal or the cast error), see decimalOf(). */
  decimal: unknown = undefined;
  /** What the parser saw inside: PLAIN (text only, no '&'), PLAIN_REFS (text only) or MIXED. */
  textKind: TextKind = MIXED;
  /**
   * Free for the rules: one value they memoise on this element, cleared when the element is reused
   * (the VAT test of a tax category, see rules/category-values.ts isVat). A field: a Map per memo keyed by
   * element cost two lookups and a store per tax category.
   */
  ruleMemo: unknown = undefined;
  private x: Extra | undefined = undefined;

  /** Source text, parent, namespace and name: set once per parse (a pooled element is reused, see ElementPool). */
  constructor(
    public src: string,
    public parent: El | null,
    public ns: string,
    private name: Name,
  ) {}

  /** Makes a pooled element a new one (children are set by the parser at its end tag). */
  reuse(src: string, parent: El | null, ns: string, name: Name): void {
    this.src = src;
    this.parent = parent;
    this.ns = ns;
    this.name = name;
    this.attrs = NO_ATTRS;
    this.decimal = undefined;
    this.textKind = MIXED;
    this.ruleMemo = undefined;
    this.x = undefined;
  }

  get local(): string {
    return this.name.local;
  }

  get prefix(): string {
    return this.name.prefix;
  }

  /** The interned name object (shared by every element spelled the same). */
  get nameInfo(): Name {
    return this.name;
  }

  /** The name as written in the start tag. */
  get rawName(): string {
    return this.name.raw;
  }

  private get extra(): Extra {
    return (this.x ??= {});
  }

  is(ns: string, local: string): boolean {
    return this.name.local === local && this.ns === ns;
  }

  /** The unprefixed attribute `local`, or undefined. */
  attr(local: string): string | undefined {
    const attrs = this.attrs;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i];
      if (a.local === local && a.ns === '') return a.value;
    }
    return undefined;
  }

  /** First child element `ns:local`. */
  child(ns: string, local: string): El | undefined {
    const kids = this.kids;
    if (kids.length > INDEX_WIDTH) return this.indexed(ns, local)[0];
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (k.name.local === local && k.ns === ns) return k;
    }
    return undefined;
  }

  /** All child elements `ns:local` (the array may be shared: do not mutate it). */
  children(ns: string, local: string): El[] {
    const kids = this.kids;
    if (kids.length > INDEX_WIDTH) return this.indexed(ns, local);
    let out: El[] | undefined;
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (k.name.local === local && k.ns === ns) (out ??= []).push(k);
    }
    return out ?? NO_KIDS;
  }

  private indexed(ns: string, local: string): El[] {
    let index = this.extra.byName;
    if (!index) {
      // keyed by the (interned) local name; lists mixing namespaces are split on lookup
      index = new Map();
      for (const k of this.kids) {
        const list = index.get(k.name.local);
        if (list) list.push(k);
        else index.set(k.name.local, [k]);
      }
      this.extra.byName = index;
    }
    const list = index.get(local);
    if (!list) return NO_KIDS;
    for (let i = 0; i < list.length; i++) if (list[i].ns !== ns) return list.filter((k) => k.ns === ns);
    return list;
  }

  hasChild(ns: string, local: string): boolean {
    return this.child(ns, local) !== undefined;
  }

  /** Nearest ancestor `ns:local` (not self). */
  ancestor(ns: string, local: string): El | undefined {
    for (let p = this.parent; p; p = p.parent) if (p.local === local && p.ns === ns) return p;
    return undefined;
  }

  /**
   * XPath string value: all descendant text in document order. Plain text is sliced anew on each
   * read, not kept: a pooled element lives in the old generation, so every value kept on one was a
   * young string that each scavenge during the validation copied (tens of thousands in a long invoice;
   * what the scavenges cost: docs/performance.md).
   */
  get value(): string {
    if (this.textKind === PLAIN) return this.src.slice(this.contentStart, this.contentEnd);
    const x = this.extra;
    if (x.value === undefined) {
      if (this.textKind === PLAIN_REFS) x.value = decode(this.src.slice(this.contentStart, this.contentEnd));
      else x.value = textContent(this.src, this.contentStart, this.contentEnd);
    }
    return x.value;
  }

  /** The element's own text nodes (XDM), in document order. */
  get texts(): string[] {
    const x = this.extra;
    if (x.texts === undefined) x.texts = textNodes(this);
    return x.texts;
  }

  /**
   * The string value when the content holds no markup, so that its text nodes are [value] (or none
   * when it is ''); undefined otherwise (then read `texts`). Spares the list for the common leaf.
   */
  plainText(): string | undefined {
    if (this.textKind !== MIXED) return this.value;
    const lt = this.src.indexOf('<', this.contentStart);
    return lt >= 0 && lt < this.contentEnd ? undefined : this.value;
  }

  /** `not(normalize-space())` of a leaf, without building its value when it has no markup inside. */
  isBlank(): boolean {
    const src = this.src;
    // a character reference may stand for whitespace (`&#32;`): the value decides, not the text as written
    if (this.textKind === PLAIN_REFS) return isBlankText(this.value);
    if (this.textKind === MIXED) {
      const lt = src.indexOf('<', this.contentStart);
      if (lt >= 0 && lt < this.contentEnd) return isBlankText(this.value);
    }
    for (let i = this.contentStart; i < this.contentEnd; i++) {
      const c = src.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
    }
    return true;
  }

  /** `name()` as the document spells it. */
  get qname(): string {
    return this.prefix ? `${this.prefix}:${this.local}` : this.local;
  }

  /** XPath-like location, e.g. `/Invoice/cac:InvoiceLine[2]/cbc:LineExtensionAmount`. */
  location(): string {
    const steps: string[] = [];
    for (let e: El | null = this; e; e = e.parent) {
      const pfx = e.parent === null ? '' : (LOCATION_PREFIX[e.ns] ?? e.prefix);
      let step = pfx ? `${pfx}:${e.local}` : e.local;
      if (e.parent) {
        const [index, total] = e.parent.sameNamePosition(e);
        if (total > 1) step += `[${index}]`;
      }
      steps.push(step);
    }
    return '/' + steps.reverse().join('/');
  }

  /** [1-based position among same-named siblings, number of same-named siblings] of child `kid`. */
  sameNamePosition(kid: El): [number, number] {
    const x = this.extra;
    if (!x.positions) {
      const groups = new Map<string, El[]>();
      for (const k of this.kids) {
        const key = k.ns + '\u0000' + k.local;
        let list = groups.get(key);
        if (!list) groups.set(key, (list = []));
        list.push(k);
      }
      const positions = new Map<El, [number, number]>();
      for (const list of groups.values()) list.forEach((k, i) => positions.set(k, [i + 1, list.length]));
      x.positions = positions;
    }
    return x.positions.get(kid) ?? [1, 1];
  }
}

export interface XmlDocument {
  root: El;
  /** Every element, in document order. */
  elements: El[];
}

/**
 * Elements kept from one parse to the next. A validation of 1,000 lines built ~30,000 elements that
 * lived through the whole run, so the young-generation collections during it copied and promoted the
 * tree again each time (a large share of the run). Parsed into a pool, the tree's objects stay in the old
 * generation and are rewritten in place. A document parsed into a pool is valid only until the next
 * parse into the same pool: only code that does not let the tree escape may use one.
 */
export class ElementPool {
  readonly els: El[] = [];
  /** The `elements` array handed out, reused too. */
  elements: El[] = [];

  /** @param limit elements kept at most (beyond, a parse allocates as without a pool). */
  constructor(readonly limit: number) {}

  take(i: number, src: string, parent: El | null, ns: string, name: Name): El {
    const el = this.els[i];
    if (el !== undefined) {
      el.reuse(src, parent, ns, name);
      return el;
    }
    const fresh = new El(src, parent, ns, name);
    if (i < this.limit && i === this.els.length) this.els.push(fresh);
    return fresh;
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const ENTITY_RE = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/g;

/** Decodes the entity and character references of well-formed text (checked at parse time). */
function decode(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(ENTITY_RE, (_m, name: string) => {
    if (name.charCodeAt(0) === 35 /* # */) return String.fromCodePoint(name.charCodeAt(1) === 120 ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
    return ENTITIES[name];
  });
}

/** An attribute value: literal tabs and newlines become spaces (XML 1.0 §3.3.3), then references are decoded. */
function attrValue(raw: string): string {
  const v = raw.indexOf('\n') >= 0 || raw.indexOf('\t') >= 0 ? raw.replace(/[\t\n]/g, ' ') : raw;
  return decode(v);
}

/** String value of the source range [from, to) of well-formed content: text and CDATA, markup skipped. */
function textContent(src: string, from: number, to: number): string {
  let lt = src.indexOf('<', from);
  if (lt < 0 || lt >= to) return decode(src.slice(from, to));
  let out = '';
  let pos = from;
  while (pos < to) {
    if (lt < 0 || lt >= to) lt = to;
    if (lt > pos) out += decode(src.slice(pos, lt));
    if (lt >= to) break;
    pos = skipMarkup(src, lt, (cdata) => (out += cdata));
    lt = src.indexOf('<', pos);
  }
  return out;
}

/** Skips the markup at `lt` (returns the position after it); CDATA content goes to `onCdata`. */
function skipMarkup(src: string, lt: number, onCdata: (text: string) => void): number {
  if (src.startsWith('<!--', lt)) return src.indexOf('-->', lt + 4) + 3;
  if (src.startsWith('<![CDATA[', lt)) {
    const end = src.indexOf(']]>', lt + 9);
    onCdata(src.slice(lt + 9, end));
    return end + 3;
  }
  if (src.startsWith('<?', lt)) return src.indexOf('?>', lt + 2) + 2;
  return tagEnd(src, lt);
}

/** Position after the '>' closing the tag that starts at `lt` (quotes respected). */
function tagEnd(src: string, lt: number): number {
  let i = lt + 1;
  for (;;) {
    const gt = src.indexOf('>', i);
    const q1 = src.indexOf('"', i);
    const q2 = src.indexOf("'", i);
    let q = q1 < 0 ? q2 : q2 < 0 ? q1 : Math.min(q1, q2);
    if (gt < 0) return -1;
    if (q < 0 || gt < q) return gt + 1;
    const close = src.indexOf(src[q], q + 1);
    if (close < 0) return -1;
    i = close + 1;
    q = -1;
  }
}

/** Where `el`'s markup ends: after `/>` when it is self-closed, else after its end tag. */
function endOf(el: El): number {
  const src = el.src;
  // a start tag ending in '/>' is self-closed ('/' cannot end a start tag otherwise: values are quoted)
  if (el.contentEnd === el.contentStart && src.charCodeAt(el.contentStart - 2) === 47 /* / */) return el.contentStart;
  return src.indexOf('>', el.contentEnd) + 1;
}

/** The element's own XDM text nodes: runs of text/CDATA split by child elements, comments and PIs. */
function textNodes(el: El): string[] {
  const src = el.src;
  const lt0 = src.indexOf('<', el.contentStart);
  if (lt0 < 0 || lt0 >= el.contentEnd) {
    // no markup inside: at most one text node
    return el.contentEnd > el.contentStart ? [el.value] : [];
  }
  const out: string[] = [];
  let run = '';
  let pos = el.contentStart;
  const to = el.contentEnd;
  let k = 0;
  while (pos < to) {
    let lt = src.indexOf('<', pos);
    if (lt < 0 || lt > to) lt = to;
    if (lt > pos) run += decode(src.slice(pos, lt));
    if (lt >= to) break;
    if (src.startsWith('<![CDATA[', lt)) {
      pos = skipMarkup(src, lt, (t) => (run += t));
      continue;
    }
    if (run) out.push(run);
    run = '';
    if (src.charCodeAt(lt + 1) !== 33 && src.charCodeAt(lt + 1) !== 63) {
      // a child element (the next one: children are met in document order): jump over it
      pos = endOf(el.kids[k]);
      k++;
    } else pos = skipMarkup(src, lt, () => undefined);
  }
  if (run) out.push(run);
  return out;
}

type Scope = Record<string, string>;
const BASE_SCOPE: Scope = { xml: NS.XML, xmlns: NS.XMLNS, '': '' };

const INTERNED = new Map<string, string>();
for (const known of Object.values(NS)) INTERNED.set(known, known);

/**
 * One shared, internalised string per distinct name or namespace: the rules compare names and
 * namespaces with `===` millions of times, and identical internalised strings compare by pointer.
 */
export function intern(s: string): string {
  let v = INTERNED.get(s);
  if (v === undefined) {
    v = Object.keys({ [s]: 0 })[0] ?? s; // property keys are internalised by the engine
    if (INTERNED.size < 100_000) INTERNED.set(v, v);
  }
  return v;
}

/**
 * src.startsWith(s, at). A slice compared with === measured faster than the startsWith builtin or a
 * charCodeAt loop (docs/performance.md); every element's name is compared twice.
 */
function sameChars(src: string, at: number, s: string): boolean {
  return src.slice(at, at + s.length) === s;
}

const NAMES = new Map<number, Name[]>();

/** The interned Name for src[from, to) (hash of its char codes given), without slicing when known. */
function nameAt(src: string, from: number, to: number, hash: number): Name {
  let bucket = NAMES.get(hash);
  if (bucket) {
    for (const n of bucket) if (n.raw.length === to - from && sameChars(src, from, n.raw)) return n;
  } else {
    bucket = [];
    if (NAMES.size < 50_000) NAMES.set(hash, bucket);
  }
  const raw = intern(src.slice(from, to));
  const colon = raw.indexOf(':');
  const n: Name = { raw, prefix: colon >= 0 ? intern(raw.slice(0, colon)) : '', local: intern(colon >= 0 ? raw.slice(colon + 1) : raw), cache: undefined, asked: false, askedVersion: -1, scope: undefined, scopeNs: '' };
  if (bucket.length < 8) bucket.push(n);
  return n;
}

/**
 * Where the element whose start tag ends at `from` ends, when it is a plain leaf: text without '&',
 * then its own end tag written `</raw>` (most elements of an invoice: amounts, codes, names); -1
 * otherwise, and the element is read as any other. `nextAmp` is the parser's next '&' (maybe one
 * already passed: then -1 too, and the usual path checks the text). A leaf read whole skips the
 * stack and the main loop's turn for its end tag.
 */
function plainLeafEnd(src: string, from: number, raw: string, nextAmp: number): number {
  const close = src.indexOf('<', from);
  if (close < 0 || src.charCodeAt(close + 1) !== 47 /* / */) return -1;
  if (nextAmp >= 0 && nextAmp < close) return -1;
  const gt = close + 2 + raw.length;
  // indexOf from the name's own position, as closeElement does: on a mismatch it scans on, but an
  // end tag naming another element there is an error the usual path then reports
  if (src.charCodeAt(gt) !== 62 /* > */ || src.indexOf(raw, close + 2) !== close + 2) return -1;
  return gt + 1;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

/** End of an element or attribute name: whitespace, '>', '/', '=', '<', quotes. */
function isNameEnd(c: number): boolean {
  return c <= 32 || c === 62 || c === 47 || c === 61 || c === 60 || c === 34 || c === 39;
}
const BAD_AMP_RE = /&(?!(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);)/;

/**
 * `f` itself. tsx (esbuild with keepNames) names every closure assigned to a name with an
 * Object.defineProperty call each time it is made; a function passed as an argument gets no name,
 * so parseXml's seven closures are not renamed on every parse (a measurable share of a short
 * validation's instructions).
 */
const unnamed = <F>(f: F): F => f;

/** Parses an XML document. Throws XmlParseError on anything not well-formed. */
export function parseXml(input: string, pool?: ElementPool): XmlDocument {
  let src = input;
  if (src.charCodeAt(0) === 0xfeff) src = src.slice(1);
  if (src.indexOf('\r') >= 0) src = src.replace(/\r\n?/g, '\n');
  const len = src.length;

  const fail = unnamed((msg: string, at: number): never => {
    let line = 1;
    let col = 1;
    for (let i = 0; i < at && i < len; i++) {
      if (src.charCodeAt(i) === 10) {
        line++;
        col = 1;
      } else col++;
    }
    throw new XmlParseError(msg, line, col);
  });

  let nextAmp = src.indexOf('&');
  const checkText = unnamed((from: number, to: number, outside: boolean): void => {
    if (outside) {
      for (let i = from; i < to; i++) {
        const c = src.charCodeAt(i);
        if (c !== 32 && c !== 10 && c !== 9) fail('text outside the root element', i);
      }
      return;
    }
    // next '&' in the document, found once and advanced (a per-segment indexOf would be quadratic)
    while (nextAmp >= 0 && nextAmp < from) nextAmp = src.indexOf('&', from);
    if (nextAmp >= 0 && nextAmp < to) {
      nextAmp = src.indexOf('&', to);
      const m = BAD_AMP_RE.exec(src.slice(from, to));
      if (m) fail('undefined or malformed entity reference', from + m.index);
      ENTITY_RE.lastIndex = 0;
      for (let e = ENTITY_RE.exec(src.slice(from, to)); e; e = ENTITY_RE.exec(src.slice(from, to))) {
        const name = e[1];
        if (name.charCodeAt(0) === 35) {
          const cp = name.charCodeAt(1) === 120 ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
          if (!isXmlChar(cp)) fail(`invalid character reference &${name};`, from + e.index);
        }
      }
    }
  });

  const elements: El[] = pool ? pool.elements : [];
  let count = 0;
  const stack: El[] = [];
  // attributes of the start tag being read (reused for every tag)
  const attrNames: Name[] = [];
  const attrValues: string[] = [];
  const attrAt: number[] = [];
  const scopes: Scope[] = [BASE_SCOPE];
  let root: El | null = null;
  // Children of the open elements, each element's from kidsFrom[depth] on: an element's child
  // array is made once, at its end tag, at its exact size. Arrays grown by push() kept up to 17
  // slots each, and the tree is what every young-generation GC during a validation copies.
  const openKids: El[] = [];
  let openTop = 0;
  const kidsFrom: number[] = [];
  let pos = 0;
  /** A comment, PI or CDATA section was read since the last start tag (see El.textKind). */
  let markupSinceOpen = false;
  /** The last start tag read, when it is in START_TAGS. */
  let lastTag: StartTag | undefined;

  /** `<!--`, `<![CDATA[` or `<!DOCTYPE` at lt: checked and skipped; returns where the text goes on. */
  const skipDeclaration = unnamed((lt: number): number => {
    markupSinceOpen = true;
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      if (end < 0) fail('unterminated comment', lt);
      return end + 3;
    } else if (src.startsWith('<![CDATA[', lt)) {
      if (stack.length === 0) fail('CDATA outside the root element', lt);
      const end = src.indexOf(']]>', lt + 9);
      if (end < 0) fail('unterminated CDATA section', lt);
      return end + 3;
    } else if (src.startsWith('<!DOCTYPE', lt)) {
      if (root) fail('DOCTYPE after the root element', lt);
      let i = lt + 9;
      let depth = 0;
      for (; i < len; i++) {
        const ch = src.charCodeAt(i);
        if (ch === 91 /* [ */) depth++;
        else if (ch === 93 /* ] */) depth--;
        else if (ch === 62 /* > */ && depth === 0) break;
      }
      if (i >= len) fail('unterminated DOCTYPE', lt);
      return i + 1;
    }
    return fail('markup not recognised', lt);
  });

  /** `<?...?>` at lt: skipped. */
  const skipProcessingInstruction = unnamed((lt: number): number => {
    markupSinceOpen = true;
    const end = src.indexOf('?>', lt + 2);
    if (end < 0) fail('unterminated processing instruction', lt);
    return end + 2;
  });

  /** `</name>` at lt: must close the innermost open element, whose children array is made now. */
  const closeElement = unnamed((lt: number, refsBefore: boolean): number => {
    const el = stack.pop();
    if (!el) fail('unexpected end tag', lt);
    const raw = el!.rawName;
    let i = lt + 2 + raw.length;
    // indexOf from the tag's own position: no string sliced per end tag (faster than sameChars
    // here); a mismatch scans on once, and the document is then refused
    if (src.indexOf(raw, lt + 2) !== lt + 2 || (i < len && !isNameEnd(src.charCodeAt(i)))) {
      let j = lt + 2;
      while (j < len && !isNameEnd(src.charCodeAt(j))) j++;
      fail(`end tag </${src.slice(lt + 2, j)}> does not match <${raw}>`, lt);
    }
    while (i < len && isSpace(src.charCodeAt(i))) i++;
    if (src.charCodeAt(i) !== 62 /* > */) fail('malformed end tag', lt);
    el!.contentEnd = lt;
    const from = kidsFrom.pop()!;
    const n = openTop - from;
    // no child since its start tag: the text read just before this end tag is all its content
    el!.textKind = n === 0 && !markupSinceOpen ? (refsBefore ? PLAIN_REFS : PLAIN) : MIXED;
    if (n === 0) el!.kids = NO_KIDS;
    else {
      // a pooled element refills the array it had
      const kids = el!.kids;
      if (kids === NO_KIDS) el!.kids = openKids.slice(from, openTop);
      else {
        if (kids.length !== n) kids.length = n;
        for (let k = 0; k < n; k++) kids[k] = openKids[from + k];
      }
    }
    openTop = from;
    scopes.pop();
    return i + 1;
  });

  /** `<name attr="...">` at lt: reads the tag into attrNames/attrValues/attrAt, then adds the element. */
  const openElement = unnamed((lt: number): number => {
    if (root && stack.length === 0) fail('content after the root element', lt);
    // a start tag spelled exactly as one read before (the same text up to the first '>') reads
    // the same: its name and attributes come from the cache, with no scan of its characters
    const gt = src.indexOf('>', lt + 1);
    if (gt > 0) {
      // first guesses: the tags seen to follow the previous start tag, the usual ones first
      // (lines repeat, and a tag such as <cbc:ID> is followed by one of a few); a different
      // length rules a guess out without comparing characters
      const length = gt - lt - 1;
      let known: StartTag | undefined;
      if (lastTag !== undefined) {
        const followers = lastTag.followers;
        for (let f = 0; f < followers.length; f++) {
          const t = followers[f];
          if (t.text.length === length && sameChars(src, lt + 1, t.text)) {
            known = t;
            if (f > 0) {
              followers[f] = followers[f - 1]; // move one place up: the usual follower stays first
              followers[f - 1] = t;
            }
            break;
          }
        }
      }
      if (known === undefined) {
        known = START_TAGS.get(src.slice(lt + 1, gt));
        if (known !== undefined && lastTag !== undefined) {
          const followers = lastTag.followers;
          if (followers.length < FOLLOWERS) followers.push(known);
          else followers[FOLLOWERS - 1] = known;
        }
      }
      if (known !== undefined) {
        lastTag = known;
        const end = known.selfClose ? -1 : plainLeafEnd(src, gt + 1, known.name.raw, nextAmp);
        if (end < 0) {
          addElement(lt, gt + 1, known.name, 0, known.selfClose, known.attrs);
          return gt + 1;
        }
        // read whole, as a self-closed element is: never pushed on the stack, no end tag of its own
        const el = addElement(lt, gt + 1, known.name, 0, true, known.attrs);
        el.contentEnd = end - known.name.raw.length - 3;
        return end;
      }
    }
    lastTag = undefined;
    let i = lt + 1;
    let hash = 0;
    for (; i < len; i++) {
      const c = src.charCodeAt(i);
      if (isNameEnd(c)) break;
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    if (i === lt + 1) fail('element name expected', lt + 1);
    const nameInfo = nameAt(src, lt + 1, i, hash);
    const name = nameInfo.raw;
    let nAttrs = 0;
    let selfClose = false;
    for (;;) {
      const before = i;
      while (i < len && isSpace(src.charCodeAt(i))) i++;
      const c = src.charCodeAt(i);
      if (c === 62 /* > */) {
        i++;
        break;
      }
      if (c === 47 /* / */) {
        if (src.charCodeAt(i + 1) !== 62) fail('">" expected after "/"', i);
        i += 2;
        selfClose = true;
        break;
      }
      if (i >= len) fail(`unterminated start tag <${name}`, lt);
      if (i === before) fail('whitespace expected before an attribute', i);
      const aStart = i;
      let aHash = 0;
      for (; i < len; i++) {
        const ch = src.charCodeAt(i);
        if (isNameEnd(ch)) break;
        aHash = (Math.imul(aHash, 31) + ch) | 0;
      }
      if (i === aStart) fail('attribute name expected', i);
      const an = nameAt(src, aStart, i, aHash);
      while (i < len && isSpace(src.charCodeAt(i))) i++;
      if (src.charCodeAt(i) !== 61 /* = */) fail('"=" expected', i);
      i++;
      while (i < len && isSpace(src.charCodeAt(i))) i++;
      const q = src.charCodeAt(i);
      if (q !== 34 && q !== 39) fail('quoted attribute value expected', i);
      const close = src.indexOf(q === 34 ? '"' : "'", i + 1);
      if (close < 0) fail('unterminated attribute value', i);
      const raw = src.slice(i + 1, close);
      if (raw.indexOf('<') >= 0) fail('"<" in attribute value', i);
      attrNames[nAttrs] = an;
      attrValues[nAttrs] = raw;
      attrAt[nAttrs] = aStart;
      nAttrs++;
      i = close + 1;
    }
    const el = addElement(lt, i, nameInfo, nAttrs, selfClose, undefined);
    if (i === gt + 1) lastTag = rememberStartTag(src.slice(lt + 1, gt), nameInfo, el.attrs, selfClose, nAttrs);
    return i;
  });

  /** The element of a start tag just read: its namespace scope, attributes, and its place in the tree. */
  const addElement = unnamed((lt: number, contentStart: number, nameInfo: Name, nAttrs: number, selfClose: boolean, knownAttrs: Attr[] | undefined): El => {

    let scope = scopes[scopes.length - 1];
    for (let a = 0; a < nAttrs; a++) {
      const an = attrNames[a];
      if (an.raw === 'xmlns' || an.prefix === 'xmlns') {
        if (scope === scopes[scopes.length - 1]) scope = Object.create(scope) as Scope;
        scope[an.raw === 'xmlns' ? '' : an.local] = intern(attrValue(attrValues[a]));
      }
    }
    // scopes are few (usually the root's only) and never change once made: a name resolved in this
    // scope before resolves the same, without a lookup along the scope's prototype chain
    let ns: string | undefined;
    if (nameInfo.scope === scope) ns = nameInfo.scopeNs;
    else {
      ns = scope[nameInfo.prefix];
      if (ns === undefined) fail(`undeclared namespace prefix "${nameInfo.prefix}"`, lt);
      nameInfo.scope = scope;
      nameInfo.scopeNs = ns!;
    }
    const parent = stack.length ? stack[stack.length - 1] : null;
    const el = pool ? pool.take(count, src, parent, ns!, nameInfo) : new El(src, parent, ns!, nameInfo);
    el.order = count;
    el.contentStart = contentStart;
    el.contentEnd = contentStart;
    markupSinceOpen = false;
    if (selfClose) {
      el.kids = NO_KIDS;
      el.textKind = PLAIN;
    }
    elements[count++] = el;
    if (knownAttrs !== undefined) el.attrs = knownAttrs;
    else if (nAttrs === 1 && attrNames[0].prefix === '' && attrNames[0].raw !== 'xmlns') {
      el.attrs = sharedAttrs(attrNames[0], attrValues[0], attrAt[0], fail);
    } else if (nAttrs > 0) {
      for (let a = 0; a < nAttrs; a++) {
        const an = attrNames[a];
        const v = attrValues[a];
        const aAt = attrAt[a];
        if (an.raw === 'xmlns' || an.prefix === 'xmlns') continue;
        if (v.indexOf('&') >= 0 && BAD_AMP_RE.test(v)) fail('malformed entity reference in attribute value', aAt);
        const ap = an.prefix;
        const al = an.local;
        const ans = ap ? scope[ap] : '';
        if (ans === undefined) fail(`undeclared namespace prefix "${ap}"`, aAt);
        if (el.attrs === NO_ATTRS) el.attrs = [];
        for (const x of el.attrs) if (x.local === al && x.ns === ans) fail(`duplicate attribute ${an.raw}`, aAt);
        el.attrs.push({ ns: ans!, local: al, prefix: ap, value: attrValue(v) });
      }
    }
    if (parent) openKids[openTop++] = el;
    else root = el;
    if (!selfClose) {
      stack.push(el);
      kidsFrom.push(openTop);
      scopes.push(scope);
    }
    return el;
  });

  while (pos < len) {
    // markup usually follows markup directly: no indexOf call then
    const lt = src.charCodeAt(pos) === 60 /* < */ ? pos : src.indexOf('<', pos);
    const textEnd = lt < 0 ? len : lt;
    // nextAmp is the first '&' at or after a position <= pos: none before textEnd, none in the text
    const refs = textEnd > pos && nextAmp >= 0 && nextAmp < textEnd;
    // text needs checking only outside the root or when it contains an entity reference
    if (textEnd > pos && (stack.length === 0 || (nextAmp >= 0 && nextAmp < textEnd))) checkText(pos, textEnd, stack.length === 0);
    if (lt < 0) break;
    const c1 = src.charCodeAt(lt + 1);
    if (c1 === 33 /* ! */) pos = skipDeclaration(lt);
    else if (c1 === 63 /* ? */) pos = skipProcessingInstruction(lt);
    else if (c1 === 47 /* / */) pos = closeElement(lt, refs);
    else pos = openElement(lt);
  }
  if (stack.length) fail(`end of input inside <${stack[stack.length - 1].qname}>`, len);
  if (!root) fail('no root element', 0);
  elements.length = count;
  return { root: root!, elements };
}

interface StartTag {
  text: string;
  /** Start tags seen to follow this one, the most frequent first (at most FOLLOWERS). */
  followers: StartTag[];
  name: Name;
  /** Unprefixed attributes only (never mutated, shared by every element with this tag). */
  attrs: Attr[];
  selfClose: boolean;
}

/**
 * Start tags read before, by their text between '<' and the first '>'. A long invoice repeats a few
 * dozen tags (`<cbc:Amount currencyID="AED">`): one indexOf, one slice and one map lookup replace
 * the scan of the name and attributes (the name scan was the parser's largest cost). Only tags
 * whose meaning depends on nothing but their text are kept: no namespace declarations, no
 * prefixed attributes (their namespace depends on the scope), no '>' inside an attribute value.
 */
const START_TAGS = new Map<string, StartTag>();
/** Followers kept per start tag: an invoice line's tags are followed by at most a few different ones. */
const FOLLOWERS = 6;

function rememberStartTag(text: string, name: Name, attrs: Attr[], selfClose: boolean, nAttrs: number): StartTag | undefined {
  if (attrs.length !== nAttrs) return undefined; // a namespace declaration was among them
  for (const a of attrs) if (a.prefix !== '') return undefined;
  if (START_TAGS.size >= 20_000) START_TAGS.clear();
  // strings sliced from the document would keep the whole document alive: the cache keeps copies
  const kept = attrs.length === 0 ? attrs : attrs.map((a) => ({ ...a, value: copied(a.value) }));
  const tag: StartTag = { text: copied(text), followers: [], name, attrs: kept, selfClose };
  START_TAGS.set(tag.text, tag);
  return tag;
}

/** A flat copy of `s` (property keys are internalised, i.e. copied out of a sliced string). */
function copied(s: string): string {
  return Object.keys({ [s]: 0 })[0] ?? s;
}

/**
 * The attribute list of an element with one unprefixed attribute, shared by every element with
 * the same attribute and raw value (currencyID="AED", unitCode="H87" on every line): attribute
 * lists are never mutated, and one object per amount was a large part of a long invoice's tree.
 */
const SHARED_ATTRS = new Map<Name, Map<string, Attr[]>>();
let sharedAttrCount = 0;

function sharedAttrs(name: Name, raw: string, at: number, fail: (msg: string, at: number) => never): Attr[] {
  let byValue = SHARED_ATTRS.get(name);
  const known = byValue?.get(raw);
  if (known) return known;
  if (raw.indexOf('&') >= 0 && BAD_AMP_RE.test(raw)) fail('malformed entity reference in attribute value', at);
  const attrs: Attr[] = [{ ns: '', local: name.local, prefix: '', value: attrValue(raw) }];
  if (sharedAttrCount >= 20_000) {
    SHARED_ATTRS.clear();
    sharedAttrCount = 0;
    byValue = undefined;
  }
  if (!byValue) SHARED_ATTRS.set(name, (byValue = new Map()));
  byValue.set(raw, attrs);
  sharedAttrCount++;
  return attrs;
}

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/**
 * A small, fast, namespace-aware XML parser into a light element tree: just what the PINT-AE rules
 * need (elements, attributes, text nodes as the XPath data model sees them), nothing else.
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
const NO_TEXTS: string[] = [];

export class El {
  /** Element children in document order. */
  kids: El[] = [];
  /** Text node children (XDM text nodes), in document order. */
  texts: string[] = NO_TEXTS;
  attrs: Attr[] = NO_ATTRS;
  /** Position in document order (root = 0). */
  order = 0;
  private sv: string | undefined;

  constructor(
    readonly parent: El | null,
    readonly ns: string,
    readonly local: string,
    readonly prefix: string,
  ) {}

  is(ns: string, local: string): boolean {
    return this.local === local && this.ns === ns;
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
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (k.local === local && k.ns === ns) return k;
    }
    return undefined;
  }

  /** All child elements `ns:local`. */
  children(ns: string, local: string): El[] {
    const out: El[] = [];
    const kids = this.kids;
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (k.local === local && k.ns === ns) out.push(k);
    }
    return out;
  }

  hasChild(ns: string, local: string): boolean {
    return this.child(ns, local) !== undefined;
  }

  countChildren(ns: string, local: string): number {
    let n = 0;
    const kids = this.kids;
    for (let i = 0; i < kids.length; i++) if (kids[i].local === local && kids[i].ns === ns) n++;
    return n;
  }

  /** Nearest ancestor `ns:local` (not self). */
  ancestor(ns: string, local: string): El | undefined {
    for (let p = this.parent; p; p = p.parent) if (p.local === local && p.ns === ns) return p;
    return undefined;
  }

  /** XPath string value: all descendant text in document order. */
  get value(): string {
    if (this.sv === undefined) {
      if (this.kids.length === 0) this.sv = this.texts.length === 1 ? this.texts[0] : this.texts.join('');
      else {
        // Interleave is not recorded, so rebuild from the subtree in document order.
        this.sv = collectText(this);
      }
    }
    return this.sv;
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

  private positions: Map<El, [number, number]> | undefined;

  /** [1-based position among same-named siblings, number of same-named siblings] of child `kid`. */
  sameNamePosition(kid: El): [number, number] {
    if (!this.positions) {
      const counts = new Map<string, El[]>();
      for (const k of this.kids) {
        const key = k.ns + '\u0000' + k.local;
        let list = counts.get(key);
        if (!list) counts.set(key, (list = []));
        list.push(k);
      }
      this.positions = new Map();
      for (const list of counts.values()) list.forEach((k, i) => this.positions!.set(k, [i + 1, list.length]));
    }
    return this.positions.get(kid) ?? [1, 1];
  }
}

/**
 * Text of a subtree in document order. The parser records, per element, the text runs and the
 * child elements separately, plus `textSlots` telling after how many children each run came.
 */
function collectText(el: El): string {
  let out = '';
  const slots = (el as ElWithSlots).textSlots;
  let t = 0;
  for (let i = 0; i <= el.kids.length; i++) {
    while (t < el.texts.length && (slots ? slots[t] : 0) === i) out += el.texts[t++];
    if (i < el.kids.length) out += el.kids[i].value;
  }
  return out;
}

interface ElWithSlots extends El {
  textSlots?: number[];
}

export interface XmlDocument {
  root: El;
  /** Every element, in document order. */
  elements: El[];
  /** Elements by local name, each list in document order. */
  byLocal: Map<string, El[]>;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

type Scope = Record<string, string>;
const BASE_SCOPE: Scope = { xml: NS.XML, xmlns: NS.XMLNS, '': '' };

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** Parses an XML document. Throws XmlParseError on anything not well-formed. */
export function parseXml(input: string): XmlDocument {
  let src = input;
  if (src.charCodeAt(0) === 0xfeff) src = src.slice(1);
  if (src.indexOf('\r') >= 0) src = src.replace(/\r\n?/g, '\n');
  const len = src.length;
  let pos = 0;

  const fail = (msg: string, at = pos): never => {
    let line = 1;
    let col = 1;
    for (let i = 0; i < at && i < len; i++) {
      if (src.charCodeAt(i) === 10) {
        line++;
        col = 1;
      } else col++;
    }
    throw new XmlParseError(msg, line, col);
  };

  const decode = (s: string, at: number): string => {
    if (s.indexOf('&') < 0) return s;
    let out = '';
    let i = 0;
    for (;;) {
      const amp = s.indexOf('&', i);
      if (amp < 0) return out + s.slice(i);
      out += s.slice(i, amp);
      const semi = s.indexOf(';', amp);
      if (semi < 0) fail('unterminated entity reference', at + amp);
      const name = s.slice(amp + 1, semi);
      if (name.charCodeAt(0) === 35 /* # */) {
        const cp = name.charCodeAt(1) === 120 /* x */ ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        if (!/^#(x[0-9a-fA-F]+|[0-9]+)$/.test(name) || !isXmlChar(cp)) fail(`invalid character reference &${name};`, at + amp);
        out += String.fromCodePoint(cp);
      } else {
        const v = ENTITIES[name];
        if (v === undefined) fail(`undefined entity &${name};`, at + amp);
        out += v;
      }
      i = semi + 1;
    }
  };

  const readName = (): string => {
    const start = pos;
    while (pos < len) {
      const c = src.charCodeAt(pos);
      if (isSpace(c) || c === 62 /* > */ || c === 47 /* / */ || c === 61 /* = */ || c === 60 /* < */ || c === 34 || c === 39) break;
      pos++;
    }
    if (pos === start) fail('name expected');
    return src.slice(start, pos);
  };

  const skipSpace = (): void => {
    while (pos < len && isSpace(src.charCodeAt(pos))) pos++;
  };

  const elements: El[] = [];
  const byLocal = new Map<string, El[]>();
  let root: El | null = null;
  const stack: El[] = [];
  const scopes: Scope[] = [BASE_SCOPE];
  let run: string | null = null; // current text run of the open element
  let runKidsAtStart = 0;

  const flushRun = (): void => {
    if (run !== null && stack.length > 0) {
      const el = stack[stack.length - 1] as ElWithSlots;
      if (run.length > 0) {
        if (el.texts === NO_TEXTS) el.texts = [];
        el.texts.push(run);
        if (el.kids.length > 0 || el.textSlots) {
          if (!el.textSlots) el.textSlots = new Array(el.texts.length - 1).fill(0);
          el.textSlots.push(runKidsAtStart);
        }
      }
    }
    run = null;
  };
  const appendText = (t: string, at: number): void => {
    if (stack.length === 0) {
      if (!/^[ \t\n]*$/.test(t)) fail('text outside the root element', at);
      return;
    }
    if (run === null) {
      run = t;
      runKidsAtStart = stack[stack.length - 1].kids.length;
    } else run += t;
  };

  while (pos < len) {
    const lt = src.indexOf('<', pos);
    if (lt < 0) {
      appendText(decode(src.slice(pos), pos), pos);
      pos = len;
      break;
    }
    if (lt > pos) appendText(decode(src.slice(pos, lt), pos), pos);
    pos = lt;
    const c1 = src.charCodeAt(pos + 1);
    if (c1 === 33 /* ! */) {
      if (src.startsWith('<!--', pos)) {
        const end = src.indexOf('-->', pos + 4);
        if (end < 0) fail('unterminated comment');
        flushRun();
        pos = end + 3;
      } else if (src.startsWith('<![CDATA[', pos)) {
        const end = src.indexOf(']]>', pos + 9);
        if (end < 0) fail('unterminated CDATA section');
        if (stack.length === 0) fail('CDATA outside the root element');
        appendText(src.slice(pos + 9, end), pos);
        pos = end + 3;
      } else if (src.startsWith('<!DOCTYPE', pos)) {
        if (root) fail('DOCTYPE after the root element');
        let i = pos + 9;
        let depth = 0;
        for (; i < len; i++) {
          const ch = src.charCodeAt(i);
          if (ch === 91 /* [ */) depth++;
          else if (ch === 93 /* ] */) depth--;
          else if (ch === 62 /* > */ && depth === 0) break;
        }
        if (i >= len) fail('unterminated DOCTYPE');
        pos = i + 1;
      } else fail('markup not recognised');
    } else if (c1 === 63 /* ? */) {
      const end = src.indexOf('?>', pos + 2);
      if (end < 0) fail('unterminated processing instruction');
      flushRun();
      pos = end + 2;
    } else if (c1 === 47 /* / */) {
      pos += 2;
      const name = readName();
      skipSpace();
      if (src.charCodeAt(pos) !== 62) fail('">" expected');
      pos++;
      const el = stack[stack.length - 1];
      if (!el) fail(`unexpected end tag </${name}>`);
      if (el.qname !== name) fail(`end tag </${name}> does not match <${el.qname}>`);
      flushRun();
      stack.pop();
      scopes.pop();
      // the parent's run continues after this child: nothing to do, a new run starts on next text
    } else {
      // start tag
      if (root && stack.length === 0) fail('content after the root element');
      flushRun();
      pos++;
      const name = readName();
      const rawAttrs: [string, string, number][] = [];
      let selfClose = false;
      for (;;) {
        const before = pos;
        skipSpace();
        const c = src.charCodeAt(pos);
        if (c === 62 /* > */) {
          pos++;
          break;
        }
        if (c === 47 /* / */) {
          if (src.charCodeAt(pos + 1) !== 62) fail('">" expected after "/"');
          pos += 2;
          selfClose = true;
          break;
        }
        if (pos >= len) fail('unterminated start tag');
        if (pos === before) fail('whitespace expected between attributes');
        const an = readName();
        skipSpace();
        if (src.charCodeAt(pos) !== 61) fail('"=" expected');
        pos++;
        skipSpace();
        const q = src.charCodeAt(pos);
        if (q !== 34 && q !== 39) fail('quoted attribute value expected');
        const end = src.indexOf(q === 34 ? '"' : "'", pos + 1);
        if (end < 0) fail('unterminated attribute value');
        const raw = src.slice(pos + 1, end);
        if (raw.indexOf('<') >= 0) fail('"<" in attribute value', pos);
        rawAttrs.push([an, decode(raw, pos + 1), pos]);
        pos = end + 1;
      }
      // namespace declarations
      let scope = scopes[scopes.length - 1];
      for (const [an, v] of rawAttrs) {
        if (an === 'xmlns' || an.startsWith('xmlns:')) {
          if (scope === scopes[scopes.length - 1]) scope = Object.create(scope) as Scope;
          scope[an === 'xmlns' ? '' : an.slice(6)] = v;
        }
      }
      scopes.push(scope);
      const colon = name.indexOf(':');
      const prefix = colon >= 0 ? name.slice(0, colon) : '';
      const local = colon >= 0 ? name.slice(colon + 1) : name;
      const ns = scope[prefix];
      if (ns === undefined) fail(`undeclared namespace prefix "${prefix}"`);
      const parent = stack.length ? stack[stack.length - 1] : null;
      const el = new El(parent, ns!, local, prefix);
      el.order = elements.length;
      elements.push(el);
      let list = byLocal.get(local);
      if (!list) byLocal.set(local, (list = []));
      list.push(el);
      for (const [an, v, at] of rawAttrs) {
        if (an === 'xmlns' || an.startsWith('xmlns:')) continue;
        const ac = an.indexOf(':');
        const ap = ac >= 0 ? an.slice(0, ac) : '';
        const al = ac >= 0 ? an.slice(ac + 1) : an;
        const ans = ap ? scope[ap] : '';
        if (ans === undefined) fail(`undeclared namespace prefix "${ap}"`, at);
        if (el.attrs === NO_ATTRS) el.attrs = [];
        for (const a of el.attrs) if (a.local === al && a.ns === ans) fail(`duplicate attribute ${an}`, at);
        el.attrs.push({ ns: ans!, local: al, prefix: ap, value: v });
      }
      if (parent) parent.kids.push(el);
      else root = el;
      if (selfClose) scopes.pop();
      else stack.push(el);
    }
  }
  if (stack.length) fail(`end of input inside <${stack[stack.length - 1].qname}>`);
  if (!root) fail('no root element');
  return { root: root!, elements, byLocal };
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

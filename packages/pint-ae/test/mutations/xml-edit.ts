/**
 * Text-level XML editing for the mutation tests: locates elements in the original text (so the
 * mutated document keeps its formatting, comments and namespace declarations) and applies small
 * edits. Deliberately independent of the validator's parser.
 */

export interface Span {
  /** qualified name as written, e.g. "cbc:ID" */
  name: string;
  start: number; // '<' of the start tag
  openEnd: number; // just after the start tag's '>'
  closeStart: number; // '<' of the end tag (= openEnd for an empty element)
  end: number; // just after the end tag (or the self-closing tag)
  parent: Span | null;
  children: Span[];
  selfClosing: boolean;
}

const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<!DOCTYPE[^>]*>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;

/** Parses element spans; returns the root span. */
export function spans(xml: string): Span {
  const stack: Span[] = [];
  let root: Span | null = null;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(xml); m; m = TOKEN.exec(xml)) {
    if (!m[2]) continue;
    const [whole, slash, name, , selfClose] = m;
    if (slash) {
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`mismatched </${name}> at ${m.index}`);
      open.closeStart = m.index;
      open.end = m.index + whole.length;
      continue;
    }
    const parent = stack[stack.length - 1] ?? null;
    const span: Span = {
      name,
      start: m.index,
      openEnd: m.index + whole.length,
      closeStart: m.index + whole.length,
      end: m.index + whole.length,
      parent,
      children: [],
      selfClosing: !!selfClose,
    };
    if (parent) parent.children.push(span);
    else root = span;
    if (!selfClose) stack.push(span);
  }
  if (!root) throw new Error('no root element');
  return root;
}

export function* descendants(s: Span): Generator<Span> {
  for (const c of s.children) {
    yield c;
    yield* descendants(c);
  }
}

/**
 * Elements matching a path of qualified names, anywhere in the tree: 'cac:Party/cbc:EndpointID'
 * matches every cbc:EndpointID whose parent is a cac:Party. A leading '/' anchors at the root's children.
 */
export function select(root: Span, path: string): Span[] {
  const anchored = path.startsWith('/');
  const steps = (anchored ? path.slice(1) : path).split('/');
  const out: Span[] = [];
  for (const s of descendants(root)) {
    let cur: Span | null = s;
    let ok = true;
    for (let i = steps.length - 1; i >= 0; i--) {
      if (!cur || cur.name !== steps[i]) {
        ok = false;
        break;
      }
      cur = cur.parent;
    }
    if (ok && (!anchored || cur === root)) out.push(s);
  }
  return out;
}

export const textOf = (xml: string, s: Span) => xml.slice(s.openEnd, s.closeStart);

/** XPath-ish path of a span, e.g. /Invoice/cac:InvoiceLine[2]/cbc:ID (index only among same-named siblings). */
export function pathOf(s: Span): string {
  const steps: string[] = [];
  for (let e: Span | null = s; e; e = e.parent) {
    if (!e.parent) {
      steps.push(e.name.replace(/^.*:/, ''));
      break;
    }
    const same = e.parent.children.filter((c) => c.name === e!.name);
    steps.push(same.length > 1 ? `${e.name}[${same.indexOf(e) + 1}]` : e.name);
  }
  return '/' + steps.reverse().join('/');
}

export function setText(xml: string, s: Span, value: string): string {
  if (s.selfClosing) return xml.slice(0, s.start) + `<${s.name}${attrText(xml, s)}>${value}</${s.name}>` + xml.slice(s.end);
  return xml.slice(0, s.openEnd) + value + xml.slice(s.closeStart);
}

export function remove(xml: string, s: Span): string {
  return xml.slice(0, s.start) + xml.slice(s.end);
}

export function duplicate(xml: string, s: Span): string {
  const copy = xml.slice(s.start, s.end);
  return xml.slice(0, s.end) + copy + xml.slice(s.end);
}

/** Inserts `snippet` as the last child of `s` (or the first when `first`). */
export function insertChild(xml: string, s: Span, snippet: string, first = false): string {
  if (s.selfClosing) return xml.slice(0, s.start) + `<${s.name}${attrText(xml, s)}>${snippet}</${s.name}>` + xml.slice(s.end);
  const at = first ? s.openEnd : s.closeStart;
  return xml.slice(0, at) + snippet + xml.slice(at);
}

export function insertAfter(xml: string, s: Span, snippet: string): string {
  return xml.slice(0, s.end) + snippet + xml.slice(s.end);
}

export function insertBefore(xml: string, s: Span, snippet: string): string {
  return xml.slice(0, s.start) + snippet + xml.slice(s.start);
}

function attrText(xml: string, s: Span): string {
  const tag = xml.slice(s.start, s.openEnd);
  return tag.slice(1 + s.name.length).replace(/\s*\/?>$/, '');
}

export function getAttr(xml: string, s: Span, name: string): string | undefined {
  const m = new RegExp(`\\s${name.replace(/[.:]/g, '\\$&')}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(attrText(xml, s));
  return m ? (m[2] ?? m[3]) : undefined;
}

/** Sets (or with `undefined` removes) an attribute on the start tag of `s`. */
export function setAttr(xml: string, s: Span, name: string, value: string | undefined): string {
  const attrs = attrText(xml, s);
  const re = new RegExp(`\\s${name.replace(/[.:]/g, '\\$&')}\\s*=\\s*("[^"]*"|'[^']*')`);
  let next: string;
  if (re.test(attrs)) next = value === undefined ? attrs.replace(re, '') : attrs.replace(re, ` ${name}="${value}"`);
  else next = value === undefined ? attrs : `${attrs} ${name}="${value}"`;
  const tag = `<${s.name}${next}${s.selfClosing ? '/>' : '>'}`;
  return xml.slice(0, s.start) + tag + xml.slice(s.openEnd);
}

/** Leaf elements (no element children). */
export function leaves(root: Span): Span[] {
  return [...descendants(root)].filter((s) => s.children.length === 0);
}

// Reading the delivered XML with the project's own parser (@einvoice/pint-ae's, the one the native
// rules use: fast, namespace-aware, well-formedness checked). The rendition looks elements up by local name
// only: UBL's cac/cbc local names do not collide, and the rules have already checked the namespaces. Pure code.
import { parseXml, XmlParseError, type El } from '@einvoice/pint-ae';

export type XmlElement = El;
export { XmlParseError };

/** Parses a document into its root element; throws XmlParseError when it is not well-formed. */
export function readXml(xml: string): XmlElement {
  return parseXml(xml).root;
}

/** The first child with this local name. */
export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  const kids = el.kids;
  for (let i = 0; i < kids.length; i++) if (kids[i].local === name) return kids[i];
  return undefined;
}

/** Every child with this local name. */
export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.kids.filter((c) => c.local === name) : [];
}

/** The element at a path of local names (first match at each step). */
export function at(el: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
  let cur = el;
  for (const p of path) cur = child(cur, p);
  return cur;
}

/** The trimmed string value of an element, or undefined when absent or empty. */
export function textOf(el: XmlElement | undefined): string | undefined {
  const t = el?.value.trim();
  return t ? t : undefined;
}

/** The trimmed text at a path, or undefined when absent or empty. */
export function textAt(el: XmlElement | undefined, ...path: string[]): string | undefined {
  return textOf(at(el, ...path));
}

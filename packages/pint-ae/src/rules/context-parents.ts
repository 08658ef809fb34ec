/**
 * A necessary condition read off a rule's context (an XSLT match pattern): the local names the
 * matched element's parent can have. `cac:PartyIdentification/cbc:ID[@schemeID = '0088']` can
 * only match a cbc:ID whose parent is a PartyIdentification, so the engine need not run the
 * rule's match function on the hundreds of other cbc:ID elements of a long invoice (nine such
 * rules per ID element were a third of all match calls).
 */

/** Splits `s` on `sep` outside brackets, parentheses and string literals. */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      out.push(s.slice(from, i));
      from = i + sep.length;
      i += sep.length - 1;
    }
  }
  out.push(s.slice(from));
  return out;
}

/** The local name a step tests, or undefined for anything but a plain name test (`*`, axes, `..`). */
function stepLocal(step: string): string | undefined {
  const name = step.trim().replace(/\[[\s\S]*$/, '');
  const m = /^(?:[\w.-]+:)?([\w.-]+)$/.exec(name);
  return m ? m[1] : undefined;
}

/**
 * For each local name the context's alternatives end with, the parent local names allowed, or
 * null when some alternative ending with that name does not constrain the parent.
 */
export function parentNames(context: string): Map<string, Set<string> | null> {
  const out = new Map<string, Set<string> | null>();
  for (const alternative of splitTop(context, '|')) {
    const steps = splitTop(alternative.trim(), '/');
    const last = stepLocal(steps[steps.length - 1]);
    if (last === undefined) continue; // a wildcard: the rule has no names entry for it either
    // `a/b` constrains b's parent; `b`, `/b`, `a//b` (an empty step before b) do not
    const before = steps.length >= 2 ? steps[steps.length - 2] : '';
    const parent = before.trim() === '' ? undefined : stepLocal(before);
    if (parent === undefined || out.get(last) === null) out.set(last, null);
    else {
      const set = out.get(last) ?? new Set<string>();
      set.add(parent);
      out.set(last, set);
    }
  }
  return out;
}

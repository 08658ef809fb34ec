/**
 * Evaluates rule tables the way the official (ISO Schematron -> XSLT 2.0) artefacts do:
 *
 * - the two official files run one after the other, each pattern separately, over every element of
 *   the document in document order (the compiled XSLT applies templates to elements only, so rules
 *   whose context is an attribute never fire);
 * - within a pattern an element is handled by the FIRST rule (in .sch order) whose context matches,
 *   and only by it; a dynamic error while matching a context means "no match" (XSLT 2.0 recovery);
 * - every assert of that rule is evaluated; a failed assert (or a successful report) is a finding;
 * - a dynamic error inside an assert would abort the official run: it is reported as a finding
 *   with id `eval-error` (flag fatal) naming the rule that could not be evaluated.
 */
import type { CompiledCandidate, Reporters, Visit } from './compiled-visit';
import * as compiledVisitModule from './compiled-visit';
import * as contextParentsModule from './context-parents';
import type { AssertMeta } from './messages';
import * as messagesModule from './messages';
import type { El, Name, XmlDocument } from './xml';
import * as xmlModule from './xml';
import * as xpathModule from './xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { compileVisit } = compiledVisitModule;
const { parentNames } = contextParentsModule;
const { ASSERTS } = messagesModule;
const { intern } = xmlModule;
const { Lazy, XPathError } = xpathModule;

export type PatternId = 'UBL-model' | 'Codesmodel' | 'UBL-modelaligned' | 'Codesmodelaligned';

/** Patterns in the order the official artefacts run them (file 1, then file 2). */
export const PATTERNS: readonly PatternId[] = ['UBL-model', 'Codesmodel', 'UBL-modelaligned', 'Codesmodelaligned'];

export type Profile = 'billing' | 'selfbilling';

export interface Assert {
  /** Official assert id; flag and message come from the official file (messages.ts). */
  id: string;
  /**
   * The test expression's value: an assert fires when it is false, a report when it is true.
   * Throws XPathError where the official engine raises a dynamic error.
   */
  test: (el: El, ctx: Ctx) => boolean;
}

export interface Rule {
  pattern: PatternId;
  /** 1-based position of the rule in its pattern, as in the .sch (first match wins). */
  seq: number;
  /** The official context expression, verbatim. */
  context: string;
  /** [namespace, local name] of the element the context's last step can select; '*' = any element. */
  names: readonly (readonly [string, string])[] | '*';
  /** Further conditions of the context (parents, predicates); absent = the name is enough. */
  match?: (el: El, ctx: Ctx) => boolean;
  /** For a wildcard rule: a necessary condition on the local name, used to skip it cheaply. */
  localFilter?: (local: string) => boolean;
  asserts: readonly Assert[];
  /** Set when the official engine can never fire this rule (e.g. an attribute context). */
  neverFires?: string;
}

export interface Finding {
  id: string;
  location: string;
  text: string;
}

export interface Findings {
  fatal: Finding[];
  warning: Finding[];
}

/** Per-document evaluation context: the tree, the profile and memoised document-wide values. */
export class Ctx {
  private readonly memos = new Map<string, xpathModule.Lazy<unknown>>();
  /** `all()` lists by local name, then namespace (both interned: no key string built per call). */
  private readonly byName = new Map<string, Map<string, El[]>>();

  constructor(
    readonly doc: XmlDocument,
    readonly profile: Profile,
  ) {}

  get root(): El {
    return this.doc.root;
  }

  /** `//ns:local`: every element with that name, in document order. */
  all(ns: string, local: string): El[] {
    let byNs = this.byName.get(local);
    if (byNs === undefined) this.byName.set(local, (byNs = new Map()));
    let list = byNs.get(ns);
    if (!list) {
      const same = this.byLocal(local);
      list = same.filter((el) => el.ns === ns);
      byNs.set(ns, list);
    }
    return list;
  }

  /**
   * Every element named `local`. The first call indexes, in one pass, the local names rules have
   * asked for before (about fifteen, the same in every document); a name asked for the first time
   * is found by a scan of its own. Indexing every element by name cost more: a Map lookup per
   * element where only about one in five is ever asked for.
   */
  private byLocal(local: string): El[] {
    if (!ASKED.has(local)) {
      ASKED.add(local);
      askedVersion++;
    }
    const index = (this.elementsByLocal ??= indexAsked(this.doc.elements));
    let list = index.get(local);
    if (list === undefined) index.set(local, (list = elementsNamed(this.doc.elements, local)));
    return list;
  }
  private elementsByLocal: Map<string, El[]> | undefined = undefined;

  /** A document-wide value computed once (errors are remembered and rethrown too). */
  memo<T>(key: string, compute: () => T): T {
    let lazy = this.memos.get(key) as xpathModule.Lazy<T> | undefined;
    if (!lazy) {
      lazy = new Lazy(compute);
      this.memos.set(key, lazy as xpathModule.Lazy<unknown>);
    }
    return lazy.get();
  }
}

/** Local names `Ctx.all` was asked for in this process (from the rules' code: a few dozen at most). */
const ASKED = new Set<string>();
/** Bumped when ASKED grows, so that each interned name rechecks whether it is asked for (isAsked). */
let askedVersion = 0;

function isAsked(name: Name): boolean {
  if (name.askedVersion !== askedVersion) {
    name.asked = ASKED.has(name.local);
    name.askedVersion = askedVersion;
  }
  return name.asked;
}

/**
 * The elements of every asked-for local name, by name (a list, maybe empty, for each). The loop is
 * alone in its function for the reason given at RuleSet.visitAll (the store after it deoptimised
 * the loop's on-stack code on every validation).
 */
function indexAsked(elements: readonly El[]): Map<string, El[]> {
  const index = new Map<string, El[]>();
  for (const local of ASKED) index.set(local, []);
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i];
    const name = el.nameInfo;
    if (isAsked(name)) index.get(name.local)!.push(el);
  }
  return index;
}

/** The elements named `local`, in document order. */
function elementsNamed(elements: readonly El[], local: string): El[] {
  const out: El[] = [];
  for (let i = 0; i < elements.length; i++) if (elements[i].local === local) out.push(elements[i]);
  return out;
}

interface KeyNode {
  next: Map<string, KeyNode>;
  key: string | undefined;
}
const KEYS: KeyNode = { next: new Map(), key: undefined };

/**
 * The memo key made of `parts` (interned strings such as a category code), the same string object
 * every time: a key built per call (a template string) was hashed and compared character by
 * character on each lookup.
 */
export function memoKey(...parts: string[]): string {
  let node = KEYS;
  for (const part of parts) {
    let next = node.next.get(part);
    if (next === undefined) node.next.set(part, (next = { next: new Map(), key: undefined }));
    node = next;
  }
  return (node.key ??= parts.join(':'));
}

/** What the engine runs on an element with one namespace and local name (see compiled-visit.ts). */
interface Dispatch {
  visit: Visit<Ctx, Findings>;
}

interface PatternIndex {
  byLocal: Map<string, Rule[]>;
  wildcard: Rule[];
}

interface CachedDispatch {
  owner: RuleSet;
  ns: string;
  d: Dispatch;
}

/** Compiled dispatch tables for a rule set. */
export class RuleSet {
  private readonly patterns: Map<PatternId, PatternIndex> = new Map();
  private readonly metas = new Map<Rule, AssertMeta[]>();

  constructor(readonly rules: readonly Rule[]) {
    for (const p of PATTERNS) this.patterns.set(p, { byLocal: new Map(), wildcard: [] });
    const sorted = [...rules].sort((a, b) => a.seq - b.seq);
    for (const r of sorted) {
      this.metas.set(
        r,
        r.asserts.map((a) => {
          const meta = ASSERTS[a.id];
          if (!meta) throw new Error(`no official assert ${a.id}`);
          return meta;
        }),
      );
      if (r.neverFires) continue;
      const idx = this.patterns.get(r.pattern)!;
      if (r.names === '*') idx.wildcard.push(r);
      else {
        const locals = new Set(r.names.map((n) => n[1]));
        for (const l of locals) {
          let list = idx.byLocal.get(l);
          if (!list) idx.byLocal.set(l, (list = []));
          list.push(r);
        }
      }
    }
  }

  private readonly perName = new Map<string, Map<string, Dispatch>>();

  /**
   * The loop over all elements, alone in its function. A long document's loop is optimised on
   * stack (OSR) during the first run; with code after the loop in the same function, that code had
   * no type feedback yet, so the optimised loop was thrown away at its end on every validation
   * ("insufficient type feedback": 22 deopts in 22 validations of 1,000 lines, now none), and each
   * run went back to baseline code for a while.
   */
  private visitAll(elements: readonly El[], ctx: Ctx, perPattern: Findings[]): void {
    for (let i = 0; i < elements.length; i++) {
      const el = elements[i];
      // the lookup is kept on the element's interned name (shared by every element spelled the same)
      const name = el.nameInfo;
      let cached = name.cache as CachedDispatch | undefined;
      if (cached === undefined || cached.owner !== this || cached.ns !== el.ns) {
        cached = { owner: this, ns: el.ns, d: this.dispatch(el.ns, el.local) };
        name.cache = cached;
      }
      cached.d.visit(el, ctx, perPattern);
    }
  }

  /** The rules that may match an element `ns:local`, per pattern in PATTERNS order, each list in .sch order. */
  dispatch(ns: string, local: string): Dispatch {
    let byNs = this.perName.get(local);
    if (!byNs) this.perName.set(local, (byNs = new Map()));
    let d = byNs.get(ns);
    if (!d) {
      const patterns: number[] = [];
      const lists: CompiledCandidate[][] = [];
      for (const [p, pattern] of PATTERNS.entries()) {
        const idx = this.patterns.get(pattern)!;
        const named = (idx.byLocal.get(local) ?? []).filter((r) => r.names !== '*' && r.names.some((n) => n[0] === ns && n[1] === local));
        const wild = idx.wildcard.filter((r) => !r.localFilter || r.localFilter(local));
        const rules = [...named, ...wild].sort((a, b) => a.seq - b.seq);
        if (rules.length === 0) continue;
        patterns.push(p);
        lists.push(
          rules.map((rule) => ({
            // only for rules with a match function: for the others the name alone decides
            parents: rule.names === '*' || !rule.match ? null : internAll(parentNames(rule.context).get(local) ?? null),
            match: rule.match as CompiledCandidate['match'],
            asserts: rule.asserts as CompiledCandidate['asserts'],
            metas: this.metas.get(rule)!,
          })),
        );
      }
      d = { visit: compileVisit(patterns, lists, REPORTERS) };
      byNs.set(ns, d);
    }
    return d;
  }

  /**
   * Runs every pattern over the document. One pass over the elements; findings are collected per
   * pattern so that the output order is the official one (pattern by pattern, document order).
   */
  run(doc: XmlDocument, profile: Profile): Findings {
    const ctx = new Ctx(doc, profile);
    const perPattern: Findings[] = PATTERNS.map(() => ({ fatal: [], warning: [] }));
    this.visitAll(doc.elements, ctx, perPattern);
    const out: Findings = { fatal: [], warning: [] };
    for (const f of perPattern) {
      for (const x of f.fatal) out.fatal.push(x);
      for (const x of f.warning) out.warning.push(x);
    }
    return out;
  }
}

/** A set of one to three names as an array of interned strings: `===` in a loop beats Set.has here. */
function internAll(names: Set<string> | null): string[] | null {
  return names === null ? null : [...names].map(intern);
}

export const EVAL_ERROR_ID = 'eval-error';

/** How a compiled visit records findings (see compiled-visit.ts). */
const REPORTERS: Reporters<Ctx, Findings> = {
  fire(el, out, id, meta) {
    const finding: Finding = { id, location: el.location(), text: meta.text };
    if (meta.flag === 'fatal' || meta.flag === 'error') out.fatal.push(finding);
    else out.warning.push(finding);
  },
  evalError(e, el, out, id) {
    if (!(e instanceof XPathError)) throw e;
    out.fatal.push({
      id: EVAL_ERROR_ID,
      location: el.location(),
      text: `[${EVAL_ERROR_ID}]-The official rule ${id} cannot be evaluated on this document (${e.code}: ${e.message}); the official Schematron stops with this error.`,
    });
  },
};

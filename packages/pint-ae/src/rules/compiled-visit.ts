/**
 * One generated function per element name (namespace + local name) doing what the engine does for
 * such an element: per pattern, the first rule whose context matches, then each of its asserts.
 *
 * Why generated: written as one loop over rule tables, every context match and every assert of
 * every rule went through the same two call sites (megamorphic: no inlining, a generic call each),
 * and each small rule function was compiled on its own only once hot, which rules met once per
 * document reach after thousands of validations. Here each call site calls one function, so its
 * feedback stays monomorphic and the optimiser may inline small rule functions into the element's
 * function; the rule tables are unrolled into constant comparisons and branches.
 *
 * The semantics are those of the table walk they replace (engine.ts): the parents filter, a dynamic
 * error in a context match meaning "no match", an assert's error reported as `eval-error` and the
 * rule's other asserts evaluated, findings pushed in the same order.
 */
import type { AssertMeta } from './messages';
import type { El } from './xml';
import * as xpathModule from './xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { XPathError } = xpathModule;

/** One rule an element may match, in .sch order within its pattern. */
export interface CompiledCandidate {
  /** Local names (interned) the element's parent must have for the context to match; null = any. */
  parents: readonly string[] | null;
  match: ((el: El, ctx: never) => boolean) | undefined;
  asserts: readonly { id: string; test: (el: El, ctx: never) => boolean }[];
  metas: readonly AssertMeta[];
}

/** What a generated function needs from the engine: how to record findings and evaluation errors. */
export interface Reporters<C, F> {
  /** A failed assert (or a successful report) of `meta` on `el`, to `out`. */
  fire(el: El, out: F, id: string, meta: AssertMeta): void;
  /** The assert `id` raised `e` on `el`: an XPathError becomes an eval-error finding, anything else is rethrown. */
  evalError(e: unknown, el: El, out: F, id: string): void;
  /** Type witness only. */
  ctx?: C;
}

export type Visit<C, F> = (el: El, ctx: C, perPattern: F[]) => void;

/**
 * The function evaluating `lists` (one list of candidates per pattern, pattern index `patterns[i]`
 * in the engine's per-pattern findings) on an element.
 */
export function compileVisit<C, F>(patterns: readonly number[], lists: readonly CompiledCandidate[][], reporters: Reporters<C, F>): Visit<C, F> {
  const values: unknown[] = [];
  /** A parameter name standing for `value` in the generated code. */
  const bind = (value: unknown): string => {
    values.push(value);
    return `v${values.length - 1}`;
  };
  const fire = bind(reporters.fire);
  const evalError = bind(reporters.evalError);
  const xpathError = bind(XPathError);
  const lines: string[] = [];
  const emit = (line: string) => lines.push(line);
  emit('const parent = el.parent;');
  emit('const parentLocal = parent === null ? undefined : parent.local;');
  emit('let out, ok, matched;');
  for (let p = 0; p < lists.length; p++) {
    emit(`p${p}: {`);
    emit(`out = perPattern[${patterns[p]}];`);
    for (const c of lists[p]) {
      // the parents filter, then the match (a dynamic error while matching = no match)
      const parentTest = c.parents === null ? 'true' : c.parents.map((n) => `parentLocal === ${bind(n)}`).join(' || ');
      emit(`if (${parentTest}) {`);
      if (c.match === undefined) emit('matched = true;');
      else {
        emit(`try { matched = ${bind(c.match)}(el, ctx); }`);
        emit(`catch (e) { if (!(e instanceof ${xpathError})) throw e; matched = false; }`);
      }
      emit('if (matched) {');
      c.asserts.forEach((a, i) => {
        const meta = c.metas[i];
        const id = bind(a.id);
        // on an evaluation error: reported, and `ok` set to the value that does not fire
        emit(`try { ok = ${bind(a.test)}(el, ctx); } catch (e) { ${evalError}(e, el, out, ${id}); ok = ${meta.kind === 'assert'}; }`);
        emit(`if (${meta.kind === 'assert' ? '!ok' : 'ok'}) ${fire}(el, out, ${id}, ${bind(meta)});`);
      });
      emit(`break p${p};`);
      emit('}');
      emit('}');
    }
    emit('}');
  }
  const params = values.map((_, i) => `v${i}`);
  const factory = new Function(...params, `"use strict";\nreturn function visit(el, ctx, perPattern) {\n${lines.join('\n')}\n};`) as (
    ...args: unknown[]
  ) => Visit<C, F>;
  return factory(...values);
}

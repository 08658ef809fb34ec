// The validator's modules bind what they import from each other once, at load (see "Imports" in
// src/rules/index.ts). That is only safe while they import each other without cycles: in a
// cycle, one module's bindings would be taken before the other had set them (undefined). This test
// reads the import statements and fails on any cycle, naming it.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative modules `file` loads at run time (type-only imports are erased, so they do not count). */
export function runtimeImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s+'(\.[^']+)'/gms)) {
    const base = path.resolve(path.dirname(file), m[1]);
    const found = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
    if (found) out.push(found);
  }
  return out;
}

/** Every import cycle in the graph, each as a list of files. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('PINT-AE validator modules: import graph', () => {
  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).to.deep.equal([['a', 'b', 'c', 'a']]);
    expect(cycles(new Map([['a', ['b']], ['b', []]]))).to.deep.equal([]);
  });

  it('reads value imports and re-exports, not type-only imports', () => {
    const file = path.join(ROOT, 'rules/engine.ts');
    const text = ["import type { El } from './xml';", "import * as xpathModule from './xpath';", "export { intern } from './dsl';", "import { x } from 'node:fs';"].join('\n');
    expect(runtimeImports(file, text).map((f) => path.basename(f))).to.deep.equal(['xpath.ts', 'dsl.ts']);
  });

  it('src has no import cycle', () => {
    const files = sources(ROOT);
    expect(files.length).to.be.greaterThan(10);
    const graph = new Map(files.map((f) => [f, runtimeImports(f, fs.readFileSync(f, 'utf8'))]));
    expect([...graph.values()].flat().length).to.be.greaterThan(20);
    const named = cycles(graph).map((c) => c.map((f) => path.relative(ROOT, f)).join(' -> '));
    expect(named, 'import cycles').to.deep.equal([]);
  });
});

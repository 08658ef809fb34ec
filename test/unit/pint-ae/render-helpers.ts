// Helpers shared by the render tests: the corpus of request bodies and the two validators.
import fs from 'node:fs';
import path from 'node:path';

export interface Finding {
  id: string;
  flag?: string;
  location: string;
  text: string;
}
export interface Report {
  fatal: Finding[];
  warning: Finding[];
}

export const FIXTURES = path.join(__dirname, '../../fixtures/bodies');

/** The corpus: every JSON request body in test/fixtures/bodies, by file name. */
export function corpus(): { name: string; body: unknown }[] {
  return fs
    .readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((name) => ({ name, body: JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) }));
}

export function fixture<T = Record<string, any>>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name.endsWith('.json') ? name : name + '.json'), 'utf8')) as T;
}

// The official Schematron runner lives outside the project (../shared/pint-ae); it resolves saxon-js
// from process.cwd(). Path relative to this file.
const OFFICIAL = '../../../../shared/pint-ae/validate.mjs';
let official: ((xml: string) => Report) | undefined;

export async function officialValidator(): Promise<(xml: string) => Report> {
  if (!official) {
    const mod = (await import(OFFICIAL)) as { validatePintAe: (xml: string) => Report };
    official = mod.validatePintAe;
  }
  return official;
}


export function describeFatal(r: Report): string {
  return r.fatal.map((f) => `${f.id} at ${f.location}: ${f.text}`).join('\n');
}

// Where the official PINT-AE release lies (examples/, schematron/, validate.mjs): not part of this package.
// PINT_AE_OFFICIAL_DIR names it; otherwise the first shared/pint-ae found walking up from here (the project
// keeps it at ../shared/pint-ae beside its checkout).
import fs from 'node:fs';
import path from 'node:path';

function find(): string {
  const named = process.env.PINT_AE_OFFICIAL_DIR;
  if (named) return path.resolve(named);
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'pint-ae');
    if (fs.existsSync(path.join(candidate, 'validate.mjs'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error('the official PINT-AE release was not found: set PINT_AE_OFFICIAL_DIR');
  }
}

export const OFFICIAL_DIR = find();
export const EXAMPLES_DIR = path.join(OFFICIAL_DIR, 'examples');
export const SCHEMATRON_DIR = path.join(OFFICIAL_DIR, 'schematron');
/** The official runner (SaxonJS); it resolves saxon-js from the current directory. */
export const OFFICIAL_VALIDATOR = path.join(OFFICIAL_DIR, 'validate.mjs');

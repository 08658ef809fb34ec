// Builds dist/ (what the tarball ships): the TypeScript compiled to CommonJS with declarations, and the
// official runner's thread, which is plain CommonJS already.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.join(__dirname, '..');
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
fs.copyFileSync(path.join(root, 'src/official/thread.cjs'), path.join(root, 'dist/official/thread.cjs'));

#!/usr/bin/env bash
# The package as a user gets it: `npm pack` (prepack builds dist/), the tarball installed into a fresh project in
# a temporary directory (its dependencies from the npm cache where it has them), then
#   1. the tarball holds dist/ with declarations and the README, and no TypeScript source or tests;
#   2. a TypeScript consumer type-checks against the shipped declarations and runs (render, validate, code lists);
#   3. this package's own tests run against the installed copy: test/ and bench/ are copied beside it and src/
#      points at the installed dist/, so every `../src/...` import the tests make loads the shipped JavaScript.
# module-graph.test.ts reads the TypeScript source for import cycles, so it runs from the source tree only.
# The official PINT-AE release (examples, Schematron) is not shipped: PINT_AE_OFFICIAL_DIR names it, or it is
# found as shared/pint-ae above this package, as the tests find it.
set -euo pipefail

pkg="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "${PINT_AE_OFFICIAL_DIR:-}" ]; then
  dir="$pkg"
  while [ "$dir" != "/" ] && [ ! -f "$dir/shared/pint-ae/validate.mjs" ]; do dir="$(dirname "$dir")"; done
  if [ ! -f "$dir/shared/pint-ae/validate.mjs" ]; then
    echo "test-packed: the official PINT-AE release was not found: set PINT_AE_OFFICIAL_DIR" >&2
    exit 1
  fi
  export PINT_AE_OFFICIAL_DIR="$dir/shared/pint-ae"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/pint-ae-packed.XXXXXX")"
cleanup() { rm -rf "$work"; }
[ -n "${KEEP_PACKED:-}" ] || trap cleanup EXIT
echo "test-packed: working in $work"

# 1. Pack, and look inside.
(cd "$pkg" && npm pack --silent --pack-destination "$work" >"$work/pack.out")
tarball="$work/$(tail -n 1 "$work/pack.out")"
tar -tzf "$tarball" | sort >"$work/contents.txt"
for required in package/package.json package/README.md package/dist/index.js package/dist/index.d.ts \
  package/dist/official/thread.cjs package/dist/rules/index.js; do
  grep -qx "$required" "$work/contents.txt" || { echo "test-packed: $required is missing from the tarball" >&2; exit 1; }
done
if grep -E '^package/(src|test|bench|scripts)/|\.ts$' "$work/contents.txt" | grep -v '\.d\.ts$'; then
  echo "test-packed: the tarball ships source or tests (above)" >&2
  exit 1
fi
echo "test-packed: $(basename "$tarball"), $(wc -l <"$work/contents.txt") files"

# 2. A fresh project that installs the tarball, with this package's devDependencies to run its tests.
consumer="$work/consumer"
mkdir -p "$consumer"
node -e '
  const fs = require("node:fs");
  const [pkgJson, tarball, out] = process.argv.slice(1);
  const pkg = JSON.parse(fs.readFileSync(pkgJson, "utf8"));
  fs.writeFileSync(out, JSON.stringify({
    name: "pint-ae-packed-test",
    private: true,
    dependencies: { [pkg.name]: "file:" + tarball },
    devDependencies: pkg.devDependencies,
  }, null, 2));
' "$pkg/package.json" "$tarball" "$consumer/package.json"
(cd "$consumer" && npm install --prefer-offline --no-audit --no-fund --loglevel=error)

cat >"$consumer/consumer.ts" <<'EOF'
import { EMIRATE_CODES, ISO4217, renderInvoice, sampleInvoice, validateDocument, validatePintAeNative, type Findings } from '@einvoice/pint-ae';

const xml: string = renderInvoice(sampleInvoice(3));
const findings: Findings = validateDocument(xml);
if (findings.fatal.length > 0 || validatePintAeNative(xml).fatal.length > 0) throw new Error('the sample invoice has fatal findings');
if (!ISO4217.has('AED') || !EMIRATE_CODES.includes('DXB')) throw new Error('code lists missing');
console.log(`consumer: rendered ${xml.length} characters, no fatal finding`);
EOF
cat >"$consumer/tsconfig.json" <<'EOF'
{
  "compilerOptions": { "target": "ES2022", "module": "commonjs", "moduleResolution": "node", "strict": true, "esModuleInterop": true, "types": ["node", "mocha"], "noEmit": true },
  "files": ["consumer.ts"]
}
EOF
(cd "$consumer" && npx tsc -p tsconfig.json && npx tsx consumer.ts)

# 3. The package's tests against the installed copy.
cp -R "$pkg/test" "$pkg/bench" "$pkg/.mocharc.json" "$consumer/"
rm "$consumer/test/module-graph.test.ts"
ln -s node_modules/@einvoice/pint-ae/dist "$consumer/src"
(cd "$consumer" && npx mocha)

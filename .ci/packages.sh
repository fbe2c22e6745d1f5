#!/usr/bin/env bash
# Builds every public package (tsdown: ESM + bundled .d.ts), packs each with `pnpm pack` (which
# applies `publishConfig` and turns `workspace:^` into `^<version>`) into the folder given as $1,
# and lints each tarball as published: publint --strict and Are the Types Wrong (ESM-only profile:
# the packages ship no CommonJS on purpose, so node10/CJS resolution is not checked).
set -euo pipefail
cd "$(dirname "$0")/.."
PACK_DIR="${1:?usage: bash .ci/packages.sh <folder for the tarballs>}"
mkdir -p "$PACK_DIR"
PACK_DIR="$(cd "$PACK_DIR" && pwd)"

PUBLIC_PACKAGES=(packages/core packages/store packages/agent packages/client packages/react packages/ai-sdk packages/sync devtools)
PUBLIC_NAMES=(core store agent client react ai-sdk sync devtools)

PNPM_VERSION=10.34.9
if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$PNPM_VERSION" ]; then
  PNPM=(pnpm)
else
  PNPM=(npx -y "pnpm@$PNPM_VERSION")
fi

seconds() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f s", b - a }'; }

start=$(seconds)
if ! npm run --silent build >"$PACK_DIR/build.log" 2>&1; then
  cat "$PACK_DIR/build.log"
  echo "[threadlens] the package build failed" >&2
  exit 1
fi
for dir in "${PUBLIC_PACKAGES[@]}"; do
  [ -f "$dir/dist/index.js" ] && [ -f "$dir/dist/index.d.ts" ] || { echo "[threadlens] build did not produce $dir/dist/index.{js,d.ts}" >&2; exit 1; }
done
# The tokenizer ranks (~1 MB gzip) must stay behind a dynamic import() in the built core.
if grep -rqE '(from|import) *"gpt-tokenizer/encoding' packages/core/dist --include=*.js; then
  echo "[threadlens] packages/core/dist imports a gpt-tokenizer encoding statically: it must stay lazy" >&2; exit 1
fi
grep -rqE 'import\("gpt-tokenizer/encoding/o200k_base"\)' packages/core/dist --include=*.js || {
  echo "[threadlens] packages/core/dist has no dynamic import() of the o200k_base encoding" >&2; exit 1; }
# Dexie (~32 KB gzip) must stay behind the dynamic import() in openThreadlensDB: no static import
# reachable from the store's main entry (or /attachments) may name it.
node --input-type=module -e '
  import { readFileSync } from "node:fs"
  import { dirname, resolve } from "node:path"
  for (const entry of ["index.js", "attachments.js"]) {
    const seen = new Set()
    const pending = [resolve("packages/store/dist", entry)]
    while (pending.length > 0) {
      const file = pending.pop()
      if (seen.has(file)) continue
      seen.add(file)
      for (const match of readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\s[^"]*?from\s*"([^"]+)"|^\s*import\s*"([^"]+)"/gm)) {
        const specifier = match[1] ?? match[2]
        if (/^dexie($|\/)/.test(specifier)) { console.error(`[threadlens] ${file} imports dexie statically, reached from @threadlens/store dist/${entry}: it must load on first open`); process.exit(1) }
        if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier))
      }
    }
  }'
grep -qE 'import\("\./threadlens-db\.js"\)' packages/store/dist/backends/indexeddb/open-database.js || {
  echo "[threadlens] packages/store/dist has no dynamic import() of the database module" >&2; exit 1; }
echo "built ${#PUBLIC_PACKAGES[@]} packages in $(took "$start"); the tokenizer and Dexie stay dynamic import()s"

start=$(seconds)
rm -f "$PACK_DIR"/*.tgz
FILTERS=()
for name in "${PUBLIC_NAMES[@]}"; do FILTERS+=(--filter "@threadlens/$name"); done
"${PNPM[@]}" -r "${FILTERS[@]}" pack --pack-destination "$PACK_DIR" 2>&1 | grep -E '\.tgz$' | sed 's/^/packed /'
[ "$(ls "$PACK_DIR"/*.tgz | wc -l)" = "${#PUBLIC_NAMES[@]}" ] || { echo "[threadlens] expected ${#PUBLIC_NAMES[@]} tarballs in $PACK_DIR" >&2; exit 1; }
echo "packed in $(took "$start")"

start=$(seconds)
for tarball in "$PACK_DIR"/*.tgz; do
  node_modules/.bin/publint run --strict "$tarball" | grep -v -E '^(Running|Unpacking|Linting)' | sed "s/^/publint: $(basename "$tarball"): /"
  node_modules/.bin/attw --profile esm-only --format table-flipped "$tarball" >"$PACK_DIR/attw.log" 2>&1 || {
    cat "$PACK_DIR/attw.log"
    echo "[threadlens] Are the Types Wrong found problems in $(basename "$tarball")" >&2
    exit 1
  }
  echo "attw: $(basename "$tarball"): no problems"
done
echo "linted in $(took "$start")"

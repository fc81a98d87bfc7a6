#!/usr/bin/env bash
# The other Node versions users run (issue 12 item 16): `.ci/run` runs the whole test command on the machine's Node,
# then this script fetches each version in NODE_MATRIX_VERSIONS (default "22 24") from the npm registry (the `node`
# package ships the binary) into a cache folder and, on each:
#   1. `npm ci --dry-run` of package.json + package-lock.json must print no EBADENGINE warning;
#   2. `npm run conformance` (against the embedded reference; --allow-uncovered: requirements without a check are
#      reported by the main run, not a property of the Node version);
#   3. the generator tests (generators/ and the generate-* tests, including the drift check of generated/).
# node_modules is the one installed by the main run: nothing in it is built for one Node version.
# Settings: NODE_MATRIX_VERSIONS, NODE_MATRIX_CACHE (default .cache/node-matrix, reused between runs).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
cache="${NODE_MATRIX_CACHE:-$root/.cache/node-matrix}"
versions="${NODE_MATRIX_VERSIONS:-22 24}"
generator_tests=(generators tests/generate-cli.test.ts tests/generate-cache.test.ts tests/generators-fixtures.test.ts tests/generated-drift.test.ts)

# Installs node@<major> under the cache once; prints the folder holding its `node`.
fetch_node() {
  local major="$1" prefix="$cache/node$major"
  if [ ! -x "$prefix/node_modules/.bin/node" ]; then
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock "node@$major" >&2
  fi
  echo "$prefix/node_modules/.bin"
}

# `npm ci --dry-run` resolves the lock and checks every engine without writing node_modules.
check_engines() {
  local scratch
  scratch="$(mktemp -d)"
  cp package.json package-lock.json "$scratch/"
  local output
  output="$(cd "$scratch" && npm ci --dry-run --ignore-scripts --no-audit --no-fund 2>&1)" || {
    echo "$output"
    rm -rf "$scratch"
    return 1
  }
  rm -rf "$scratch"
  if grep -q EBADENGINE <<<"$output"; then
    echo "$output" | grep -A4 EBADENGINE
    return 1
  fi
}

failed=()
for major in $versions; do
  bin="$(fetch_node "$major")"
  export PATH="$bin:$PATH"
  echo "== Node $(node --version) (npm $(npm --version))"
  check_engines || failed+=("node $major: npm ci warns EBADENGINE")
  npm run conformance -- --allow-uncovered --report-dir ".tmp/conformance-node$major" ||
    failed+=("node $major: npm run conformance")
  # The generator tests type-check generated code (tens of seconds each); they judge output, not speed, and timed
  # out at the config's 60 s on the shared 2-core machine, so here each may take 5 minutes.
  npx vitest run --testTimeout=300000 "${generator_tests[@]}" || failed+=("node $major: generator tests")
  PATH="${PATH#"$bin:"}"
done

if [ "${#failed[@]}" -gt 0 ]; then
  printf 'ci-node-matrix: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "ci-node-matrix: conformance, generator tests and npm ci engines pass on Node $versions"

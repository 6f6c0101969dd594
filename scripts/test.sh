#!/usr/bin/env bash
# Runs the test suites in ONE node --test invocation, so one closing summary counts them all.
# Database tests run on SQLite, and also on PostgreSQL when TEST_DATABASE_URL is set or a
# server answers on 127.0.0.1:5432. Browser tests run when /usr/bin/chromium exists.
set -euo pipefail
shopt -s globstar nullglob
cd "$(dirname "$0")/.."

suite="${1:-all}"
files=()
case "$suite" in
  unit) files=(test/unit/**/*.test.ts) ;;
  db) files=(test/db/**/*.test.ts) ;;
  http) files=(test/http/**/*.test.ts) ;;
  sdk) files=(test/sdk/**/*.test.ts) ;;
  e2e) files=(test/e2e/**/*.e2e.ts) ;;
  all) files=(test/unit/**/*.test.ts test/db/**/*.test.ts test/http/**/*.test.ts test/sdk/**/*.test.ts test/e2e/**/*.e2e.ts) ;;
  *) echo "unknown suite: $suite (unit, db, http, sdk, e2e, all)" >&2; exit 2 ;;
esac
if [ "${#files[@]}" -eq 0 ]; then
  echo "no test files for suite $suite" >&2
  exit 1
fi

if [ -z "${TEST_DATABASE_URL:-}" ] && command -v pg_isready >/dev/null 2>&1 \
  && pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres"
fi
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "database tests: SQLite and PostgreSQL (${TEST_DATABASE_URL%%@*}@…)"
else
  echo "database tests: SQLite only (no PostgreSQL found; set TEST_DATABASE_URL to add it)"
fi

# The process tests run what production runs (dist/), and the client package's tests use its
# build (packages/sdk/dist/): built once here, not once per test file.
node scripts/build.mjs --quiet
export COBRO_DIST_BUILT=1

# TAP for the whole run, then a closing list of the failed tests (scripts/test-failures-reporter.mjs).
# --test-timeout bounds each test, suite and test file (a file that exceeds it is stopped and
# reported by name; browser tests have tighter bounds of their own, test/e2e/support/browser.ts);
# --test-force-exit ends a file's process once its tests are done, even if a handle stays open.
exec node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-2}" --test-timeout=600000 --test-force-exit \
  --test-reporter=tap --test-reporter-destination=stdout \
  --test-reporter=./scripts/test-failures-reporter.mjs --test-reporter-destination=stdout \
  "${files[@]}"

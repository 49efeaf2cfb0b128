#!/usr/bin/env bash
# Every test stage, in order (what `npm test` and CI run):
#   1. unit and integration suite on PGlite          npx vitest run
#   2. the server suite again on a throwaway PostgreSQL 15, on Node 24 LTS (the registry's `node`
#      package, NODE_LTS below) while stage 1 ran on the machine's Node
#   3. build the web app                             npm run build -w web
#   4. the production topology on that PostgreSQL: two web processes and a worker of the built
#      server behind a sticky balancer, killed and restarted (server/topology/, Node 24 LTS)
#   5. end-to-end tests in Chromium                  npx playwright test -c e2e/playwright.config.ts
# Every stage runs even when an earlier one failed (e2e needs the build); the exit code is
# non-zero when any stage failed. The last line sums the tests of all stages:
# "Summary: N passed, N failed, N skipped" (a stage that failed without a failing test,
# such as a broken build, counts as one failure).
#
# As root it installs what is missing from Debian's packages (chromium, postgresql-15, pandoc:
# the oracle of the ODT and RTF readers, conversion/pandoc-oracle.test.ts).
# Environment: SKIP_E2E=1 or SKIP_POSTGRES=1 leave out those stages (local use only).
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# Plain logs when not on a terminal (CI), so vitest's "Tests  N passed" lines read cleanly.
if [ ! -t 1 ] && [ -z "${FORCE_COLOR:-}" ]; then export NO_COLOR=1; fi

CHROMIUM=/usr/bin/chromium
PG_VERSION=15
# The Node of stage 2 (npm's `node` package: a Node binary from the registry); stage 1 runs on
# the machine's. SKIP_NODE_LTS=1 runs stage 2 on the machine's Node too.
NODE_LTS=24.21.0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/margins-test.XXXXXX")
PG_DIR=""
PG_BIN=""
PG_LABEL=""

declare -a STAGE_LINES=()
PASSED=0
FAILED=0
SKIPPED=0
ANY_FAILED=0
APT_UPDATED=0

# Stops the throwaway PostgreSQL (if it runs) and removes its folder.
stop_postgres() {
  if [ -n "$PG_DIR" ] && [ -d "$PG_DIR" ]; then
    if [ -f "$PG_DIR/data/postmaster.pid" ]; then
      as_postgres "$PG_BIN/pg_ctl" stop -D "$PG_DIR/data" -m "${1:-immediate}" -w >/dev/null 2>&1 ||
        true
    fi
    rm -rf "$PG_DIR"
  fi
  PG_DIR=""
}

# shellcheck disable=SC2317  # called by the trap
cleanup() {
  stop_postgres immediate
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

header() {
  echo
  echo "=================================================================="
  echo "== $*"
  echo "=================================================================="
}

elapsed() {
  local seconds=$1
  printf '%dm%02ds' $((seconds / 60)) $((seconds % 60))
}

is_root() { [ "$(id -u)" = 0 ]; }

# Runs a command as the postgres user when we are root (PostgreSQL refuses to run as root).
as_postgres() {
  if is_root; then
    (cd "$PG_DIR" && runuser -u postgres -- "$@")
  else
    (cd "$PG_DIR" && "$@")
  fi
}

# apt-get install, quietly; prints the log's end and returns non-zero when it fails.
apt_install() {
  local log="$WORK/apt.log"
  if [ "$APT_UPDATED" = 0 ]; then
    if ! DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1; then
      tail -n 20 "$log"
      return 1
    fi
    APT_UPDATED=1
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" \
    >"$log" 2>&1; then
    tail -n 20 "$log"
    return 1
  fi
}

# Adds a stage's result to the totals: stage_done NAME STATUS SECONDS [JSON_COUNTS]
# JSON_COUNTS is "passed failed skipped" read from the runner's JSON report, when it has one.
stage_done() {
  local name=$1 status=$2 seconds=$3 counts=${4:-}
  local passed=0 failed=0 skipped=0
  if [ -n "$counts" ]; then read -r passed failed skipped <<<"$counts"; fi
  if [ "$status" != 0 ] && [ "$status" != skip ] && [ "$failed" = 0 ]; then failed=1; fi
  PASSED=$((PASSED + passed))
  FAILED=$((FAILED + failed))
  SKIPPED=$((SKIPPED + skipped))
  local word
  case $status in
    0) word=ok ;;
    skip) word=skipped ;;
    *)
      word="FAILED (exit $status)"
      ANY_FAILED=1
      ;;
  esac
  local detail=""
  if [ -n "$counts" ]; then detail=" — $passed passed, $failed failed, $skipped skipped"; fi
  STAGE_LINES+=("$(printf '%-50s %-16s %s%s' "$name" "$word" "$(elapsed "$seconds")" "$detail")")
}

# Counts from a vitest JSON report: "passed failed skipped".
vitest_counts() {
  [ -f "$1" ] || return 0
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    // A file that fails to load has no failed test: count it as one failure.
    const broken = r.testResults.filter((f) => f.status === "failed" && !f.assertionResults.length);
    console.log(r.numPassedTests, r.numFailedTests + broken.length, r.numPendingTests + r.numTodoTests);
  ' "$1" 2>/dev/null || true
}

# Counts from a Playwright JSON report: "passed failed skipped" (flaky = passed on retry).
playwright_counts() {
  [ -f "$1" ] || return 0
  node -e '
    const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).stats;
    console.log(s.expected + s.flaky, s.unexpected, s.skipped);
  ' "$1" 2>/dev/null || true
}

# ---------------------------------------------------------------------------------------------
header "Stage 0: tools"
echo "node $(node --version), npm $(npm --version 2>/dev/null)"
CHROMIUM_OK=1
if [ -x "$CHROMIUM" ]; then
  echo "chromium: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
elif is_root; then
  echo "chromium: not installed; installing Debian's chromium (apt-get install chromium) ..."
  if apt_install chromium && [ -x "$CHROMIUM" ]; then
    echo "chromium: $("$CHROMIUM" --version 2>/dev/null)"
  else
    echo "ERROR: could not install chromium with apt-get; the end-to-end stage cannot run." >&2
    CHROMIUM_OK=0
  fi
else
  echo "ERROR: $CHROMIUM is missing and we are not root: install it with" \
    "'sudo apt-get install chromium'." >&2
  CHROMIUM_OK=0
fi

# pandoc is the oracle of our ODT and RTF readers; without it that test is skipped, saying so.
if command -v pandoc >/dev/null 2>&1; then
  echo "pandoc: $(pandoc --version 2>/dev/null | head -n 1)"
elif is_root; then
  echo "pandoc: not installed; installing Debian's pandoc (apt-get install pandoc) ..."
  if apt_install pandoc && command -v pandoc >/dev/null 2>&1; then
    echo "pandoc: $(pandoc --version 2>/dev/null | head -n 1)"
  else
    echo "WARNING: could not install pandoc; the ODT/RTF oracle test will be skipped." >&2
  fi
else
  echo "pandoc: not installed (the ODT/RTF oracle test is skipped); 'sudo apt-get install pandoc'."
fi

# ---------------------------------------------------------------------------------------------
header "Stage 1: unit and integration tests (PGlite) — npx vitest run"
start=$SECONDS
npx vitest run --reporter=default --reporter=json --outputFile.json="$WORK/vitest.json"
status=$?
stage_done "unit + integration (PGlite)" "$status" $((SECONDS - start)) \
  "$(vitest_counts "$WORK/vitest.json")"

# ---------------------------------------------------------------------------------------------
header "Stage 2: server suite on PostgreSQL $PG_VERSION and Node $NODE_LTS — vitest run --project server"
start=$SECONDS
pg_status=0
if [ "${SKIP_POSTGRES:-}" = 1 ]; then
  echo "skipping the PostgreSQL run: SKIP_POSTGRES=1"
  pg_status=skip
else
  if [ -x "/usr/lib/postgresql/$PG_VERSION/bin/pg_ctl" ]; then
    PG_BIN=/usr/lib/postgresql/$PG_VERSION/bin
  elif command -v pg_ctl >/dev/null 2>&1 &&
    [ -x "$(dirname "$(readlink -f "$(command -v pg_ctl)")")/initdb" ]; then
    PG_BIN=$(dirname "$(readlink -f "$(command -v pg_ctl)")")
  elif is_root; then
    echo "PostgreSQL $PG_VERSION is not installed; installing postgresql-$PG_VERSION ..."
    if apt_install "postgresql-$PG_VERSION" && [ -x "/usr/lib/postgresql/$PG_VERSION/bin/pg_ctl" ]; then
      PG_BIN=/usr/lib/postgresql/$PG_VERSION/bin
    else
      echo "ERROR: could not install postgresql-$PG_VERSION with apt-get." >&2
      pg_status=1
    fi
  fi
  if [ "$pg_status" = 0 ] && [ -z "$PG_BIN" ]; then
    echo "skipping the PostgreSQL run: no PostgreSQL $PG_VERSION binaries"
    pg_status=skip
  fi
fi

if [ "$pg_status" = 0 ]; then
  PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/margins-pg.XXXXXX")
  chmod 700 "$PG_DIR"
  if is_root; then chown postgres:postgres "$PG_DIR"; fi
  PG_PORT=$(node -e '
    const s = require("net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });
  ')
  echo "$("$PG_BIN/postgres" --version), data in $PG_DIR, port $PG_PORT"
  PG_LABEL=$("$PG_BIN/postgres" --version | grep -oE '[0-9]+' | head -n 1)
  if ! as_postgres "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 \
    --locale=C --no-sync >"$PG_DIR/initdb.log" 2>&1; then
    cat "$PG_DIR/initdb.log"
    echo "ERROR: initdb failed." >&2
    pg_status=1
  elif ! as_postgres "$PG_BIN/pg_ctl" start -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off \
        -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    >/dev/null; then
    cat "$PG_DIR/server.log"
    echo "ERROR: PostgreSQL did not start." >&2
    pg_status=1
  else
    # Node 24 LTS from the registry, unless it cannot be had (then the machine's, saying so).
    STAGE2_PATH=$PATH
    NODE_LABEL="node $(node --version)"
    if [ "${SKIP_NODE_LTS:-}" != 1 ]; then
      if npm install --prefix "$WORK/node-lts" --no-save --no-audit --no-fund --loglevel=error \
        "node@$NODE_LTS" >"$WORK/node-lts.log" 2>&1 &&
        [ -x "$WORK/node-lts/node_modules/.bin/node" ]; then
        STAGE2_PATH="$WORK/node-lts/node_modules/.bin:$PATH"
        NODE_LABEL="node $(PATH=$STAGE2_PATH node --version)"
      else
        tail -n 20 "$WORK/node-lts.log"
        echo "ERROR: could not install node@$NODE_LTS from the registry." >&2
        pg_status=1
      fi
    fi
    echo "running on $NODE_LABEL"
    if [ "$pg_status" = 0 ]; then
      PATH=$STAGE2_PATH TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres" \
        node node_modules/vitest/vitest.mjs run --project server --reporter=default \
        --reporter=json --outputFile.json="$WORK/vitest-postgres.json"
      pg_status=$?
    fi
  fi
  # The server stays up for the topology stage (4), which stops it.
fi
stage_done "server suite (PostgreSQL ${PG_LABEL:-$PG_VERSION}, ${NODE_LABEL:-node})" "$pg_status" $((SECONDS - start)) \
  "$(vitest_counts "$WORK/vitest-postgres.json")"

# ---------------------------------------------------------------------------------------------
header "Stage 3: build the web app — npm run build -w web"
start=$SECONDS
npm run build -w web
build_status=$?
stage_done "web build" "$build_status" $((SECONDS - start))

# ---------------------------------------------------------------------------------------------
header "Stage 4: the production topology on PostgreSQL — vitest run --project topology"
start=$SECONDS
if [ -z "$PG_DIR" ] || [ ! -f "$PG_DIR/data/postmaster.pid" ]; then
  echo "skipping the topology: no PostgreSQL (see stage 2)"
  topology_status=skip
elif ! node server/scripts/build.mjs; then
  echo "ERROR: the server build failed." >&2
  topology_status=1
else
  PATH=${STAGE2_PATH:-$PATH} TOPOLOGY_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres" \
    node node_modules/vitest/vitest.mjs run --project topology --reporter=default \
    --reporter=json --outputFile.json="$WORK/vitest-topology.json"
  topology_status=$?
fi
stop_postgres fast
stage_done "topology (2 web + worker + balancer, PostgreSQL)" "$topology_status" $((SECONDS - start)) \
  "$(vitest_counts "$WORK/vitest-topology.json")"

# ---------------------------------------------------------------------------------------------
header "Stage 5: end-to-end tests (Chromium) — npx playwright test -c e2e/playwright.config.ts"
start=$SECONDS
if [ "${SKIP_E2E:-}" = 1 ]; then
  echo "skipping the end-to-end tests: SKIP_E2E=1"
  e2e_status=skip
elif [ "$build_status" != 0 ]; then
  echo "ERROR: not running the end-to-end tests: the web build failed." >&2
  e2e_status=1
elif [ "$CHROMIUM_OK" != 1 ]; then
  echo "ERROR: not running the end-to-end tests: no Chromium at $CHROMIUM." >&2
  e2e_status=1
else
  E2E_JSON_REPORT="$WORK/playwright.json" npx playwright test -c e2e/playwright.config.ts
  e2e_status=$?
fi
stage_done "end-to-end (Playwright)" "$e2e_status" $((SECONDS - start)) \
  "$(playwright_counts "$WORK/playwright.json")"

# ---------------------------------------------------------------------------------------------
header "Results"
for line in "${STAGE_LINES[@]}"; do echo "  $line"; done
echo "  total time $(elapsed "$SECONDS") (in $ROOT)"
echo
echo "Summary: $PASSED passed, $FAILED failed, $SKIPPED skipped"
exit "$ANY_FAILED"

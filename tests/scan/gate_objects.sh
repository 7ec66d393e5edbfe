#!/usr/bin/env bash
# gate --objects and verify-table --object (docs/scan.md): the sites of objects compiled here with
# Linux's arm64 CALL_OPS flags are held to the states the gate proves.
# Clean: exit 0. Sites of no state, and sites of a state the gate did
# not prove (no transition out of it), fail with exit 1 and a finding in
# every output format. Usage: gate_objects.sh PATCHCHECK SOURCE_DIR
set -uo pipefail
pc=$1
src=$2
spec=$src/specs/arm64/ftrace-call-ops.toml
bti=$src/specs/arm64/ftrace-call-ops-bti.toml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
cd "$work" || exit 1
command -v aarch64-linux-gnu-gcc >/dev/null || { echo "FAIL: aarch64-linux-gnu-gcc is missing (gcc-aarch64-linux-gnu)"; exit 1; }
aarch64-linux-gnu-gcc -O2 -fno-pic -mgeneral-regs-only -fno-asynchronous-unwind-tables \
  -fpatchable-function-entry=4,2 -falign-functions=8 -c "$src/tests/data/scan/functions.c" -o functions.o

# run NAME EXIT PATTERN -- ARGS: gate's exit code and a line of its output.
run() {
  local name=$1 code=$2 pattern=$3
  shift 4
  "$pc" gate "$@" >out.txt 2>&1
  local rc=$?
  if [ "$rc" = "$code" ] && grep -Eq -- "$pattern" out.txt; then
    echo "ok: $name"
  else
    echo "FAIL: $name (exit $rc, wanted $code; /$pattern/)"
    sed 's/^/    /' out.txt | head -40
    failures=$((failures + 1))
  fi
}

# The spec without its boot transition out of `compiled`: every other
# transition is proven, but nothing shows the compiled sites may be patched.
awk '$0 == "[[transition]]" { held = $0; next }
     held != "" { if ($0 ~ /^from = "compiled"/) skip = 1; else print held; held = "" }
     skip { if ($0 ~ /^expect/) skip = 0; next }
     { print }' "$spec" >no-boot.toml
grep -q 'from = "compiled"' no-boot.toml && echo "FAIL: the boot transition is still in no-boot.toml"

run "clean object" 0 '^gate: PASS' -- "$spec" --objects functions.o
run "the spec alone passes" 0 '^gate: PASS' -- no-boot.toml --trampolines "$src/trampolines"
for f in text json sarif junit ktap; do
  run "no state ($f)" 1 'site is no state of the specs' -- "$bti" --objects functions.o --format $f
  run "unproven state ($f)" 1 'site is state `compiled` of no-boot.toml, which is not proven SAFE \(no transition out' \
    -- no-boot.toml --trampolines "$src/trampolines" --objects functions.o --format $f
done
run "text finding at the function" 1 '^functions.o: warning: patchcheck: helper\+0x4: site is no state' \
  -- "$bti" --objects functions.o
run "json exit code" 1 '"exit_code": 1' -- no-boot.toml --trampolines "$src/trampolines" --objects functions.o --format json
run "sarif result at the object" 1 '"fullyQualifiedName": "helper\+0x4"' -- "$bti" --objects functions.o --format sarif
run "junit failure" 1 '<failure message="[0-9]+ finding\(s\)" type="SITE"' -- "$bti" --objects functions.o --format junit
run "no spec with [scan]" 2 'needs a spec with a \[scan\] table' -- "$src/specs/x86/ftrace.toml" --objects functions.o
head -c 60 functions.o >truncated.o
run "truncated object" 2 '^truncated.o: error: offset 0x' -- "$spec" --objects truncated.o

# verify-table --object: every site is the table's initial state (the
# spec's [scan] compiled state, certified SAFE in the table).
vt() {  # NAME EXIT PATTERN -- ARGS
  local name=$1 code=$2 pattern=$3
  shift 4
  "$pc" verify-table "$@" >out.txt 2>&1
  local rc=$?
  if [ "$rc" = "$code" ] && grep -Eq -- "$pattern" out.txt; then echo "ok: $name"
  else echo "FAIL: $name (exit $rc, wanted $code; /$pattern/)"; sed 's/^/    /' out.txt | head -20; failures=$((failures + 1)); fi
}
mkdir -p tables
"$pc" table "$spec" -o tables >/dev/null && "$pc" table "$bti" -o tables >/dev/null || echo "FAIL: table"
vt "verify-table --object, initial state" 0 '^functions.o: 3 sites, 3 in the table.s initial state `compiled`' -- \
  tables/arm64-ftrace-call-ops.json --spec "$spec" --object functions.o
vt "verify-table --object, sites of no state" 1 'functions.o: helper\+0x4: site is no state' -- \
  tables/arm64-ftrace-call-ops-bti.json --spec "$bti" --object functions.o
vt "verify-table --object, truncated object" 2 '^truncated.o: error: offset 0x' -- \
  tables/arm64-ftrace-call-ops.json --spec "$spec" --object truncated.o

if [ $failures -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all gate --objects checks passed"

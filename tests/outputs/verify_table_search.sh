#!/usr/bin/env bash
# outputs.verify_table_search: verify-table finds the spec a table names as
# users lay files out: a checkout without trampolines/ (the table names the
# spec from the checkout's top), run from the top, from the tables' folder,
# and with the tables written outside the checkout.
# Usage: verify_table_search.sh PATCHCHECK SOURCE_DIR
set -u
pc=$(realpath "$1"); src=$(realpath "$2")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
failed=0
run() {  # run DIR WHAT COMMAND...: exit 0 expected
  local dir=$1 what=$2; shift 2
  (cd "$dir" && "$@") > "$work/out.txt" 2>&1 || { echo "FAIL: $what"; cat "$work/out.txt"; failed=1; }
}
repo=$work/repo
mkdir -p "$repo/specs/mips" "$work/elsewhere"
git -C "$repo" init -q
cp "$src/tests/data/soundness/stale-one-line.toml" "$repo/specs/mips/one-line.toml"
run "$repo" "table from the checkout's top" "$pc" table specs/mips/one-line.toml -o certified
recorded=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["spec"]["path"])' "$repo/certified/one-line.json")
[ "$recorded" = specs/mips/one-line.toml ] || { echo "FAIL: the table names '$recorded', not specs/mips/one-line.toml"; failed=1; }
run "$repo" "verify-table from the top" "$pc" verify-table certified/one-line.json
# docs/ci.md's `verify-table certified/*.json`: several tables in one run.
cp "$src/tests/data/soundness/body-overwritten.toml" "$repo/specs/mips/regression.toml"
sed -i 's/^steps = \[.write 2 = "nop"., .*$/&\nexpect = "unsafe"/' "$repo/specs/mips/regression.toml"
run "$repo" "table of a spec with a regression case" "$pc" table specs/mips/regression.toml -o certified
run "$repo" "verify-table certified/*.json" "$pc" verify-table certified/one-line.json certified/regression.json
run "$repo/certified" "verify-table from the tables' folder" "$pc" verify-table one-line.json
run "$repo" "table written outside the checkout" "$pc" table specs/mips/one-line.toml -o "$work/elsewhere"
run "$repo" "verify-table of a table outside, from the top" "$pc" verify-table "$work/elsewhere/one-line.json"
run "$repo/specs" "verify-table of a table outside, from below the top" "$pc" verify-table "$work/elsewhere/one-line.json"
# Found nowhere: exit 2 with the path it looked for.
(cd "$work" && "$pc" verify-table elsewhere/one-line.json) > "$work/out.txt" 2>&1
[ $? = 2 ] && grep -q "cannot find the spec 'specs/mips/one-line.toml'" "$work/out.txt" ||
  { echo "FAIL: a spec found nowhere is not exit 2 with its path"; cat "$work/out.txt"; failed=1; }
exit $failed

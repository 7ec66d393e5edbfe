#!/usr/bin/env bash
# outputs.reports: every report format is a whole, valid document on exit
# 0, 1 and 2, one run writes several, and a gate over a bad and a good spec
# carries both. Usage: reports.sh PATCHCHECK SOURCE_DIR
set -u
pc=$(realpath "$1"); src=$(realpath "$2")
v="python3 $src/tests/outputs/validate_reports.py"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cp "$src/tests/data/soundness/stale-one-line.toml" good.toml
cp "$src/tests/data/soundness/body-overwritten.toml" unsafe.toml
printf 'schema = 1\n[target]\nisa = "mips32r2"\n[site]\nfunction = "F"\nwords = 2\n[states]\na = ["nop", "nop"]\n[behaviour]\na = "untraced"\n[[transition]]\nfrom = "a"\nto = "nowhere"\nsteps = ["write 1"]\n' > bad.toml
failed=0
expect() {  # expect CODE WHAT COMMAND...
  local want=$1 what=$2; shift 2
  "$@" > out.txt 2> err.txt; local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what: exit $got, expected $want"; cat err.txt; failed=1; return 1
  fi
}
valid() {  # valid WHAT KIND FILE ARGS...
  local what=$1; shift
  $v "$@" || { echo "FAIL: $what: $2 is not valid ($1)"; failed=1; }
}

for case in "0 good.toml" "1 unsafe.toml" "2 bad.toml" "2 bad.toml unsafe.toml"; do
  set -- $case; code=$1; shift
  err=; [ "$code" = 2 ] && err=--errors
  rm -f r.sarif r.xml r.json
  expect "$code" "gate $*" "$pc" gate --sarif r.sarif --junit r.xml --json r.json "$@" || continue
  valid "gate $*" sarif r.sarif $err
  valid "gate $*" junit r.xml $err
  valid "gate $*" json r.json $err --exit-code "$code"
  for f in sarif junit json ktap; do
    expect "$code" "gate --format $f $*" "$pc" gate --format "$f" "$@" || continue
    case $f in junit) valid "stdout $f $*" junit out.txt $err;;
               ktap) valid "stdout $f $*" ktap out.txt;;
               json) valid "stdout $f $*" json out.txt $err --exit-code "$code";;
               *) valid "stdout $f $*" sarif out.txt $err;; esac
  done
  expect "$code" "check --json $*" "$pc" check --json "$@" && valid "check --json $*" json out.txt $err --exit-code "$code"
done

# One bad spec and one with a finding: both in the one report, exit 2.
expect 2 "gate bad+unsafe" "$pc" gate --sarif both.sarif --json both.json bad.toml unsafe.toml
valid "bad+unsafe" sarif both.sarif --errors --results 2
python3 - both.sarif both.json <<'PY' || failed=1
import json, sys
s = json.load(open(sys.argv[1]))
run = s["runs"][0]
rules = sorted({r["ruleId"] for r in run["results"]})
assert rules == ["input-error", "unsafe-transition"], rules
n = run["invocations"][0]["toolExecutionNotifications"][0]
loc = n["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"] == "bad.toml", loc
assert loc["region"]["startLine"] == 13 and loc["region"].get("startColumn", 0) >= 1, loc
# The unsafe result sits on the steps line that decides it, with its trace.
res = [r for r in run["results"] if r["ruleId"] == "unsafe-transition"][0]
steps = 1 + [i for i, l in enumerate(open("unsafe.toml")) if l.startswith("steps")][0]
assert res["locations"][0]["physicalLocation"]["region"]["startLine"] == steps, res["locations"]
assert len(res["codeFlows"][0]["threadFlows"][0]["locations"]) >= 1
assert all(r.get("help", {}).get("text") for r in run["tool"]["driver"]["rules"])
j = json.load(open(sys.argv[2]))
assert j["format_version"] == 1
assert [r["spec"] for r in j["results"]] and j["errors"][0]["file"] == "bad.toml", j["errors"]
PY
# KTAP: an expected-UNSAFE regression case is ok, an UNKNOWN is not ok
# (never a skip) with its reason, bad input is not ok; --kselftest-exit
# maps 0 to KSFT_PASS (0) and every other code to KSFT_FAIL (1).
cp "$src/tests/data/soundness/unknown-expect-safe.toml" unknown.toml
cp "$src/tests/data/outputs/no-safe-order.toml" regress.toml
expect 2 "ktap" "$pc" gate --ktap all.ktap regress.toml unsafe.toml bad.toml
valid "ktap" ktap all.ktap
grep -q '^ok [0-9]* no-safe-order \[.*\] plain->framed$' all.ktap || { echo "FAIL: ktap: the regression case is not ok"; failed=1; }
grep -q '^not ok [0-9]* unsafe \[.*\] a->b$' all.ktap || { echo "FAIL: ktap: UNSAFE is not 'not ok'"; failed=1; }
grep -q '^not ok [0-9]* bad.toml input$' all.ktap || { echo "FAIL: ktap: bad input is not 'not ok'"; failed=1; }
expect 3 "ktap unknown" "$pc" gate --ktap unknown.ktap unknown.toml --max-executions 1
valid "ktap unknown" ktap unknown.ktap
grep -q '^not ok [0-9]* unknown \[.*\] off->on$' unknown.ktap || { echo "FAIL: ktap: UNKNOWN is not 'not ok'"; failed=1; }
grep -q '^# UNKNOWN: ' unknown.ktap || { echo "FAIL: ktap: UNKNOWN without its reason"; failed=1; }
grep -q 'SKIP' all.ktap unknown.ktap && { echo "FAIL: ktap: a SKIP where nothing was skipped"; failed=1; }
for c in "0 good.toml" "1 unknown.toml --max-executions 1" "1 unsafe.toml bad.toml" "0 regress.toml"; do
  set -- $c; want=$1; shift
  expect "$want" "--kselftest-exit $*" "$pc" gate --kselftest-exit --format ktap "$@"
done

# One bad spec and one good one: the good one's results and the bad one's
# error in every report, exit 2.
expect 2 "gate bad+good" "$pc" gate --sarif bg.sarif --junit bg.xml --json bg.json bad.toml good.toml
valid "bad+good" sarif bg.sarif --errors
python3 - bg.xml bg.json <<'PY' || failed=1
import json, sys, xml.etree.ElementTree as ET
suites = ET.parse(sys.argv[1]).getroot().findall("testsuite")
cases = [c for s in suites for c in s.findall("testcase")]
assert any(c.get("classname", "").startswith("good.") and c.get("name") == "off->on" and not list(c) for c in cases), "no passing good case"
assert any(c.get("classname") == "bad.toml" and c.find("error") is not None for c in cases), "no error case for bad.toml"
j = json.load(open(sys.argv[2]))
assert [r["spec"] for r in j["results"]] == ["good"] and j["errors"][0]["file"] == "bad.toml" and j["exit_code"] == 2, j
PY

# --no-times: two runs write the same bytes in every format.
for n in 1 2; do
  expect 2 "--no-times run $n" "$pc" gate --no-times --sarif t$n.sarif --junit t$n.xml --json t$n.json \
    good.toml unsafe.toml bad.toml
  "$pc" check --json --no-times good.toml unsafe.toml > c$n.json
done
for f in t1.sarif t1.xml t1.json c1.json; do
  cmp -s "$f" "${f/1/2}" || { echo "FAIL: --no-times: $f and ${f/1/2} differ"; failed=1; }
done
grep -q '"seconds"' t1.json c1.json && { echo "FAIL: --no-times left seconds in the JSON"; failed=1; }
grep -q ' time=' t1.xml && { echo "FAIL: --no-times left time= in the JUnit"; failed=1; }

# A report file that cannot be written: exit 2, the others still written.
expect 2 "unwritable" "$pc" gate --json nodir/r.json --junit ok.xml good.toml && valid "unwritable" junit ok.xml
exit $failed

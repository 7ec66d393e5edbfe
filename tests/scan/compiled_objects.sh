#!/usr/bin/env bash
# `patchcheck scan` on real compiler output (docs/scan.md, docs/testing.md):
# C sources compiled here with the flags Linux builds ftrace with, by the
# installed cross compilers; clean objects must give 0 findings, each
# seeded defect its finding. Usage: compiled_objects.sh PATCHCHECK SOURCE_DIR
set -uo pipefail
pc=$1
src=$2
data=$src/tests/data/scan
specs=$src/specs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

need() {  # compiler, Debian package
  if ! command -v "$1" >/dev/null; then
    echo "FAIL: $1 is missing: install the Debian package $2 (scripts/install-deps)"
    exit 1
  fi
}
need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
need mips-linux-gnu-gcc gcc-mips-linux-gnu
need gcc gcc

# The flags of Linux's Makefiles that shape the sites: arch/arm64/Makefile
# (CALL_OPS: -fpatchable-function-entry=4,2, 8-byte function alignment,
# BTI), arch/x86/Makefile and scripts/Makefile.lib (-pg -mfentry
# -mrecord-mcount, -mcmodel=kernel), arch/mips/Makefile (-pg, -mno-abicalls,
# -G 0; modules -mlong-calls).
arm64() { aarch64-linux-gnu-gcc -O2 -fno-pic -mgeneral-regs-only -fno-asynchronous-unwind-tables \
  -fpatchable-function-entry=4,2 -falign-functions=8 "$@"; }
x86() { gcc -O2 -fno-pic -mcmodel=kernel -mno-red-zone -fno-asynchronous-unwind-tables \
  -pg -mfentry -mrecord-mcount "$@"; }
mips() { mips-linux-gnu-gcc -O2 -fno-pic -mno-abicalls -G 0 -march=mips32r2 -mabi=32 -pg "$@"; }

# expect NAME EXIT PATTERN... -- ARGS: runs scan, checks its exit code and
# that each PATTERN (extended regex) is in its output.
expect() {
  local name=$1 code=$2
  shift 2
  local patterns=()
  while [ "$1" != "--" ]; do patterns+=("$1"); shift; done
  shift
  local out rc
  out=$("$pc" scan "$@" 2>&1)
  rc=$?
  local ok=1
  [ "$rc" = "$code" ] || ok=0
  for p in "${patterns[@]}"; do grep -Eq -- "$p" <<<"$out" || ok=0; done
  if [ $ok = 1 ]; then
    echo "ok: $name"
  else
    echo "FAIL: $name (exit $rc, wanted $code)"
    echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}

cd "$work" || exit 1

# ---- clean objects: every site an instance of the compiled state
arm64 -c "$data/functions.c" -o arm64.o
expect "arm64 CALL_OPS" 0 "3 sites, all instances of state \`compiled\` of .*ftrace-call-ops.toml; 0 findings" -- \
  arm64.o --spec "$specs/arm64/ftrace-call-ops.toml"
arm64 -mbranch-protection=bti -c "$data/functions.c" -o arm64-bti.o
# GCC gives BTI C only to functions that may be called indirectly: the
# static helper has none, so a BTI kernel has both layouts.
expect "arm64 CALL_OPS with BTI" 0 "3 sites, all instances: 2 of state \`compiled\` of .*ftrace-call-ops-bti.toml, 1 of state \`compiled\` of .*ftrace-call-ops.toml; 0 findings" -- \
  arm64-bti.o --spec "$specs/arm64/ftrace-call-ops.toml" --spec "$specs/arm64/ftrace-call-ops-bti.toml"
x86 -c "$data/functions.c" -o x86.o
expect "x86-64 fentry" 0 "3 sites, all instances of state \`fentry\` of .*ftrace-fentry.toml; 0 findings" -- \
  x86.o --spec "$specs/x86/ftrace-fentry.toml"
mips -c "$data/functions.c" -o mips.o
expect "MIPS kernel -pg" 0 "3 sites, all instances of state \`compiled\` of .*mcount-kernel.toml; 0 findings" -- \
  mips.o --spec "$specs/mips/mcount-kernel.toml" --spec "$specs/mips/mcount-module.toml"
mips -mlong-calls -c "$data/functions.c" -o mips-module.o
expect "MIPS module -pg -mlong-calls" 0 "3 sites, all instances of state \`compiled\` of .*mcount-module.toml; 0 findings" -- \
  mips-module.o --spec "$specs/mips/mcount-kernel.toml" --spec "$specs/mips/mcount-module.toml"
expect "JSON" 0 '"state": "compiled"' '"summary"' -- arm64.o --spec "$specs/arm64/ftrace-call-ops.toml" --json

# ---- seeded defects
# A zeroed entry (the sorttable class): the entry of `leaf` holds 0.
arm64 -S "$data/functions.c" -o zeroed.s
# .LPFE2 is the entry of the second function GCC emits, `leaf`.
grep -A4 '^\.LPFE2:' zeroed.s | grep -q '^leaf:' || echo "note: GCC's layout changed; .LPFE2 is not leaf's entry"
sed 's/\.8byte\t\.LPFE2$/.8byte\t0/' zeroed.s > zeroed-edited.s
arm64 -c zeroed-edited.s -o zeroed.o
expect "zeroed entry" 1 "warning: patchcheck: __patchable_function_entries\[1\]: entry is zero" \
  "leaf\+0x0: entry is state \`compiled\` .* but no table entry records it" -- \
  zeroed.o --spec "$specs/arm64/ftrace-call-ops.toml"
# Every entry gone (the table emptied): 0 entries while functions are patchable.
sed 's/\.8byte\t\.LPFE[0-9]*/.8byte 0/' zeroed.s > all-zero.s
arm64 -c all-zero.s -o all-zero.o
expect "all entries zeroed" 1 "0 usable entries in .* but 3 functions are compiled for patching" -- \
  all-zero.o --spec "$specs/arm64/ftrace-call-ops.toml"
# GCC bug 88345: the cold function's literal slot only 4-byte aligned.
arm64 -c "$data/cold.c" -o cold.o
expect "cold function literal misaligned" 1 \
  "rarely\+0x4: the 8-byte data unit at .* is only 4-byte aligned" -- cold.o --spec "$specs/arm64/ftrace-call-ops.toml"
# A branch into another function's patch area.
arm64 -c "$data/branch.c" -o branch.o
expect "branch into a patch area" 1 "jumper\+0x[0-9a-f]+: branch to target\+0x4, strictly inside the patched code" -- \
  branch.o --spec "$specs/arm64/ftrace-call-ops.toml"
# Nops that differ from the spec: GCC's -mnop-mcount writes the 5-byte NOP
# where the spec's compiled state is `call __fentry__`.
x86 -mnop-mcount -c "$data/functions.c" -o x86-nop.o
expect "x86 nops instead of the compiled call" 1 "site is state \`nop\` of .*ftrace-fentry.toml, not the compiled state \`fentry\`" -- \
  x86-nop.o --spec "$specs/x86/ftrace-fentry.toml"
# Sites that match no state: a non-BTI object against the BTI spec, listed.
expect "no state: listed, disassembled" 1 "site is no state of the specs" "nop" -- \
  arm64.o --spec "$specs/arm64/ftrace-call-ops-bti.toml"
# An entry into .exit.text.
arm64 -c "$data/exit.c" -o exit.o
expect "entry into .exit.text" 1 "teardown\+0x4: site in \.exit\.text" -- exit.o --spec "$specs/arm64/ftrace-call-ops.toml"

# ---- a linked image: the tables between __start_mcount_loc and
# __stop_mcount_loc as include/asm-generic/vmlinux.lds.h places them.
need aarch64-linux-gnu-ld binutils-aarch64-linux-gnu
cat > vmlinux.lds <<'LDS'
SECTIONS {
  . = 0xffff800008000000;
  .text : { *(.text .text.*) }
  . = ALIGN(8);
  .init.data : {
    __start_mcount_loc = .;
    KEEP(*(__mcount_loc))
    KEEP(*(__patchable_function_entries))
    __stop_mcount_loc = .;
  }
  .data : { *(.data .bss COMMON) }
}
LDS
aarch64-linux-gnu-ld -T vmlinux.lds -e 0 --no-warn-rwx-segments arm64.o -o vmlinux
expect "linked image" 0 "3 sites, all instances of state \`compiled\` of .*ftrace-call-ops.toml; 0 findings" -- \
  vmlinux --spec "$specs/arm64/ftrace-call-ops.toml"
# The sorttable class: the image's second entry zeroed after linking.
table=$(aarch64-linux-gnu-readelf -SW vmlinux | sed 's/^ *\[ *[0-9]*\] *//' | awk '$1 == ".init.data" { print $4 }')
printf '\0\0\0\0\0\0\0\0' | dd of=vmlinux bs=1 seek=$((0x$table + 8)) conv=notrunc status=none
expect "linked image, zeroed entry" 1 "__mcount_loc\[1\]: entry is zero" "but no table entry records it" -- \
  vmlinux --spec "$specs/arm64/ftrace-call-ops.toml"

# The check for functions compiled for patching but recorded nowhere
# compares the whole patched range, not its first unit: `partial` differs
# from the compiled state in its second instruction only.
aarch64-linux-gnu-as -o partial-entry.o "$data/partial-entry.s"
expect "compiled for patching: the whole range" 1 "full\+0x0: entry is state .compiled. .* no table entry records it" \
  "but 1 functions are compiled for patching" -- partial-entry.o --spec "$specs/arm64/ftrace-call-ops.toml"
if "$pc" scan partial-entry.o --spec "$specs/arm64/ftrace-call-ops.toml" 2>&1 | grep -q 'partial+0x0'; then
  echo "FAIL: partial's entry taken for the compiled state"; failures=$((failures + 1))
else echo "ok: a partial match is not the compiled state"; fi

# ---- SARIF 2.1.0 (--format sarif): a result per finding, at the object
# file, the function+offset as a logical location, the file offset as
# region.byteOffset pointing at the instruction the finding names.
sarif_check() {  # OBJ...: the SARIF document against the JSON one
  "$pc" scan "$@" --spec "$specs/arm64/ftrace-call-ops.toml" --format sarif >scan.sarif
  local rs=$?
  "$pc" scan "$@" --spec "$specs/arm64/ftrace-call-ops.toml" --json >scan.json
  python3 - scan.sarif scan.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); j = json.load(open(sys.argv[2]))
assert s["version"] == "2.1.0" and "sarif" in s["$schema"], "version/$schema"
assert len(s["runs"]) == 1 and s["runs"][0]["tool"]["driver"]["name"] == "patchcheck", "runs/tool"
rules = {r["id"] for r in s["runs"][0]["tool"]["driver"]["rules"]}
results = s["runs"][0]["results"]
findings = [(o["file"], f) for o in j["objects"] for f in o["findings"]]
assert len(results) == len(findings), f"{len(results)} results for {len(findings)} findings"
for r, (file, f) in zip(results, findings):
    assert r["ruleId"] in rules and r["level"] in ("error", "note"), r
    assert r["message"]["text"] == f["where"] + ": " + f["message"], r["message"]
    loc = r["locations"][0]
    assert loc["physicalLocation"]["artifactLocation"]["uri"] == file, loc
    assert loc["logicalLocations"][0]["fullyQualifiedName"] == f["where"], loc
    off = loc["physicalLocation"]["region"]["byteOffset"]
    assert isinstance(off, int) and 0 < off < len(open(file, "rb").read()), off
PY
  [ $? = 0 ] && [ $rs = 1 ]
}
if sarif_check cold.o branch.o; then echo "ok: scan SARIF"; else echo "FAIL: scan SARIF"; failures=$((failures + 1)); fi
# The branch's byteOffset is the branch itself: b target+4 (0x14000000 | imm26, little-endian).
off=$(python3 -c 'import json; r = json.load(open("scan.sarif"))["runs"][0]["results"]; print([x for x in r if "jumper" in x["message"]["text"]][0]["locations"][0]["physicalLocation"]["region"]["byteOffset"])')
top=$(od -An -tx1 -j $((off + 3)) -N1 branch.o | tr -d ' ')
if [ "$top" = 14 ] || [ "$top" = 17 ] || [ "$top" = 94 ] || [ "$top" = 97 ]; then echo "ok: SARIF byteOffset at the branch"
else echo "FAIL: SARIF byteOffset $off holds no B/BL (top byte $top)"; failures=$((failures + 1)); fi

# ---- bad input: exit 2 with the file and offset
head -c 200 arm64.o > truncated.o
expect "truncated ELF" 2 "truncated.o: error: offset 0x" -- truncated.o --spec "$specs/arm64/ftrace-call-ops.toml"
expect "not ELF" 2 "functions.c: error: offset 0x0: not an ELF file" -- "$data/functions.c" --spec "$specs/arm64/ftrace-call-ops.toml"
expect "spec without [scan]" 2 "has no \[scan\] table" -- arm64.o --spec "$specs/arm64/ftrace-init-live.toml"

[ $failures = 0 ] || { echo "$failures scan test(s) failed"; exit 1; }

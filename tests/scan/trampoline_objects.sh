#!/usr/bin/env bash
# Trampolines proven from a build (docs/trampolines.md, "From a build"):
# the shipped trampolines assembled by GNU as into objects here, proven
# through --trampoline-object OBJ:SYMBOL and through a spec's
# { source, object } entry, must get the verdicts their .S copies get;
# one byte changed in an object must change what is proven (and the
# digest); a bad object or symbol is exit 2 with the file and offset or
# the reference. Usage: trampoline_objects.sh PATCHCHECK SOURCE_DIR
set -uo pipefail
pc=$1
src=$2
specs=$src/specs
tramp=$src/trampolines
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
cd "$work" || exit 1

for tool in mips-linux-gnu-as mips-linux-gnu-objdump aarch64-linux-gnu-as aarch64-linux-gnu-objdump as objdump; do
  if ! command -v $tool >/dev/null; then
    echo "FAIL: $tool is missing: install binutils (scripts/install-deps)"
    exit 1
  fi
done

fail() {
  echo "FAIL: $1"
  [ -n "${2:-}" ] && sed 's/^/    /' "$2"
  failures=$((failures + 1))
}

# The kernel marks each function's end (SYM_FUNC_END: .size); the shipped
# copies do not, so the test adds it. GNU as spells MIPS registers with
# `$` (Linux's asm/regdef.h defines the bare names); patchcheck takes both.
withSize() { cat "$1"; printf '\t.size %s, . - %s\n' "$2" "$2"; }
mipsRegs() { sed -E 's/(^|[^%$A-Za-z0-9_.])(zero|at|v[01]|a[0-7]|t[0-9]|s[0-8]|k[01]|gp|sp|fp|ra)\b/\1$\2/g'; }

withSize "$tramp/mips/mcount_32.S" ftrace_caller | mipsRegs >mcount.S
mips-linux-gnu-as -mips32r2 -EB -mabi=32 -mno-shared -o mcount.o mcount.S || fail "mips-linux-gnu-as"
withSize "$tramp/arm64/ftrace_caller.S" ftrace_caller >entry-ftrace.S
aarch64-linux-gnu-as -o entry-ftrace.o entry-ftrace.S || fail "aarch64-linux-gnu-as"
for f in ftrace_caller ftrace_regs_caller ftrace_stub_direct_tramp; do
  withSize "$tramp/x86/$f.S" $f >x86_$f.S
  as --64 -o x86_$f.o x86_$f.S || fail "as --64 $f"
done

# Verdict lines without times and the source column.
verdicts() { sed -E 's/[0-9]+\.[0-9]+ s/T s/; s/  \((trampolines|[^ ]*\.o:).*\)$//' "$1"; }

# same NAME SPEC ARGS...: the object's run gives the source's verdicts and
# names the object, the symbol and a digest.
same() {
  local name=$1 spec=$2
  shift 2
  "$pc" check "$spec" >src.out 2>&1
  local rs=$?
  "$pc" check "$spec" "$@" >obj.out 2>&1
  local ro=$?
  if [ $rs != $ro ] || ! diff <(verdicts src.out) <(verdicts obj.out) >diff.out; then
    fail "$name: exit $ro from the object, $rs from the source" diff.out
    cat obj.out >>diff.out
  elif ! grep -Eq '\.o:[a-z_]+, bytes sha256 [0-9a-f]{64}\)' obj.out; then
    fail "$name: the report does not name the object, symbol and digest" obj.out
  else
    echo "ok: $name"
  fi
}

same "mips mcount_32 from mcount.o" "$specs/mips/mcount-kernel.toml" --trampoline-object mcount.o:ftrace_caller
same "arm64 ftrace_caller from entry-ftrace.o" "$specs/arm64/ftrace-call-ops.toml" \
  --trampoline-object entry-ftrace.o:ftrace_caller
same "x86 trampolines from their objects" "$specs/x86/ftrace.toml" \
  --trampoline-object x86_ftrace_caller.o:ftrace_caller --trampoline-object x86_ftrace_regs_caller.o:ftrace_regs_caller \
  --trampoline-object x86_ftrace_stub_direct_tramp.o:ftrace_stub_direct_tramp

# The spec form: { source = ..., object = "OBJ:SYMBOL" }, the object
# relative to the spec. A copy of the spec in the work directory, whose
# trampolines/ is the shipped one.
mkdir -p tree/specs && cp -r "$tramp" tree/trampolines && cp mcount.o tree/specs/
sed 's|^ftrace_caller = "mips/mcount.S"|ftrace_caller = { source = "mips/mcount.S", object = "mcount.o:ftrace_caller" }|' \
  "$specs/mips/mcount-kernel.toml" >tree/specs/mcount-kernel.toml
if grep -q 'object = "mcount.o' tree/specs/mcount-kernel.toml; then
  same "mips mcount_32 from the spec's object entry" tree/specs/mcount-kernel.toml
else
  fail "mcount-kernel.toml no longer names mips/mcount.S as ftrace_caller"
fi

# patch OBJDUMP OBJ PATTERN DELTA BYTE: writes BYTE at DELTA bytes into the
# first instruction OBJDUMP prints matching PATTERN in .text.
patch() {
  local objdump=$1 obj=$2 pattern=$3 delta=$4 byte=$5
  local text insn
  text=$($objdump -h "$obj" | awk '$2 == ".text" { print $6 }')
  insn=$($objdump -d "$obj" | grep -E "$pattern" | head -1 | awk -F: '{ gsub(/ /, "", $1); print $1 }')
  if [ -z "$text" ] || [ -z "$insn" ]; then
    fail "no instruction /$pattern/ in $obj"
    return 1
  fi
  printf "\\x$byte" | dd of="$obj" bs=1 seek=$((0x$text + 0x$insn + delta)) conv=notrunc status=none
}

# changed NAME OBJDUMP SPEC OBJ:SYMBOL PATTERN DELTA BYTE: the changed
# object's trampoline is refuted, with a new digest, where the source's is SAFE.
changed() {
  local name=$1 objdump=$2 spec=$3 named=$4 pattern=$5 delta=$6 byte=$7
  local obj=${named%%:*} sym=${named##*:}
  "$pc" check "$spec" --trampoline-object "$named" >before.out 2>&1
  cp "$obj" "changed-$obj"
  patch "$objdump" "changed-$obj" "$pattern" "$delta" "$byte" || return
  "$pc" check "$spec" --trampoline-object "changed-$named" >after.out 2>&1
  local rc=$?
  local old new
  old=$(grep -Eo "$obj:$sym, bytes sha256 [0-9a-f]+" before.out | head -1 | awk '{ print $NF }')
  new=$(grep -Eo "changed-$obj:$sym, bytes sha256 [0-9a-f]+" after.out | head -1 | awk '{ print $NF }')
  if ! grep -Eq "trampoline $sym +SAFE" before.out; then
    fail "$name: the unchanged object is not SAFE" before.out
  elif [ $rc != 1 ] || ! grep -Eq "trampoline $sym +UNSAFE +its code breaks its contract" after.out; then
    fail "$name: the changed byte is not what was proven (exit $rc)" after.out
  elif [ -z "$new" ] || [ "$old" = "$new" ]; then
    fail "$name: the digest did not change ($old, $new)" after.out
  else
    echo "ok: $name"
  fi
}

# addiu sp, sp, 184 -> 176 (27bd00b8 -> 27bd00b0): the frame is not freed.
changed "mips: one byte of mcount.o" mips-linux-gnu-objdump "$specs/mips/mcount-kernel.toml" mcount.o:ftrace_caller \
  'addiu[[:space:]]+sp,sp,184' 3 b0
# ret x9 -> ret x10 (d65f0120 -> d65f0140): returns to F's sp.
changed "arm64: one byte of entry-ftrace.o" aarch64-linux-gnu-objdump "$specs/arm64/ftrace-call-ops.toml" entry-ftrace.o:ftrace_caller \
  'ret[[:space:]]+x9' 0 40
# addq $168, %rsp -> $160 (48 81 c4 a8 -> a0): ret takes the wrong slot.
changed "x86: one byte of ftrace_caller.o" objdump "$specs/x86/ftrace.toml" x86_ftrace_caller.o:ftrace_caller \
  'add +\$0xa8,%rsp' 3 a0

# bad KIND PATTERN ARGS...: exit 2 with PATTERN in the message.
bad() {
  local name=$1 pattern=$2
  shift 2
  "$pc" check "$@" >bad.out 2>&1
  local rc=$?
  if [ $rc = 2 ] && grep -Eq -- "$pattern" bad.out; then echo "ok: $name"; else fail "$name (exit $rc)" bad.out; fi
}
bad "a symbol the object lacks" "<command line>: error: mcount.o has no symbol 'ftrace_calr'" \
  "$specs/mips/mcount-kernel.toml" --trampoline-object ftrace_caller=mcount.o:ftrace_calr
bad "a trampoline the spec lacks" "names no such trampoline" \
  "$specs/mips/mcount-kernel.toml" --trampoline-object mcount.o:ftrace_stub
bad "an object of another ISA" "holds arm64 code" \
  "$specs/mips/mcount-kernel.toml" --trampoline-object ftrace_caller=entry-ftrace.o:ftrace_caller
head -c 100 mcount.o >truncated.o
bad "a truncated object" "^truncated.o: error: offset 0x[0-9a-f]+: " \
  "$specs/mips/mcount-kernel.toml" --trampoline-object truncated.o:ftrace_caller
bad "a symbol of size 0" "^mcount.o: error: offset 0x[0-9a-f]+: symbol 'ftrace_stub' has size 0" \
  "$specs/mips/mcount-kernel.toml" --trampoline-object ftrace_caller=mcount.o:ftrace_stub
sed 's|mcount.o:ftrace_caller|mcount.o:no_such|' tree/specs/mcount-kernel.toml >tree/specs/bad-symbol.toml
bad "a spec's symbol the object lacks" "bad-symbol.toml:[0-9]+:[0-9]+: error: .*mcount.o has no symbol 'no_such'" \
  tree/specs/bad-symbol.toml

if [ $failures -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all trampoline-object checks passed"

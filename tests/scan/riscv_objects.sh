#!/usr/bin/env bash
# `patchcheck scan` on RISC-V objects compiled here by riscv64-linux-gnu-gcc
# with the flags Linux 6.16 builds ftrace with (arch/riscv/Makefile: CALL_OPS,
# -fpatchable-function-entry=8,4 with RVC, =4,2 without; docs/scan.md): clean
# objects give 0 findings, each seeded defect its finding, bad input exit 2
# with the file and offset. Usage: riscv_objects.sh PATCHCHECK SOURCE_DIR
set -uo pipefail
pc=$1
src=$2
data=$src/tests/data/scan
specs=$src/specs
spec=$data/riscv/riscv-callops-rvc.toml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

need() {  # program, Debian package
  if ! command -v "$1" >/dev/null; then
    echo "FAIL: $1 is missing: install the Debian package $2 (scripts/install-deps --test)"
    exit 1
  fi
}
need riscv64-linux-gnu-gcc gcc-riscv64-linux-gnu
need riscv64-linux-gnu-as binutils-riscv64-linux-gnu
need riscv64-linux-gnu-ld binutils-riscv64-linux-gnu

# arch/riscv/Makefile: -mcmodel=medany, -march=rv64ima[c]_zicsr_zifencei,
# -mabi=lp64, and with CALL_OPS -fpatchable-function-entry=8,4 (RVC) or 4,2;
# CALL_OPS selects 8-byte function alignment. Linker relaxation stays on
# in the objects (ld links vmlinux with --no-relax).
rv() { riscv64-linux-gnu-gcc -O2 -fno-pic -mcmodel=medany -fno-asynchronous-unwind-tables -falign-functions=8 "$@"; }
rvc() { rv -march=rv64imac_zicsr_zifencei -mabi=lp64 -fpatchable-function-entry=8,4 "$@"; }
norvc() { rv -march=rv64ima_zicsr_zifencei -mabi=lp64 -fpatchable-function-entry=4,2 "$@"; }

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

# ---- clean objects: every site the compiled state, aligned through the
# R_RISCV_ALIGN padding GCC puts before each literal.
rvc -c "$data/functions.c" -o rvc.o
riscv64-linux-gnu-readelf -r rvc.o | grep -q R_RISCV_ALIGN || echo "note: no R_RISCV_ALIGN in rvc.o; the padding case is not exercised"
expect "RVC CALL_OPS (=8,4)" 0 "3 sites, all instances of state \`compiled\` of .*riscv-callops-rvc.toml; 0 findings" -- \
  rvc.o --spec "$spec"
norvc -c "$data/functions.c" -o norvc.o
expect "no RVC (=4,2)" 0 "3 sites, all instances of state \`compiled\` of .*riscv-callops-norvc.toml; 0 findings" -- \
  norvc.o --spec "$data/riscv/riscv-callops-norvc.toml"
# Hard-float code (F and D instructions) between the sites: read by length.
rv -march=rv64imafdc_zicsr_zifencei -mabi=lp64d -fpatchable-function-entry=8,4 -c "$data/riscv/float.c" -o float.o
riscv64-linux-gnu-objdump -d float.o | grep -Eq 'fmul|fadd|fdiv|fcvt' || echo "note: float.o has no F/D instruction"
expect "hard-float object" 0 "2 sites, all instances of state \`compiled\`.*; 0 findings" -- float.o --spec "$spec"
# RV32 (ELFCLASS32) against the norvc test spec's rv32 matrix entry.
rv -march=rv32ima_zicsr_zifencei -mabi=ilp32 -fpatchable-function-entry=4,2 -c "$data/functions.c" -o rv32.o
expect "RV32 object" 0 "3 sites, all instances of state \`compiled\`.*; 0 findings" -- \
  rv32.o --spec "$data/riscv/riscv-callops-norvc.toml"

# ---- seeded defects
# A corrupted nop: leaf's first c.nop at F made c.li a0, 0 in GCC's assembly.
rvc -S "$data/functions.c" -o corrupt.s
awk '/^leaf:/ { print; getline; if ($1 == "nop") { print "\t.2byte 0x4501"; next } } { print }' corrupt.s > corrupt-edited.s
rvc -c corrupt-edited.s -o corrupt.o
expect "corrupted nop" 1 "leaf\+0x4: site is no state of the specs" "leaf\+0x0: 01 45 01 00" -- corrupt.o --spec "$spec"
# The shipped byte-site spec (specs/riscv/ftrace-callops-rvc.toml), whose
# compiled state `check` also runs: the clean object, and the corrupted one.
expect "RVC CALL_OPS, shipped byte-site spec" 0 "3 sites, all instances of state \`compiled\` of .*ftrace-callops-rvc.toml; 0 findings" -- \
  rvc.o --spec "$specs/riscv/ftrace-callops-rvc.toml"
expect "corrupted nop, shipped byte-site spec" 1 "leaf\+0x4: site is no state of the specs" -- \
  corrupt.o --spec "$specs/riscv/ftrace-callops-rvc.toml"
# GCC bug 88345 on RISC-V: the cold function in .text.unlikely aligned to 2,
# so its literal and F are only 2-byte aligned (the jalr may straddle a
# 4-byte boundary).
rvc -c "$data/cold.c" -o cold.o
expect "cold function: site on a 2-byte boundary" 1 \
  "rarely\+0x4: the 8-byte data unit at .* is only 2-byte aligned" -- cold.o --spec "$spec"
rvc -falign-functions=2 -c "$data/functions.c" -o align2.o
expect "functions aligned to 2: F straddles" 1 "only 2-byte aligned" -- align2.o --spec "$spec"
# A branch into another function's patch area (j target+4, maybe c.j).
rvc -c "$data/riscv/branch.c" -o branch.o
expect "branch into a patch area" 1 "jumper\+0x[0-9a-f]+: branch to target\+0x4, strictly inside the patched code" -- \
  branch.o --spec "$spec"
# Across sections (-ffunction-sections): only R_RISCV_JAL says where it goes
# (the field holds an offset into the jump's own section).
rvc -ffunction-sections -c "$data/riscv/branch.c" -o branch-sections.o
expect "branch into a patch area in another section" 1 "jumper\+0x[0-9a-f]+: branch to target\+0x4, strictly inside" -- \
  branch-sections.o --spec "$spec"
norvc -c "$data/riscv/branch.c" -o branch-norvc.o
expect "branch into a patch area (jal)" 1 "branch to target\+0x4, strictly inside the patched code" -- \
  branch-norvc.o --spec "$data/riscv/riscv-callops-norvc.toml"
# Alignment padding inside the site: the linker may shrink it.
riscv64-linux-gnu-as -march=rv64imac -o align-in-site.o "$data/riscv/align-in-site.s"
expect "R_RISCV_ALIGN inside a site" 1 "padded\+0x4: R_RISCV_ALIGN at padded\+0x2 lets the linker delete or rewrite" -- \
  align-in-site.o --spec "$spec"
# An entry whose relocation points past its section (out of range).
rvc -S "$data/functions.c" -o range.s
sed 's/\.8byte\t\.LPFE2$/.8byte\t.LPFE2+0x10000/' range.s > range-edited.s
rvc -c range-edited.s -o range.o
expect "entry out of range" 1 "\.text\+0x1[0-9a-f]{4}: no function symbol holds the site \(__patchable_function_entries\[1\]\)" \
  "\(past the section's end\)" "leaf\+0x0: entry is state \`compiled\` .* but no table entry records it" -- \
  range.o --spec "$spec"

# ---- a linked image (vmlinux.lds-like; GNU ld still applies R_RISCV_ALIGN
# under --no-relax, as arch/riscv/Makefile links vmlinux)
cat > vmlinux.lds <<'LDS'
SECTIONS {
  . = 0xffffffff80000000;
  .text : { *(.text .text.*) }
  . = ALIGN(8);
  .init.data : {
    __start_mcount_loc = .;
    KEEP(*(__patchable_function_entries))
    __stop_mcount_loc = .;
  }
  .data : { *(.data .sdata .sbss .bss COMMON) }
}
LDS
riscv64-linux-gnu-ld --no-relax -T vmlinux.lds -e 0 --no-warn-rwx-segments rvc.o -o vmlinux
expect "linked image" 0 "3 sites, all instances of state \`compiled\` of .*riscv-callops-rvc.toml; 0 findings" -- \
  vmlinux --spec "$spec"
# --emit-relocs (a relocatable kernel keeps its relocations): the
# R_RISCV_RELAX and R_RISCV_ALIGN kept in the image are done with.
riscv64-linux-gnu-ld --no-relax --emit-relocs -T vmlinux.lds -e 0 --no-warn-rwx-segments rvc.o -o vmlinux-relocs
riscv64-linux-gnu-readelf -r vmlinux-relocs | grep -q R_RISCV_RELAX || echo "note: no R_RISCV_RELAX kept in vmlinux-relocs"
expect "linked image with --emit-relocs" 0 "3 sites, all instances of state \`compiled\` .*; 0 findings" -- \
  vmlinux-relocs --spec "$spec"

# ---- bad input: exit 2 with the file and offset
head -c 300 rvc.o > truncated.o
expect "truncated ELF" 2 "truncated.o: error: offset 0x" -- truncated.o --spec "$spec"
# An RVC object read by a target without C, an RV32 object by an RV64-only
# spec: the e_flags/class at offset 0x30/0x24 of the header.
expect "RVC object, spec without C" 2 "rvc.o: error: offset 0x30 \(e_flags 0x1\): .*EF_RISCV_RVC" -- \
  rvc.o --spec "$data/riscv/riscv-callops-norvc.toml"
grep -v '^matrix' "$spec" > rv64-only.toml
expect "RV32 object, RV64 spec" 2 "rv32.o: error: offset 0x24 .*ELFCLASS32" -- rv32.o --spec rv64-only.toml
# Wrong machine: a RISC-V object given only an arm64 spec.
expect "wrong machine" 2 "rvc.o: error: no spec given has \[scan\] for its machine \(e_machine 243\)" -- \
  rvc.o --spec "$specs/arm64/ftrace-call-ops.toml"
# A garbage relocation: the first entry of .rela__patchable_function_entries
# names symbol 0xffffff.
cp rvc.o garbage.o
python3 - garbage.o <<'PY' || { echo "FAIL: could not seed the garbage relocation"; exit 1; }
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", b, 0x28); shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
sh = lambda i: struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize)
strtab = sh(shstrndx)[4]
name = lambda off: b[strtab + off:b.index(0, strtab + off)].decode()
for i in range(shnum):
    s = sh(i)
    if name(s[0]) == ".rela__patchable_function_entries":
        info_at = s[4] + 8
        sym_type, = struct.unpack_from("<Q", b, info_at)
        struct.pack_into("<Q", b, info_at, (0xffffff << 32) | (sym_type & 0xffffffff))
        open(sys.argv[1], "wb").write(b)
        break
else:
    sys.exit(1)
PY
expect "garbage relocation" 2 "garbage.o: error: offset 0x[0-9a-f]+: relocation names symbol 16777215" -- garbage.o --spec "$spec"

# A trampoline taken from an object (docs/trampolines.md) holding a D
# instruction (c.fldsp): refused at its offset, never run as an illegal one.
printf '\t.option norelax\n\t.text\n\t.globl ftrace_caller\n\t.type ftrace_caller, @function\nftrace_caller:\n\tfld fa0, 0(sp)\n\tret\n\t.size ftrace_caller, .-ftrace_caller\n' > fp.s
riscv64-linux-gnu-as -march=rv64imafdc -o fp.o fp.s
out=$("$pc" check "$specs/riscv/ftrace-callops.toml" --trampoline-object fp.o:ftrace_caller 2>&1); rc=$?
if [ $rc = 2 ] && grep -Eq "fp.o: error: offset 0x[0-9a-f]+ \(ftrace_caller\+0x0\): the 2-byte encoding 0x2502 is no instruction" <<<"$out"; then
  echo "ok: F/D instruction in a trampoline object"
else
  echo "FAIL: F/D instruction in a trampoline object (exit $rc)"; echo "$out" | sed 's/^/    /'; failures=$((failures + 1))
fi

# The same object on rv64imafdc, which has F and D: the c.fldsp decodes
# and the trampoline runs it as kernel code does, with sstatus.FS Off: an
# illegal instruction, so its contract is broken (docs/model-riscv.md,
# "Floating point"). The shipped contracts name only the Linux variants;
# copies here also name rv64imafdc.
mkdir -p tramp/riscv
for f in "$src"/trampolines/riscv/*; do
  sed 's/^isa = \["rv64imac", "rv64ima"\]/isa = ["rv64imac", "rv64ima", "rv64imafdc"]/' "$f" > "tramp/riscv/${f##*/}"
done
out=$("$pc" check "$specs/riscv/ftrace-callops.toml" --isa rv64imafdc --trampolines tramp \
      --trampoline-object fp.o:ftrace_caller 2>&1); rc=$?
if [ $rc = 1 ] && grep -Eq "trampoline ftrace_caller: UNSAFE: .*'fld.fa0,0\(sp\)'.*floating point with sstatus.FS Off" <<<"$out"; then
  echo "ok: F/D instruction in a trampoline object on a variant with F and D"
else
  echo "FAIL: F/D instruction in a trampoline object on rv64imafdc (exit $rc)"; echo "$out" | sed 's/^/    /'; failures=$((failures + 1))
fi

[ $failures = 0 ] || { echo "$failures RISC-V scan test(s) failed"; exit 1; }

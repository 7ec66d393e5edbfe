#!/usr/bin/env bash
# `patchcheck scan` at scale (docs/testing.md "Scan at scale"): an arm64
# object with N functions compiled for CALL_OPS (-fpatchable-function-entry=4,2
# as GCC lays it out: two NOPs, the function, two NOPs, its body; every
# entry linked to the first function, as GCC links them to its .text), generated
# as assembly and assembled by GNU as, then scanned against
# specs/arm64/ftrace-call-ops.toml. Prints N, wall seconds and peak RSS for
# each N, so the cost per site can be compared across sizes.
# Usage: bench/scan_scale.sh PATCHCHECK [N...]   (default N: 10000 25000 50000)
set -euo pipefail
pc=$1
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 25000 50000)
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v aarch64-linux-gnu-as >/dev/null || { echo "needs aarch64-linux-gnu-as (Debian binutils-aarch64-linux-gnu)"; exit 1; }
printf '%8s %10s %10s %12s\n' functions wall_s rss_mb us_per_site
for n in "${sizes[@]}"; do
  awk -v n="$n" 'BEGIN {
    print "\t.text"
    for (i = 0; i < n; i++) {
      printf "\t.section __patchable_function_entries,\"awo\",@progbits,f0\n\t.balign 8\n\t.8byte .LPFE%d\n\t.text\n", i
      printf "\t.balign 8\n.LPFE%d:\n\tnop\n\tnop\n\t.globl f%d\n\t.type f%d, %%function\nf%d:\n\tnop\n\tnop\n", i, i, i, i
      printf "\tcbz w0, 1f\n\tadd w0, w0, #%d\n1:\tret\n\t.size f%d, .-f%d\n", i % 4096, i, i
    }
  }' > "$work/f.s"
  aarch64-linux-gnu-as "$work/f.s" -o "$work/f.o"
  /usr/bin/time -f '%e %M' -o "$work/time" "$pc" scan "$work/f.o" --spec "$src/specs/arm64/ftrace-call-ops.toml" > "$work/out" || {
    tail -3 "$work/out"; exit 1; }
  grep -q "$n sites, all instances" "$work/out" || { tail -3 "$work/out"; exit 1; }
  read -r wall rss < "$work/time"
  awk -v n="$n" -v w="$wall" -v r="$rss" 'BEGIN { printf "%8d %10.2f %10.1f %12.1f\n", n, w, r / 1024, w * 1e6 / n }'
done

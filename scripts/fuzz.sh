#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Differential BTF fuzzing: scripts/btf-fuzz.c's seeded BTF, the same on each
# kernel, loaded on the base kernel and on the patched one, where flag-clear
# BTF is also converted to the attribute convention by the series' libbpf;
# scripts/fuzzcmp.py judges the verdicts against config/fuzz-intended.
# Usage: fuzz.sh [COUNT [FIRST]] (default 2000 seeds from 1), on the kernel of
# BTT_KCC (default the first kernel row) after scripts/run.sh; the base kernel
# is built next to it, without the sanitizers.
# Results in KBUILD/fuzz.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
count=${1:-2000} first=${2:-1}
[[ $count$first =~ ^[0-9]+$ ]] || die "usage: fuzz.sh [COUNT [FIRST]]"
kb=$(kbuild_dir "${BTT_KCC:-}")
st=$kb/${BTT_ST:-selftests}
[ -f "$kb/arch/x86/boot/bzImage" ] || die "no patched kernel in $kb; run scripts/run.sh first"
[ -f "$st/tools/build/libbpf/libbpf.a" ] || die "no libbpf.a in $st; run scripts/run.sh first"
# The base kernel only gives verdicts: without the sanitizers it builds in
# less time (the patched kernel is the sanitizer cell).
base_kb=$(base_kernel "$kb" plain)
# A sanitizer kernel under TCG does about 5,000 seeds a minute: allow 30 ms
# a seed on top of vmrun.sh's default.
export BTT_VM_TIMEOUT=${BTT_VM_TIMEOUT:-$((1200 + count * 3 / 100))}
out=$kb/fuzz
need_tool flock
# fd 7: fd 8 holds the cache's lock (lib.sh), which vmrun.sh must inherit.
exec 7>"$out.lock"
flock -n 7 || die "another fuzz run is using $out; wait for it"
rm -rf "$out"; mkdir -p "$out"
mount_same "$kb"
cp "$TOP/scripts/btf-fuzz.c" "$st/btf-fuzz.c"
in_root "$st" "gcc -O2 -Wall -Wno-format-truncation -Itools/include -o btf-fuzz btf-fuzz.c \
	tools/build/libbpf/libbpf.a -lelf -lz" || die "btf-fuzz does not build"
for k in base patched; do
	img=$kb/arch/x86/boot/bzImage arg=convert
	[ "$k" = patched ] || { img=$base_kb/arch/x86/boot/bzImage; arg=; }
	echo "fuzz /mnt/st ./btf-fuzz $first $count $arg" >"$out/plan-$k"
	note "fuzzing $count seeds from $first on the $k kernel"
	# No results of an earlier run may stand in for a guest that never ran.
	rm -rf "$st/vm-fuzz-$k"
	BTT_VM_NAME=vm-fuzz-$k BTT_VM_IMAGE=$img BTT_VM_PLAN=$out/plan-$k \
		"$TOP/scripts/vmrun.sh" "$kb" >"$out/vm-$k.txt" 2>&1 || true
	cp "$st/vm-fuzz-$k/fuzz.log" "$out/$k.txt" 2>/dev/null || : >"$out/$k.txt"
	cp "$st/vm-fuzz-$k/console.log" "$out/console-$k.log" 2>/dev/null || : >"$out/console-$k.log"
done
python3 "$TOP/scripts/fuzzcmp.py" "$out" "$(base_config fuzz-intended)" "$count"

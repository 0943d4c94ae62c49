#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The regression cell: upstream's own test_progs tests of the code the series
# touches (config/regress.list), too slow for the test command. Builds them in
# every object flavour for the first kernel row's build (the sanitizer kernel;
# into KBUILD/regress) and runs them on the patched kernel and on the
# unpatched base kernel with the same compiler and config (KBUILD-base, built
# if needed, with the test modules built for it), with test_progs' watchdog at
# BTT_VM_WATCHDOG (here 600 s by default: the sanitizers under TCG are slow).
# scripts/regresscmp.py judges: the patched kernel fails exactly the leaves
# config/regress-fails lists, with no kernel report, and nothing that passes
# on the base kernel fails there.
# Usage: regress.sh [all|patched|base] [FLAVOUR...]: both kernels (default)
# or one, every object flavour or those named. Only "all" without flavours
# starts afresh; otherwise the results of the other runs of the same build
# stay in $CACHE/regress-BASE, where regresscmp.py judges them together.
# config/regress-deny: tests not run, with their reasons (BTT_VM_DENY).
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
s=$TOP/scripts
what=${1:-all}
case $what in all | patched | base) ;; *) die "usage: regress.sh [all|patched|base] [FLAVOUR...]" ;; esac
[ $# = 0 ] || shift
for f in "$@"; do flavour objects "$f" 1 >/dev/null; done
fl=("$@")
[ $# -gt 0 ] || mapfile -t fl < <(flavours objects)
kb=$(kbuild_dir)
[ -f "$kb/vmlinux" ] || die "no patched kernel in $kb; run scripts/run.sh first"
out=$CACHE/regress-$BASE
[ "$what" != all ] || [ $# -gt 0 ] || rm -rf "$out"
mkdir -p "$out"
list_file "$(base_config regress.list)" | awk '{ print $1 }' >"$out/regress.list"
# The verifier_NAME tests are all defined by prog_tests/verifier.c.
sed -E 's/^verifier_[a-z0-9_]+$/verifier/' "$out/regress.list" | sort -u >"$out/build.list"
BTT_ST=regress BTT_ST_LIST=$out/build.list "$s/stbuild.sh" "$kb" >/dev/null
# The test names (rbtree.c defines rbtree_success, rbtree_fail, ...).
list_tests "$out/regress.list" "$kb/regress" >"$out/allow"
# runner FLAVOUR: the sha256 of its test_progs, which embeds its BPF objects.
runner() { sha256sum "$kb/regress/$(flavour objects "$1" 1)/$(flavour objects "$1" 2)" | cut -d' ' -f1; }
# Results of an earlier run are only judged with the build that made them.
for b in "$out"/*.build; do
	[ -e "$b" ] || continue
	f=${b%.build}; f=${f##*-}
	[ "$(cat "$b")" = "$(runner "$f")" ] ||
		die "$f's test_progs changed since the run of ${b%.build}; run regress.sh all"
done
BTT_VM_DENY=$(base_config regress-deny)
export BTT_VM_DENY
export BTT_VM_WATCHDOG=${BTT_VM_WATCHDOG:-600} BTT_VM_TIMEOUT=${BTT_VM_TIMEOUT:-5400}

# run KERNEL IMAGE: one boot, the flavours asked for; its logs into $out as
# KERNEL-*.
run() {
	local k=$1 img=$2 v=$kb/regress/vm-$1 f
	for f in "${fl[@]}"; do plan_line "$f"; done >"$out/$k-plan"
	BTT_ST=regress BTT_VM_NAME=vm-$k BTT_VM_IMAGE=$img BTT_VM_ALLOW=$out/allow BTT_VM_PLAN=$out/$k-plan \
		"$s/vmrun.sh" "$kb" >"$out/$k-report.txt" 2>&1 || true
	sed -n 's/^vm: .*, qemu status \([0-9]*\)$/\1/p' "$out/$k-report.txt" >"$out/$k.status"
	[ -s "$out/$k.status" ] || die "the $k kernel's VM run did not start, see $out/$k-report.txt"
	for f in "${fl[@]}"; do
		rm -f "$out/$k-$f.log"
		cp "$out/$k.status" "$out/$k-$f.status"
		runner "$f" >"$out/$k-$f.build"
		[ ! -f "$v/$f.log" ] || cp "$v/$f.log" "$out/$k-$f.log"
		cp "$v/console.log" "$out/$k-$f.console.log"
		cp "$v/deny.$f" "$out/deny.$f"
	done
	echo "$k kernel:"; grep -E '^  total ' "$out/$k-report.txt" || true
}
[ "$what" = base ] || run patched "$kb/arch/x86/boot/bzImage"
if [ "$what" != patched ]; then
	base_kb=$(BTT_ST=regress base_kmods "$kb")
	BTT_VM_KMODS=kmods-base run base "$base_kb/arch/x86/boot/bzImage"
fi
python3 "$s/regresscmp.py" "$out" "$(base_config regress-fails)" $(flavours objects)

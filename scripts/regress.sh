#!/usr/bin/env bash
# The regression cell: upstream's own test_progs tests of the code the series
# touches (config/regress.list), too slow for the test command. Builds them in
# every object flavour for the first kernel row's build (the sanitizer kernel;
# into KBUILD/regress) and runs them on the patched kernel and on the
# unpatched base kernel with the same compiler and config (KBUILD-base, built
# if needed, with the test modules built for it), with test_progs' watchdog at BTT_VM_WATCHDOG (here 600 s by
# default: the sanitizers under TCG are slow). scripts/regresscmp.py judges:
# the patched kernel fails exactly the leaves config/regress-fails lists, with
# no kernel report, and nothing that passes on the base kernel fails there.
# BTT_REGRESS_BASE=0: the patched kernel only. Results in $CACHE/regress-BASE.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
s=$TOP/scripts
kb=$(kbuild_dir)
[ -f "$kb/vmlinux" ] || die "no patched kernel in $kb; run scripts/run.sh first"
out=$CACHE/regress-$BASE
rm -rf "$out"; mkdir -p "$out"
list_file "$(base_config regress.list)" | awk '{ print $1 }' >"$out/allow"
# The verifier_NAME tests are all defined by prog_tests/verifier.c.
sed -E 's/^verifier_[a-z0-9_]+$/verifier/' "$out/allow" | sort -u >"$out/build.list"
BTT_ST=regress BTT_ST_LIST=$out/build.list "$s/stbuild.sh" "$kb" >/dev/null
export BTT_VM_WATCHDOG=${BTT_VM_WATCHDOG:-600} BTT_VM_TIMEOUT=${BTT_VM_TIMEOUT:-5400}

# run KERNEL IMAGE: one boot, every flavour; its logs into $out as KERNEL-*.
run() {
	local v=$kb/regress/vm-$1
	BTT_ST=regress BTT_VM_NAME=vm-$1 BTT_VM_IMAGE=$2 BTT_VM_ALLOW=$out/allow \
		"$s/vmrun.sh" "$kb" >"$out/$1-report.txt" 2>&1 || true
	sed -n 's/^vm: .*, qemu status \([0-9]*\)$/\1/p' "$out/$1-report.txt" >"$out/$1-status"
	[ -s "$out/$1-status" ] || die "the $1 kernel's VM run did not start, see $out/$1-report.txt"
	cp "$v/console.log" "$out/$1-console.log"
	for f in $(flavours objects); do
		[ ! -f "$v/$f.log" ] || cp "$v/$f.log" "$out/$1-$f.log"
	done
	echo "$1 kernel:"; grep -E '^  total ' "$out/$1-report.txt" || true
}
run patched "$kb/arch/x86/boot/bzImage"
if [ "${BTT_REGRESS_BASE:-1}" != 0 ]; then
	base_kb=$(BTT_ST=regress base_kmods "$kb")
	BTT_VM_KMODS=kmods-base run base "$base_kb/arch/x86/boot/bzImage"
fi
python3 "$s/regresscmp.py" "$out" "$(base_config regress-fails)" $(flavours objects)

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The test command: the fast tests, harness checks, series checks of every
# base (apply, checkpatch, copies, overrides, send-prep), the main job on the
# default base (the smoke fuzz's base kernel builds beside them), then
# bpftool's convert command on the built objects and the smoke fuzz run.
# Ends with one line "N passed, N failed, N skipped"; the whole output is also
# in the run's folder ($CACHE/runs/..., test.txt).
. "$(dirname "$0")/lib.sh"

need_root
# The main job and the test command set up a fresh host: they ask for the
# host packages (scripts/toolchain.sh installs them only when asked).
export BTT_HOST_INSTALL=${BTT_HOST_INSTALL:-1}
run_dir
s=$TOP/scripts
log=$BTT_RUN/checks.last
pass=0 fail=0

# checks CMD...: run a command that prints "ok - ..." and "FAIL - ..." lines
# and add them up; a non-zero exit without a FAIL line counts as one failure.
checks() {
	local rc=0 f
	"$@" | tee "$log" || rc=$?
	cat "$log" >>"$BTT_RUN/checks.txt"
	f=$(grep -c '^FAIL - ' "$log" || true)
	[ "$rc" = 0 ] || [ "$f" -gt 0 ] || f=1
	pass=$((pass + $(grep -c '^ok - ' "$log" || true)))
	fail=$((fail + f))
}

# base_bg KBUILD KCC: the smoke fuzz's base kernel (fuzz.sh, lib.sh base_kernel
# plain), built at the lowest priority beside the checks and the main job:
# it gets the CPU that they leave idle (the harness checks, the patched
# kernel's link, the guest that runs one test at a time on one of its two
# vCPUs). fuzz.sh builds whatever is left. Its log: BTT_RUN/base-kernel.log.
base_bg() {
	local t0=$SECONDS
	renice -n 19 -p "$BASHPID" >/dev/null
	if base_build "$1" "$2" plain >"$BTT_RUN/base-kernel.log" 2>&1; then
		note "the fuzzer's base kernel, built beside the main job: $((SECONDS - t0))s"
	else
		note "the fuzzer's base kernel did not build beside the main job (fuzz.sh tries again): $BTT_RUN/base-kernel.log"
	fi
}

main() {
# The fast tests first: the judges' unit tests, seconds.
checks "$s/fast.sh"
# The version drift lines (config/toolchain.lock) go into the report.
"$s/toolchain.sh" | { grep '^drift:' || true; }
"$s/base.sh"
# Every base's tree, before the harness checks (the newcomer check ports a
# patch to 7.2) and the series checks.
others=$(list_file "$BASES" | awk -v d="$BASE" '$1 != d { print $1 }')
for b in $others; do BTT_BASE=$b "$s/base.sh" >/dev/null; done
# The kernels of the test command (config/flavours RUN "test"); scripts/run.sh
# alone runs every kernel row.
BTT_KERNELS=$(test_kernels)
export BTT_KERNELS
# The first kernel's: the bpftool checks and the smoke fuzz use it.
k=$(kernels); k=${k%% *}
kb=$(kbuild_dir "$k")
base_tree
base_bg "$kb" "$k" &
bg=$!
trap 'kill_tree "$bg"' EXIT
trap 'exit 130' INT TERM
checks "$s/test-harness.sh"
if "$s/check-series.sh"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
# The other bases' series (config/bases): 7.2.y, patches/ with its overrides,
# and the 6.12.y backport apply and pass checkpatch; their VM cells are not run
# here (docs/HARNESS.md).
for b in $others; do
	if BTT_BASE=$b "$s/check-series.sh"; then pass=$((pass + 1))
	else echo "FAIL - the $b series checks"; fail=$((fail + 1)); fi
done
checks "$s/send-prep.sh"
# The prerequisite series (the bpf fixes) is mailed on its own.
for d in $(prereq_dirs); do BTT_PATCHES=$d checks "$s/send-prep.sh"; done

rc=0; "$s/run.sh" || rc=$?
wait "$bg" || true
last=$(tail -n 1 "$BTT_RUN/report.txt" 2>/dev/null) || true
read -r vp vf vs < <(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/p' <<<"$last") || true
[ -n "${vp:-}" ] || { vp=0 vf=1 vs=0; echo "the main job printed no result line"; }
[ "$rc" = 0 ] || [ "$vf" -gt 0 ] || vf=1

# The kernel and selftest host builds compile through ccache: its cache holds
# their results (a warm run compiles nothing, so count what is stored).
n=$(find "$CACHE/ccache" -type f -regextype egrep -regex '.*/[0-9a-f]{20,}' 2>/dev/null | wc -l)
if [ "$n" -ge 1000 ]; then echo "ok - ccache holds $n compile results"; pass=$((pass + 1))
else echo "FAIL - ccache holds $n compile results, not the builds' (>= 1000)"; fail=$((fail + 1)); fi

# bpftool's convert command, on the objects of the first kernel's selftests.
checks "$s/bpftool-check.sh" "$kb"
# The smoke run of the differential fuzzer: base kernel, patched kernel
# (the first kernel's, built with the sanitizers) and libbpf's conversion.
BTT_KCC=$k checks "$s/fuzz.sh" "${BTT_FUZZ_SMOKE:-2000}"
echo "$((pass + vp)) passed, $((fail + vf)) failed, $vs skipped"
[ $((fail + vf)) = 0 ]
}
main 2>&1 | tee "$BTT_RUN/test.txt"
exit "${PIPESTATUS[0]}"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The main job: toolchain, base tree, series, then for each kernel compiler
# (BTT_KERNELS, default: every kernel row of config/flavours) the kernel, the
# selftests and a VM run of every object flavour. A failed kernel or selftest
# build fails its row and the next kernel is still tried. Prints stage
# timings, the per-flavour tables, the kernel x object matrix and
# "N passed, N failed, N skipped" last; all of it, with the stage logs, the
# console logs and the manifest, stays in the run's folder ($CACHE/runs/...).
. "$(dirname "$0")/lib.sh"

need_root
# The main job and the test command set up a fresh host: they ask for the
# host packages (scripts/toolchain.sh installs them only when asked).
export BTT_HOST_INSTALL=${BTT_HOST_INSTALL:-1}
run_dir
STAGE_FILE=$BTT_RUN/stages.txt
s=$TOP/scripts
kernels=$(kernels)
note "run folder: $BTT_RUN"

stage toolchain; step toolchain "$s/toolchain.sh" || die "toolchain failed, see $BTT_RUN/toolchain.log and toolchain.out"
# ccache's counters start at zero for each run: the summary shows its hits.
"$s/shell.sh" "ccache --zero-stats" >/dev/null 2>&1 || true
stage base; step base "$s/base.sh" || die "base tree failed, see $BTT_RUN/base.log"
stage series; step series "$s/apply.sh" || die "the series does not apply, see $BTT_RUN/series.log"
rc=0
for k in $kernels; do
	kb=$(kbuild_dir "$k")
	stage "kernel-$k"
	ok=1
	BTT_KCC=$k step "kernel-$k" "$s/kbuild.sh" || ok=
	# The whole build logs, kept with the run.
	cp "$kb/build.log" "$BTT_RUN/kernel-$k.build.log" 2>/dev/null || true
	if [ -z "$ok" ]; then
		echo "kernel build failed, see $BTT_RUN/kernel-$k.log" >"$BTT_RUN/report-$k.txt"; rc=1; continue
	fi
	stage "st-$k"
	step "st-$k" "$s/stbuild.sh" "$kb" || ok=
	for f in $(find "$kb/selftests" -maxdepth 2 -name build.log 2>/dev/null); do
		d=${f%/build.log}; d=${d#"$kb/selftests"}; cp "$f" "$BTT_RUN/st-$k${d//\//-}.build.log"
	done
	if [ -z "$ok" ]; then
		echo "selftests build failed, see $BTT_RUN/st-$k.log" >"$BTT_RUN/report-$k.txt"; rc=1; continue
	fi
	stage "vm-$k"
	BTT_VM_DIR=$BTT_RUN/vm-$k step "vm-$k" "$s/vmrun.sh" "$kb" || rc=1
	cp "$BTT_RUN/vm-$k.out" "$BTT_RUN/report-$k.txt"
done
stage
{
	for k in $kernels; do
		echo "== kernel built by $k"
		if grep -q 'build failed' "$BTT_RUN/report-$k.txt"; then cat "$BTT_RUN/report-$k.txt"
		else head -n -1 "$BTT_RUN/report-$k.txt"; fi
		echo
	done
	echo "stage timings:"
	cat "$STAGE_FILE"
	for k in $kernels; do
		up=$(sed -n 's/.*btt-init: up \([0-9.]*\)s.*/\1/p' "$BTT_RUN/vm-$k/console.log" 2>/dev/null | head -n1) || true
		echo "guest ($k kernel) reached init after ${up:-?}s"
	done
	echo
	echo "matrix (rows: kernel compiler, columns: BPF object compiler):"
	printf '  %-7s' kernel; for f in $(flavours objects); do printf ' %-32s' "$f objects"; done; echo
	for k in $kernels; do
		printf '  %-7s' "$k"
		for f in $(flavours objects); do
			r=$(sed -n "s/^  total $f: //p" "$BTT_RUN/report-$k.txt")
			[ -n "$r" ] || r=$(sed -n '1s/, see .*//p' "$BTT_RUN/report-$k.txt" | grep 'build failed' || true)
			printf ' %-32s' "${r:-no result}"
		done
		echo
	done
	for k in $kernels; do
		grep -q 'build failed' "$BTT_RUN/report-$k.txt" || "$s/btfstat.sh" "$(kbuild_dir "$k")" || true
	done
	"$s/shell.sh" "ccache --print-stats" 2>/dev/null | awk -F'\t' '
		$1 ~ /_cache_hit$/ { h += $2 } $1 == "cache_miss" { m += $2 }
		END { printf "ccache: %d hits, %d misses in this run\n", h, m }' || true
	"$s/manifest.sh" | tee "$BTT_RUN/manifest.txt"
	echo "run folder: $BTT_RUN"
	# The last line sums every run; a kernel without a result line counts as failed.
	for k in $kernels; do l=$(tail -n 1 "$BTT_RUN/report-$k.txt" 2>/dev/null) || true; echo "${l:-none}"; done | awk '
		/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { p += $1; f += $3; s += $5; next }
		{ f++ }
		END { printf "%d passed, %d failed, %d skipped\n", p, f, s }'
} | tee "$BTT_RUN/report.txt"
exit "$rc"

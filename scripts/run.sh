#!/usr/bin/env bash
# The main job: toolchain, base tree, series, then for each kernel compiler
# (BTT_KERNELS, default "gcc llvm") the kernel, the selftests and a VM run of
# both object flavours. Prints stage timings, the per-flavour tables, the
# kernel x object matrix and "N passed, N failed, N skipped" last.
. "$(dirname "$0")/lib.sh"

need_root
STAGE_FILE=$(mktemp)
out=$(mktemp -d)
trap 'rm -rf "$STAGE_FILE" "$out"' EXIT
s=$TOP/scripts
kernels=${BTT_KERNELS:-gcc llvm}

stage toolchain; "$s/toolchain.sh"
stage base; "$s/base.sh"
stage series; "$s/apply.sh"
rc=0
for k in $kernels; do
	stage "kernel-$k"; kb=$(BTT_KCC=$k "$s/kbuild.sh"); echo "$kb" >"$out/$k.kb"
	stage "st-$k"; "$s/stbuild.sh" "$kb" >/dev/null
	stage "vm-$k"
	"$s/vmrun.sh" "$kb" >"$out/$k" || rc=1
	sed -n 's/.*btt-init: up \([0-9.]*\)s.*/\1/p' "$kb/selftests/vm/console.log" |
		head -n1 >"$out/$k.up"
done
stage
for k in $kernels; do
	echo "== kernel built by $k"
	head -n -1 "$out/$k"
	echo
done
echo "stage timings:"
cat "$STAGE_FILE"
for k in $kernels; do echo "guest ($k kernel) reached init after $(cat "$out/$k.up")s"; done
echo
echo "matrix (rows: kernel compiler, columns: BPF object compiler):"
flavours=$(for k in $kernels; do sed -n 's/^  total \([a-z0-9_]*\): .*/\1/p' "$out/$k"; done | awk '!seen[$0]++')
printf '  %-7s' kernel; for f in $flavours; do printf ' %-32s' "$f objects"; done; echo
for k in $kernels; do
	printf '  %-7s' "$k"
	for f in $flavours; do
		printf ' %-32s' "$(sed -n "s/^  total $f: //p" "$out/$k" | grep . || echo 'no result')"
	done
	echo
done
for k in $kernels; do "$s/btfstat.sh" "$(cat "$out/$k.kb")"; done
"$s/manifest.sh"
# The last line sums every run; a run without a result line counts as failed.
for k in $kernels; do tail -n 1 "$out/$k"; done | awk '
	/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { p += $1; f += $3; s += $5; next }
	{ f++ }
	END { printf "%d passed, %d failed, %d skipped\n", p, f, s }'
exit "$rc"

#!/usr/bin/env bash
# The main job: toolchain, base tree, series, kernel, selftests, VM run.
# Prints stage timings, the per-flavour table and "N passed, N failed, N skipped" last.
. "$(dirname "$0")/lib.sh"

need_root
STAGE_FILE=$(mktemp)
out=$(mktemp)
trap 'rm -f "$STAGE_FILE" "$out"' EXIT
s=$TOP/scripts

stage toolchain; "$s/toolchain.sh"
stage base; "$s/base.sh"
stage series; "$s/apply.sh"
stage kernel; kb=$("$s/kbuild.sh")
stage selftests; "$s/stbuild.sh" "$kb" >/dev/null
stage vm
rc=0
"$s/vmrun.sh" "$kb" >"$out" || rc=$?
stage
up=$(sed -n 's/.*btt-init: up \([0-9.]*\)s.*/\1/p' "$kb/selftests/vm/console.log" | head -n1)
head -n -1 "$out"
echo
echo "stage timings (guest reached init after ${up:-?}s of the vm stage):"
cat "$STAGE_FILE"
"$s/manifest.sh"
tail -n 1 "$out"
exit "$rc"

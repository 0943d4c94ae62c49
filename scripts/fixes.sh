#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The bpf fixes' cell (not part of the test command): the prerequisite
# series of BTT_BASE (config/bases PREREQ, patches/bpf) alone, in its own
# tree ($CACHE/linux-BASE.fixes), built with the first kernel row and the
# plain config (no sanitizers; ccache serves the files the fixes do not
# touch), with the selftest subset that tree has (config/selftests.list
# without the bpf-next series' tests). In the VM, every object flavour:
#  1. the whole subset on the fixed kernel: nothing may fail;
#  2. the fixes' own test on the unpatched kernel (same config): exactly
#     the leaves of config/bpf-fixes-base fail there (scripts/basefails.py),
#     so each fix's test fails without it.
# Results in $CACHE/fixes-BASE.
. "$(dirname "$0")/lib.sh"
need_root
need_sid_root
s=$TOP/scripts
pre=$(prereq_dirs)
[ -n "$pre" ] || die "base $BASE has no prerequisite series (config/bases PREREQ)"
kcc=$(flavours kernel | head -n1)
src=$CACHE/linux-$BASE
tree=$src.fixes
main_kb=$(kbuild_dir "$kcc")
kb=$main_kb-fixes
out=$CACHE/fixes-$BASE
[ -d "$src/.git" ] || "$s/base.sh"
rm -rf "$out"; mkdir -p "$out"

# The tree: the base with the prerequisite series only.
base_worktree "$src" "$tree"
BTT_TREE=$tree BTT_BRANCH=fixes BTT_PATCHES=$pre "$s/apply.sh"
# The kernels: fixed, and unpatched (the fuzzer's plain base build), both
# compiled as if at the main tree's paths, so that ccache serves them.
BTT_KCC=$kcc BTT_PLAIN=1 BTT_SRC=$tree BTT_KBUILD=$kb BTT_AS_SRC=$src \
	BTT_AS_KBUILD=$main_kb "$s/kbuild.sh" >/dev/null
base_tree
base_kb=$(base_build "$main_kb" "$kcc" plain)
# The subset: the tests this tree has.
st=$tree/tools/testing/selftests/bpf
list_file "$(base_config selftests.list)" | while read -r t rest; do
	[ ! -f "$st/prog_tests/$t.c" ] || echo "$t $rest"
done >"$out/list"
# The fixes' own tests: those the prerequisite series adds.
for p in $(prereq_patches); do
	sed -n 's|^+++ b/tools/testing/selftests/bpf/prog_tests/\(.*\)\.c$|\1|p' "$p"
done | sort -u >"$out/own"
[ -s "$out/own" ] || die "${pre#"$TOP"/} adds no prog_tests/*.c"
missing=$(grep -vxF -f <(awk '{ print $1 }' "$out/list") "$out/own" || true)
[ -z "$missing" ] || die "config/selftests.list lacks the fixes' tests: $missing"
BTT_SRC=$tree BTT_ST_LIST=$out/list "$s/stbuild.sh" "$kb" >/dev/null

rc=0
# 1. The fixed kernel: every test of the subset.
rm -rf "$kb/selftests/vm"
BTT_VM_ALLOW=$out/list "$s/vmrun.sh" "$kb" >"$out/fixed.txt" || rc=1
echo "fixed kernel ($(tail -n 1 "$out/fixed.txt")):"
grep -E '^FAIL|^  [a-z_]+.*FAIL' "$out/fixed.txt" || true
# 2. The unpatched kernel: the fixes' tests fail exactly as listed.
rm -rf "$kb/selftests/vm-base"
BTT_VM_NAME=vm-base BTT_VM_IMAGE=$base_kb/arch/x86/boot/bzImage BTT_VM_ALLOW=$out/own \
	"$s/vmrun.sh" "$kb" >"$out/base.txt" || true
for f in $(flavours objects); do cp "$kb/selftests/vm-base/$f.log" "$out/base-$f.log"; done
echo "unpatched kernel, the fixes' tests ($(tail -n 1 "$out/base.txt")):"
python3 "$s/basefails.py" "$out" "$TOP/config/bpf-fixes-base" $(flavours objects) || rc=1
[ "$rc" = 0 ] && echo "fixes cell: passed" || echo "fixes cell: FAILED (see $out)"
exit "$rc"

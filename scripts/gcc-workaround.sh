#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the GCC 16 kernel with vmlinux type tags and one way around GCC's
# btf_type_tag bugs (scripts/gcc-tag-probe.sh), and measure it: the build's
# -Wattributes warnings, vmlinux's TYPE_TAG count, and btf_tag's user and
# percpu subtests in the VM (all three object flavours). NAME is a patch of
# config/gcc-workarounds/, applied on top of tags.patch (PAHOLE_HAS_BTF_TAG
# for GCC 16 and pahole 1.32) to the series' tree, in a worktree of its own.
# Usage: gcc-workaround.sh NAME. The kernel builds in
# $CACHE/kbuild-BASE-gcc-NAME; the results go to $CACHE/gccwa-BASE-NAME.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
need_tool git
name=${1:?usage: gcc-workaround.sh NAME (a patch of config/gcc-workarounds/ other than tags.patch)}
wa=$TOP/config/gcc-workarounds
[ -f "$wa/$name.patch" ] && [ "$name" != tags ] || die "no workaround config/gcc-workarounds/$name.patch"
src=$CACHE/linux-$BASE
[ "$(git -C "$src" symbolic-ref -q --short HEAD)" = series ] || die "$src is not on branch series; run scripts/apply.sh"
wt=$CACHE/gccwa-$BASE-$name/src
out=$CACHE/gccwa-$BASE-$name
kb=$CACHE/kbuild-$BASE-gcc-$name
need_disk "$CACHE" 6
mkdir -p "$out"
if [ -e "$wt/.git" ]; then git -C "$wt" checkout -q -f --detach series
else git -C "$src" worktree prune; git -C "$src" worktree add -q -f --detach "$wt" series; fi
for p in tags "$name"; do
	msg=$(git -C "$wt" apply --index "$wa/$p.patch" 2>&1) || die "$p.patch does not apply to $src (series): $msg"
done
s=$TOP/scripts
rc=0
BTT_SRC=$wt BTT_KCC=gcc BTT_KBUILD=$kb "$s/kbuild.sh" >"$out/kernel.txt" 2>&1 || rc=$?
grep -E '^CONFIG_(PAHOLE_HAS_BTF_TAG|USE_X86_SEG_SUPPORT)=' "$kb/.config" >"$out/config" || true
echo "$name: $(sed 's/^CONFIG_//' "$out/config" | paste -sd' ')"
for w in 'does not apply to functions' 'ignoring attributes applied to' 'non-enclosed address space'; do
	printf '  %-32s %s\n' "$w" "$(grep -c "$w" "$kb/build.log" || true)"
done
if [ "$rc" != 0 ]; then
	grep -m3 -E ' error: ' "$kb/build.log" | sed 's/^/  /'
	echo "$name: the kernel does not build, see $kb/build.log"
	exit 1
fi
echo "  $("$s/btfstat.sh" "$kb")"
echo btf_tag >"$out/list"
BTT_SRC=$wt BTT_ST_LIST=$out/list "$s/stbuild.sh" "$kb" >"$out/selftests.txt" 2>&1 ||
	die "selftests build failed, see $out/selftests.txt"
BTT_VM_ALLOW=$out/list "$s/vmrun.sh" "$kb" >"$out/vm.txt" 2>&1 || true
cp -a "$kb/selftests/vm" "$out/vm"
for f in $(flavours objects); do
	r=$(grep -E '^#[0-9]+/[0-9]+ +btf_tag/btf_type_tag_(user|percpu|sys_user)' "$out/vm/$f.log" |
		sed -E 's/^#[0-9/]+ +btf_tag\/btf_type_tag_//' | paste -sd' ')
	echo "  $f objects: ${r:-no btf_tag results, see $out/vm.txt}"
done

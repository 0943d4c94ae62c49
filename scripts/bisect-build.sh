#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Bisectability: build kernel/bpf/ at every patch of the series, with
# warnings as errors, in a separate tree and build dir, and libbpf and
# bpftool (-Werror) at every patch that touches them. The selftest patches
# are built by scripts/stbuild.sh at the top of the series.
# BTT_BISECT_VM=1: then, at every patch that touches the selftests, build the
# series' own selftests (btf_tag_conv*) as they are at that patch, in every
# object flavour, and run them in the VM on the kernel of the top of the
# series (the selftest patches change no kernel file). Each must pass.
# Needs scripts/kbuild.sh to have configured the first kernel of config/flavours
# (and, for BTT_BISECT_VM, built it with the series: scripts/run.sh).
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
"$TOP/scripts/apply.sh" >/dev/null
src=$CACHE/linux-$BASE
kb=$(kbuild_dir)
[ -f "$kb/.config" ] || die "no configured kernel build in $kb; run scripts/kbuild.sh"
tree=$src.bisect
out=$CACHE/kbuild-$BASE-bisect
base_worktree "$src" "$tree"
mkdir -p "$out"
cp "$kb/.config" "$out/.config"
mount_same "$tree"
mount_same "$out"
mk="make -s -C $tree O=$out -j$JOBS KCFLAGS=-Werror"
git -C "$tree" checkout -q -f --detach base
in_root "$tree" "$mk olddefconfig >/dev/null && $mk prepare" >"$out/build.log" 2>&1 ||
	{ tail -n 20 "$out/build.log" >&2; die "prepare failed at base"; }
fail=0
for c in $(git -C "$src" rev-list --reverse base..series); do
	git -C "$tree" checkout -q -f --detach "$c"
	s=$(git -C "$tree" log -1 --format=%s)
	tools=
	if git -C "$tree" show --name-only --format= HEAD | grep -q '^tools/\(lib/bpf\|bpf/bpftool\)/'; then
		tools="&& make -s -C tools/lib/bpf OUTPUT=$out/libbpf/ -j$JOBS EXTRA_CFLAGS=-Werror \
			&& make -s -C tools/bpf/bpftool OUTPUT=$out/bpftool/ -j$JOBS EXTRA_CFLAGS=-Werror"
		mkdir -p "$out/libbpf" "$out/bpftool"
	fi
	if in_root "$tree" "$mk kernel/bpf/ $tools" >"$out/build.log" 2>&1; then
		echo "ok - $s"
	else
		echo "FAIL - $s"; grep -E 'error|warning' "$out/build.log" | head -n 10; fail=1
	fi
done
[ "$fail" = 0 ] || exit 1
[ "${BTT_BISECT_VM:-0}" = 1 ] || exit 0

[ -f "$kb/arch/x86/boot/bzImage" ] || die "no kernel in $kb; run scripts/run.sh first"
for c in $(git -C "$src" rev-list --reverse base..series -- tools/testing/selftests/bpf); do
	git -C "$tree" checkout -q -f --detach "$c"
	s=$(git -C "$tree" log -1 --format=%s)
	git -C "$src" diff --quiet "$c" series -- . ':!tools/testing/selftests' ':!Documentation' ||
		die "$s: the kernel or libbpf still changes after it; the VM mode needs selftest patches last"
	(cd "$tree/tools/testing/selftests/bpf/prog_tests" && ls btf_tag_conv*.c 2>/dev/null) |
		sed 's/\.c$//' >"$out/st-list"
	[ -s "$out/st-list" ] || { echo "ok - $s (no series selftests yet)"; continue; }
	if ! BTT_SRC=$tree BTT_ST=selftests-bisect BTT_ST_LIST=$out/st-list \
		"$TOP/scripts/stbuild.sh" "$kb" >"$out/st.log" 2>&1; then
		echo "FAIL - $s: selftests build, see $out/st.log"; fail=1; continue
	fi
	BTT_ST=selftests-bisect BTT_VM_NAME=vm-bisect BTT_VM_ALLOW=$out/st-list \
		"$TOP/scripts/vmrun.sh" "$kb" >"$out/vm.log" 2>&1 || true
	res=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/vm.log" | tail -n1)
	case $res in
	*" passed, 0 failed"*) echo "ok - $s: $res" ;;
	*) echo "FAIL - $s: ${res:-no result}, see $out/vm.log"; fail=1 ;;
	esac
done
[ "$fail" = 0 ]

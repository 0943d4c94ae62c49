#!/usr/bin/env bash
# Bisectability: build kernel/bpf/ at every patch of the series, with
# warnings as errors, in a separate tree and build dir, and libbpf and
# bpftool (-Werror) at every patch that touches them. The selftest patches
# are built by scripts/stbuild.sh at the top of the series.
# Needs scripts/kbuild.sh to have configured the first kernel of config/flavours.
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
[ "$fail" = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the selftests subset (config/selftests.list, or config/BASE/'s) against a built kernel, in
# every object flavour of config/flavours (test_progs with Clang 21 objects,
# test_progs-bpf_gcc with GCC 16 objects, clang23/test_progs with Clang 23
# objects). The test modules and host programs are built by the kernel's own
# compiler, through ccache. Usage: stbuild.sh KBUILD_DIR. Prints the output
# dir, and stamps it with BTT_RUN (the run's id) once everything is built.
# BTT_SRC overrides the source tree, as for kbuild.sh; BTT_ST the output dir's
# name under KBUILD (default selftests); BTT_ST_LIST the subset's list.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
kb=${1:?usage: stbuild.sh KBUILD_DIR}
[ -f "$kb/vmlinux" ] || die "no vmlinux in $kb; build the kernel first"
# BTT_SRC: another source tree (an editing tree), as for kbuild.sh.
src=${BTT_SRC:-$CACHE/linux-$BASE}
# One source copy per kernel: the test modules are built inside it.
kname=${kb##*/}
copy=$CACHE/st-${kname#kbuild-}${BTT_ST:+-$BTT_ST}/src
out=$kb/${BTT_ST:-selftests}
st=$copy/tools/testing/selftests/bpf
need_disk "$CACHE" 3
mkdir -p "$copy" "$out"
rm -f "$out/.built"

# The selftests write generated files into their source: build in a copy.
rsync -a --exclude=/.git "$src/" "$copy/"

# Keep the subset's prog_tests and the progs they use; drop the rest. A list
# line is "TEST [PROG...]": PROGs (globs under progs/, without .c) are progs
# the test opens by a computed name. A skeleton that the Makefile links from
# several objects (X.skel.h-deps) keeps those objects' progs, and is the only
# kind of linked skeleton built.
keep=$(mktemp)
linked=
while read -r t extra; do
	f=$st/prog_tests/$t.c
	[ -f "$f" ] || die "selftest '$t' in config/selftests.list has no prog_tests/$t.c"
	echo "prog_tests/$t.c" >>"$keep"
	for g in $extra; do
		(cd "$st" && compgen -G "progs/$g.c") >>"$keep" ||
			die "'$g' of selftest '$t' matches no progs/*.c"
	done
	for s in $(grep -ohE '[A-Za-z0-9_]+\.skel\.h|"[A-Za-z0-9_]+\.bpf\.o"' "$f" | tr -d '"' | sort -u); do
		deps=$(sed -n "s/^${s//./\\.}-deps := //p" "$st/Makefile")
		if [ -n "$deps" ]; then
			linked="$linked $s"
			s=$deps
		fi
		printf '%s\n' $s | sed -E 's/\.skel\.h$|\.bpf\.o$//; s|^|progs/|; s|$|.c|' >>"$keep"
	done
done < <(list_file "${BTT_ST_LIST:-$(base_config selftests.list)}")
# Programs that #include another program's .c file need that one too.
for p in $(sort -u "$keep" | grep '^progs/'); do
	[ -f "$st/$p" ] || die "$p, used by the subset, does not exist"
	{ grep -ohE '#include "[A-Za-z0-9_]+\.c"' "$st/$p" || true; } |
		sed -E 's/#include "(.*)"/progs\/\1/' >>"$keep"
done
(cd "$st" && ls prog_tests/*.c progs/*.c) | { grep -vxF -f <(sort -u "$keep") || true; } |
	(cd "$st" && xargs -r rm -f)
rm -f "$keep"

mount_same "$copy"
mount_same "$kb"
kcc=$(cat "$kb/.kcc" 2>/dev/null) || die "$kb has no .kcc; build it with scripts/kbuild.sh"
cc=$(flavour kernel "$kcc" 1)
kvars=$(flavour kernel "$kcc" 2)
# build DIR ARGS...: one make of the subset into DIR, its log in DIR/build.log.
build() {
	local dir=$1; shift
	mkdir -p "$dir"
	note "building selftests in $dir"
	with_progress "selftests ($dir)" "$dir/build.log" \
		'echo "$(grep -cE "^ +(CC|CLNG-BPF|GCC-BPF|GEN-SKEL|BINARY)" "$dir/build.log") steps done"' \
		in_root "$st" "make $kvars CC='ccache $cc' HOSTCC='ccache $cc' O=$kb OUTPUT=$dir \
		LSKELS= LSKELS_SIGNED= LSKELS_EXTRA= LINKED_SKELS='${linked# }' -j$JOBS $*" ||
		{ grep -E 'error|Error' "$dir/build.log" | head -n 20 >&2; die "selftests build failed, see $dir/build.log"; }
}
# One make per output dir, with the make variables and runners of its flavours.
for o in $(for f in $(flavours objects); do flavour objects "$f" 1; done | awk '!seen[$0]++'); do
	vars= bins=
	for f in $(flavours objects); do
		[ "$(flavour objects "$f" 1)" = "$o" ] || continue
		vars="$vars $(flavour objects "$f" 4)"
		bins="$bins $(flavour objects "$f" 2)"
	done
	d=$out/$o
	[ "$o" != . ] || d=$out
	build "$d" $vars $bins
done
# "FILE TEST" for each test_progs test of the subset: a prog_tests file may
# name its tests otherwise (btf_sanitize.c holds btf_sanitize_layout).
(cd "$st/prog_tests" && grep -HoE '^void (serial_)?test_[A-Za-z0-9_]+\((void)?\)' ./*.c) |
	sed -E 's|^\./([^.]*)\.c:void (serial_)?test_([A-Za-z0-9_]+).*|\1 \3|' >"$out/tests"
echo "${BTT_RUN:-manual}" >"$out/.built"
echo "$out"

#!/usr/bin/env bash
# Build the selftests subset (config/selftests.list) against a built kernel, in
# three flavours: test_progs (Clang 21 objects), test_progs-bpf_gcc (GCC 16
# objects) and clang23/test_progs (Clang 23 objects).
# The test modules are built by the kernel's own compiler (LLVM=1 for a
# clang-built kernel). Usage: stbuild.sh KBUILD_DIR. Prints the output dir.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
kb=${1:?usage: stbuild.sh KBUILD_DIR}
[ -f "$kb/vmlinux" ] || die "no vmlinux in $kb; build the kernel first"
src=$CACHE/linux-$BASE
# One source copy per kernel: the test modules are built inside it.
copy=$CACHE/st-${kb##*/kbuild-}/src
out=$kb/selftests
st=$copy/tools/testing/selftests/bpf
need_disk "$CACHE" 3
mkdir -p "$copy" "$out"

# The selftests write generated files into their source: build in a copy.
rsync -a --exclude=/.git "$src/" "$copy/"

# Keep the subset's prog_tests and the progs they use; drop the rest.
mapfile -t tests < <(list_file "$TOP/config/selftests.list")
keep=$(mktemp)
for t in "${tests[@]}"; do
	f=$st/prog_tests/$t.c
	[ -f "$f" ] || die "selftest '$t' in config/selftests.list has no prog_tests/$t.c"
	echo "prog_tests/$t.c" >>"$keep"
	{ grep -ohE '[A-Za-z0-9_]+\.skel\.h|"[A-Za-z0-9_]+\.bpf\.o"' "$f" || true; } |
		sed -E 's/"//g; s/\.skel\.h$|\.bpf\.o$//; s|^|progs/|; s|$|.c|' >>"$keep"
done
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
llvm=
grep -qx 'CONFIG_CC_IS_CLANG=y' "$kb/.config" && llvm=LLVM=1
# build DIR ARGS...: one make of the subset into DIR, its log in DIR/build.log.
build() {
	local dir=$1; shift
	mkdir -p "$dir"
	note "building selftests in $dir"
	in_root "$st" "make $llvm O=$kb OUTPUT=$dir LSKELS= LSKELS_SIGNED= LSKELS_EXTRA= \
		LINKED_SKELS= -j$JOBS $*" >"$dir/build.log" 2>&1 ||
		{ grep -E 'error|Error' "$dir/build.log" | head -n 20 >&2; die "selftests build failed, see $dir/build.log"; }
}
build "$out" BPF_GCC=bpf-gcc test_progs test_progs-bpf_gcc
# A third flavour, Clang 23 objects (it tags typedefs of pointers), in its own dir.
build "$out/clang23" CLANG=clang-23 test_progs
echo "$out"

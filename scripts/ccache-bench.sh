#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What ccache saves on kernel rebuilds, on the first kernel of config/flavours
# (built already by scripts/run.sh). Two changes, each built cold (ccache
# disabled) and then undone and built warm (the objects are in the cache):
#   config: CONFIG_BPF_JIT_ALWAYS_ON toggled (include/linux/bpf.h and
#           filter.h test it, so every file that includes them rebuilds);
#   btf.c:  one line added to kernel/bpf/btf.c.
# Prints the times, the files compiled and the ratio warm/cold.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
s=$TOP/scripts
k=$(flavours kernel | head -n1)
kb=$(kbuild_dir "$k")
src=$CACHE/linux-$BASE
[ -f "$kb/vmlinux" ] || die "no built kernel in $kb; run scripts/run.sh first"
btf=$src/kernel/bpf/btf.c
cp "$btf" "$kb/.btf.c.orig"
cp "$kb/.config" "$kb/.config.orig"
# Undo both changes; btf.c gets a new mtime, so the next build compiles it.
restore() {
	cmp -s "$kb/.btf.c.orig" "$btf" || cp "$kb/.btf.c.orig" "$btf"
	cmp -s "$kb/.config.orig" "$kb/.config" || cp "$kb/.config.orig" "$kb/.config"
}
trap restore EXIT

# build LABEL: one kbuild.sh run; prints seconds and files compiled.
build() {
	local t0=$SECONDS
	BTT_KCC=$k "$s/kbuild.sh" >/dev/null 2>&1 || die "build '$1' failed, see $kb/build.log"
	printf '  %-26s %4ss, %4s files compiled\n' "$1" $((SECONDS - t0)) "$(grep -c '^  CC ' "$kb/build.log")"
}
mount_same "$src"
mount_same "$kb"
setcfg() { in_root "$src" "scripts/config --file $kb/.config $1 BPF_JIT_ALWAYS_ON && make -s -C $src O=$kb olddefconfig"; }

echo "kernel rebuilds in $kb:"
build "up to date"
setcfg --enable
BTT_CCACHE=0 build "config change, cold"
setcfg --disable
cmp -s "$kb/.config" "$kb/.config.orig" || die "the config did not come back to the original"
build "config change back, warm"
echo "/* ccache-bench */ static int __maybe_unused btt_ccache_bench;" >>"$btf"
BTT_CCACHE=0 build "btf.c change, cold"
restore
build "btf.c change back, warm"

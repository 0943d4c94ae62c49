#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the kernel in $CACHE/linux-$BASE (whatever is checked out there) out of
# tree, incrementally, with the sid root's compiler. Prints the build dir.
# BTT_KCC names the kernel compiler of config/flavours (default: its first).
# Compiles go through ccache ($CACHE/ccache). BTT_SRC and BTT_KBUILD override
# the source tree and the build dir (scripts/basecmp.sh). BTT_AS_SRC and
# BTT_AS_KBUILD: the compiler sees the tree and the build dir at these paths,
# another build's, so that ccache's results of that build serve this one
# (lib.sh base_kernel; the binds live in this script's mount namespace).
# BTT_KMODS: a dir of external module sources to build against the kernel too.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
src=${BTT_SRC:-$CACHE/linux-$BASE}
kcc=${BTT_KCC:-$(flavours kernel | head -n1)}
cc=$(flavour kernel "$kcc" 1)
vars=$(flavour kernel "$kcc" 2)
out=${BTT_KBUILD:-$(kbuild_dir "$kcc")}
frag=$TOP/config/x86_64.config
extra=$(flavour kernel "$kcc" 3 | tr , ' ')
# BTT_PLAIN=1: without the row's extra fragments (lib.sh base_kernel plain).
! flag "${BTT_PLAIN:-}" || extra=
[ -e "$src/.git" ] || die "no base tree at $src; run scripts/base.sh"
frags=$frag
# "@selftests": upstream BPF CI's config, as its vmtest.sh writes it.
up=
if [ "$extra" = @selftests ]; then
	up=$src/tools/testing/selftests/bpf
	frags="$up/config $up/config.x86_64 $up/config.vm"
	extra=
fi
for f in $frags; do [ -f "$f" ] || die "no $f (config/flavours, kernel $kcc)"; done
for f in $extra; do [ -f "$TOP/config/$f" ] || die "no config/$f (config/flavours, kernel $kcc)"; frags="$frags $TOP/config/$f"; done
need_disk "$CACHE" 3
mkdir -p "$out"
real_out=$out
if [ -n "${BTT_AS_SRC:-}" ]; then
	[ -n "${BTT_AS_KBUILD:-}" ] || die "BTT_AS_SRC needs BTT_AS_KBUILD"
	mkdir -p "$BTT_AS_SRC" "$BTT_AS_KBUILD"
	mount --bind "$src" "$BTT_AS_SRC"
	mount --bind "$out" "$BTT_AS_KBUILD"
	src=$BTT_AS_SRC out=$BTT_AS_KBUILD
fi
mount_same "$src"
mount_same "$out"
mount_same "$TOP"
mk="make -C $src O=$out $vars CC='ccache $cc' HOSTCC='ccache $cc'"

# Regenerate .config only when the fragment or the compiler changed.
stamp=$( (cat $frags; echo "$kcc $cc $vars") | sha256sum | cut -c1-16)
if [ "$(cat "$out/.frag-stamp" 2>/dev/null)" != "$stamp" ]; then
	note "configuring $out"
	if [ -n "$up" ]; then
		# shellcheck disable=SC2086 # the fragments are words
		cat $frags >"$out/.config"
		in_root "$src" "$mk -s olddefconfig >/dev/null 2>&1"
	else
		in_root "$src" "$mk -s tinyconfig >/dev/null && \
			KCONFIG_CONFIG=$out/.config scripts/kconfig/merge_config.sh -m -O $out $out/.config $frags >/dev/null && \
			$mk -s olddefconfig >/dev/null"
	fi
	# Every option the fragments ask for must have survived olddefconfig,
	# unless this tree has no such option (7.3 dropped PROC_SYSCTL).
	syms=$(find "$src" -name 'Kconfig*' -not -path '*/.git/*' -print0 |
		xargs -0 sed -nE 's/^[[:space:]]*(menu)?config[[:space:]]+([A-Z0-9_]+).*/CONFIG_\2/p' | sort -u)
	bad=$(cat $frags | grep -E '^CONFIG_[A-Z0-9_]+=' | while read -r l; do
		v=${l#*=}; k=${l%%=*}
		grep -qxF "$k" <<<"$syms" || { note "$k: no such option in this tree"; continue; }
		case $v in
		n) grep -q "^$k=" "$out/.config" && echo "$l" ;;
		*) grep -qxF "$l" "$out/.config" || echo "$l" ;;
		esac
	done)
	# Upstream's config asks for some options its own olddefconfig drops; it
	# is taken as upstream's CI takes it.
	if [ -n "$up" ] && [ -n "$bad" ]; then
		note "$(wc -l <<<"$bad") options of upstream's selftests config not set after olddefconfig (as in upstream's CI)"
	elif [ -n "$bad" ]; then
		die "config options not satisfied in $out/.config:
$bad"
	fi
	echo "$stamp" >"$out/.frag-stamp"
fi
echo "$kcc" >"$out/.kcc"
note "building kernel ($kcc) in $out"
with_progress "kernel ($kcc)" "$out/build.log" \
	'echo "$(grep -c "^  CC " "$out/build.log") files compiled"' \
	in_root "$src" "$mk -j$JOBS bzImage modules" ||
	{ tail -n 30 "$out/build.log" >&2; die "kernel build failed, see $real_out/build.log"; }
# BTT_KMODS: external modules (their sources in that dir) built against this kernel.
if [ -n "${BTT_KMODS:-}" ]; then
	mount_same "$BTT_KMODS"
	in_root "$src" "$mk M=$BTT_KMODS modules" >"$BTT_KMODS/build.log" 2>&1 ||
		{ tail -n 20 "$BTT_KMODS/build.log" >&2; die "modules in $BTT_KMODS failed to build against $real_out"; }
fi
echo "$real_out"

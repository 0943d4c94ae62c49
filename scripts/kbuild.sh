#!/usr/bin/env bash
# Build the kernel in $CACHE/linux-$BASE (whatever is checked out there) out of
# tree, incrementally, with the sid root's compiler. Prints the build dir.
# BTT_KCC names the kernel compiler of config/flavours (default: its first).
# Compiles go through ccache ($CACHE/ccache). BTT_SRC and BTT_KBUILD override
# the source tree and the build dir (scripts/basecmp.sh).
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
src=${BTT_SRC:-$CACHE/linux-$BASE}
kcc=${BTT_KCC:-$(flavours kernel | head -n1)}
cc=$(flavour kernel "$kcc" 1)
vars=$(flavour kernel "$kcc" 2)
out=${BTT_KBUILD:-$(kbuild_dir "$kcc")}
frag=$TOP/config/x86_64.config
[ -e "$src/.git" ] || die "no base tree at $src; run scripts/base.sh"
need_disk "$CACHE" 3
mkdir -p "$out"
mount_same "$src"
mount_same "$out"
mount_same "$TOP"
mk="make -C $src O=$out $vars CC='ccache $cc' HOSTCC='ccache $cc'"

# Regenerate .config only when the fragment or the compiler changed.
stamp=$( (cat "$frag"; echo "$kcc $cc $vars") | sha256sum | cut -c1-16)
if [ "$(cat "$out/.frag-stamp" 2>/dev/null)" != "$stamp" ]; then
	note "configuring $out"
	in_root "$src" "$mk -s tinyconfig >/dev/null && \
		KCONFIG_CONFIG=$out/.config scripts/kconfig/merge_config.sh -m -O $out $out/.config $frag >/dev/null && \
		$mk -s olddefconfig >/dev/null"
	# Every option the fragment asks for must have survived olddefconfig.
	bad=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | while read -r l; do
		v=${l#*=}; k=${l%%=*}
		case $v in
		n) grep -q "^$k=" "$out/.config" && echo "$l" ;;
		*) grep -qxF "$l" "$out/.config" || echo "$l" ;;
		esac
	done)
	[ -z "$bad" ] || die "config options not satisfied in $out/.config:
$bad"
	echo "$stamp" >"$out/.frag-stamp"
fi
echo "$kcc" >"$out/.kcc"
note "building kernel ($kcc) in $out"
with_progress "kernel ($kcc)" "$out/build.log" \
	'echo "$(grep -c "^  CC " "$out/build.log") files compiled"' \
	in_root "$src" "$mk -j$JOBS bzImage modules" ||
	{ tail -n 30 "$out/build.log" >&2; die "kernel build failed, see $out/build.log"; }
echo "$out"

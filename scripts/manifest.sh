#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the exact versions of every tool in the sid root and on the host, and a
# "drift:" line for each that differs from config/toolchain.lock. Drift fails
# (exit 1) only with BTT_STRICT_VERSIONS=1: sid moves.
. "$(dirname "$0")/lib.sh"

ver() {
	case $1 in
	host:*) dpkg-query -W -f='${Version}' "${1#host:}" 2>/dev/null || echo missing ;;
	*) chroot "$ROOT" dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo missing ;;
	esac
}
run() { chroot "$ROOT" env PATH="$ROOT_PATH" "$@" 2>/dev/null | head -n1; }
echo "manifest:"
drift=0
while read -r p want _; do
	case $p in linux-source-*) continue ;; esac
	have=$(ver "$p")
	printf '  %-20s %s\n' "$p" "$have"
	[ "$have" = "$want" ] || { echo "drift: $p locked $want, have $have"; drift=1; }
done < <(list_file "$LOCK")
printf '  %-20s %s\n' bpf-gcc "$(run bpf-gcc --version)"
printf '  %-20s %s\n' gcc "$(run gcc --version)"
printf '  %-20s %s\n' clang "$(run clang --version)"
printf '  %-20s %s\n' clang-23 "$(run clang-23 --version)"
printf '  %-20s %s\n' qemu "$(qemu-system-x86_64 --version | head -n1)"
if [ -f "$CACHE/base-$BASE.version" ]; then
	printf '  %-20s %s\n' "base" "$(cat "$CACHE/base-$BASE.version")"
fi
if [ "$drift" = 1 ] && flag "${BTT_STRICT_VERSIONS:-}"; then
	die "versions differ from $LOCK (BTT_STRICT_VERSIONS is set)"
fi
exit 0

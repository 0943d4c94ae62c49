#!/usr/bin/env bash
# Print the exact versions of every tool in the sid root and on the host.
. "$(dirname "$0")/lib.sh"

ver() { chroot "$ROOT" dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo missing; }
echo "manifest:"
for p in gcc-bpf binutils-bpf clang clang-23 llvm lld pahole bpftool libbpf-dev gcc make; do
	printf '  %-14s %s\n' "$p" "$(ver "$p")"
done
printf '  %-14s %s\n' bpf-gcc "$(chroot "$ROOT" bpf-gcc --version 2>/dev/null | head -n1)"
printf '  %-14s %s\n' clang "$(chroot "$ROOT" clang --version 2>/dev/null | head -n1)"
printf '  %-14s %s\n' clang-23 "$(chroot "$ROOT" clang-23 --version 2>/dev/null | head -n1)"
printf '  %-14s %s\n' qemu "$(qemu-system-x86_64 --version | head -n1)"
[ -f "$CACHE/base-$BASE.version" ] && printf '  %-14s %s\n' "base" "$(cat "$CACHE/base-$BASE.version")"
exit 0

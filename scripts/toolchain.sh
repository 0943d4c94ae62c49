#!/usr/bin/env bash
# Create (idempotently) the Debian sid root that builds everything, install the
# host prerequisites, and print a manifest of exact tool versions.
. "$(dirname "$0")/lib.sh"

SID_PKGS="gcc-bpf binutils-bpf clang llvm lld clang-23 pahole bpftool libbpf-dev
libelf-dev zlib1g-dev libcap-dev gcc make bc flex bison libssl-dev openssl cpio
python3 python3-ply perl kmod busybox-static ccache rsync xz-utils"

need_root
need_disk "$CACHE" 6

missing=
command -v debootstrap >/dev/null || missing="$missing debootstrap"
command -v qemu-system-x86_64 >/dev/null || missing="$missing qemu-system-x86"
command -v rsync >/dev/null || missing="$missing rsync"
# BTT_NO_HOST_INSTALL=1: report missing host tools instead of installing them.
if [ -n "$missing" ] && [ -z "${BTT_NO_HOST_INSTALL:-}" ]; then
	note "installing host packages:$missing"
	need_tool apt-get "the host must be Debian-like"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null ||
		{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null; } ||
		die "host apt could not install:$missing"
fi
need_tool debootstrap
need_tool qemu-system-x86_64
need_tool rsync

if [ ! -e "$ROOT/.debootstrap-done" ]; then
	note "debootstrap sid into $ROOT"
	rm -rf "$ROOT"
	debootstrap --variant=minbase sid "$ROOT" >"$CACHE/debootstrap.log" 2>&1 ||
		die "debootstrap failed, see $CACHE/debootstrap.log"
	# The mirror is a dated snapshot: its Release files are past Valid-Until.
	echo 'Acquire::Check-Valid-Until "false";' >"$ROOT/etc/apt/apt.conf.d/99snapshot"
	touch "$ROOT/.debootstrap-done"
fi

want=$(echo $SID_PKGS | tr ' ' '\n' | sort | tr '\n' ' ')
if [ "$(cat "$ROOT/.pkgs-done" 2>/dev/null)" != "$want" ]; then
	note "installing sid packages"
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
	chroot "$ROOT" sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends $want" >"$CACHE/apt.log" 2>&1 ||
		die "apt-get in the sid root failed, see $CACHE/apt.log"
	chroot "$ROOT" apt-get clean
	echo "$want" >"$ROOT/.pkgs-done"
fi
need_sid_root

"$TOP/scripts/manifest.sh"

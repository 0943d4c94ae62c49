#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Create (idempotently) the Debian sid root that builds everything, install the
# host prerequisites, and print a manifest of exact tool versions, with a
# "drift:" line for each that differs from config/toolchain.lock.
. "$(dirname "$0")/lib.sh"

# Named compiler versions, not the moving "clang"/"gcc" metapackages; the
# unversioned names are links in /usr/local/bin (made below).
SID_PKGS="gcc-bpf binutils-bpf gcc-16 clang-21 llvm-21 lld-21 clang-23 pahole
bpftool libbpf-dev libelf-dev zlib1g-dev libcap-dev make bc flex bison libssl-dev
openssl cpio python3 python3-ply python3-git perl kmod busybox-static ccache rsync xz-utils"
# Host tools the harness runs, as "command:package" (a path for files).
HOST_TOOLS="debootstrap:debootstrap qemu-system-x86_64:qemu-system-x86 rsync:rsync
python3:python3 git:git dpkg-deb:dpkg xz:xz-utils setpriv:util-linux
mountpoint:util-linux unshare:util-linux findmnt:util-linux timeout:coreutils
pgrep:procps
/usr/share/keyrings/debian-archive-keyring.gpg:debian-archive-keyring"

need_root

have() { case $1 in /*) [ -e "$1" ] ;; *) command -v "$1" >/dev/null 2>&1 ;; esac; }
missing=
for t in $HOST_TOOLS; do have "${t%%:*}" || missing="$missing ${t#*:}"; done
missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
# Host packages are installed only when asked (BTT_HOST_INSTALL=1: run.sh and
# test.sh ask); otherwise a missing one is reported.
if [ -n "${missing// /}" ] && flag "${BTT_HOST_INSTALL:-}"; then
	note "installing host packages: $missing"
	need_tool apt-get "the host must be Debian-like"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null ||
		{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null; } ||
		die "host apt could not install: $missing"
fi
for t in $HOST_TOOLS; do
	have "${t%%:*}" || die "missing tool '${t%%:*}' (host package ${t#*:}; BTT_HOST_INSTALL=1 installs it)"
done
need_disk "$CACHE" 6

if [ ! -e "$ROOT/.debootstrap-done" ]; then
	note "debootstrap sid into $ROOT"
	# BTT_ROOT is the user's to set: only a folder this script made (its
	# mark .btt-root) or an empty one is ever removed.
	if [ -e "$ROOT" ] && [ ! -e "$ROOT/.btt-root" ] && [ -n "$(ls -A "$ROOT" 2>/dev/null)" ]; then
		die "$ROOT holds files but is no sid root of the harness (no .btt-root): not removing it; set BTT_ROOT to another folder"
	fi
	rm -rf --one-file-system "$ROOT"
	mkdir -p "$ROOT" && touch "$ROOT/.btt-root"
	debootstrap --variant=minbase sid "$ROOT" >"$CACHE/debootstrap.log" 2>&1 ||
		die "debootstrap failed, see $CACHE/debootstrap.log"
	# The mirror is a dated snapshot: its Release files are past Valid-Until.
	echo 'Acquire::Check-Valid-Until "false";' >"$ROOT/etc/apt/apt.conf.d/99snapshot"
	touch "$ROOT/.debootstrap-done"
fi

# The locked version of each package where the archive still has it; the
# others at the archive's version (manifest.sh prints their drift).
pinned() {
	local p v
	for p in $SID_PKGS; do
		read -r v _ < <(lock_entry "$p") || v=
		if [ -n "$v" ] && chroot "$ROOT" apt-cache show "$p=$v" >/dev/null 2>&1; then echo "$p=$v"; else echo "$p"; fi
	done | sort | tr '\n' ' '
}
want=$(echo $SID_PKGS | tr ' ' '\n' | sort | tr '\n' ' ')
if [ "$(cat "$ROOT/.pkgs-done" 2>/dev/null)" != "$want" ]; then
	note "installing sid packages"
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
	chroot "$ROOT" apt-get update -q >"$CACHE/apt.log" 2>&1 || die "apt-get update in the sid root failed, see $CACHE/apt.log"
	pins=$(pinned)
	chroot "$ROOT" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $pins" \
		>>"$CACHE/apt.log" 2>&1 || {
		note "the locked versions do not install together; installing the archive's (see the drift lines)"
		chroot "$ROOT" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $want" \
			>>"$CACHE/apt.log" 2>&1
	} || die "apt-get in the sid root failed, see $CACHE/apt.log"
	chroot "$ROOT" apt-get clean
	echo "$want" >"$ROOT/.pkgs-done"
fi
# The unversioned names (clang, ld.lld, llvm-strip, gcc, cc, ...) are the
# pinned versions: in_root puts /usr/local/bin first in PATH.
chroot "$ROOT" sh -c 'for f in /usr/lib/llvm-21/bin/*; do ln -sfn "$f" /usr/local/bin/; done
	for t in gcc cpp gcc-ar gcc-nm gcc-ranlib; do ln -sfn /usr/bin/$t-16 /usr/local/bin/$t; done
	ln -sfn /usr/bin/gcc-16 /usr/local/bin/cc' || die "could not link the pinned compilers"
need_sid_root

"$TOP/scripts/manifest.sh"

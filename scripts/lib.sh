# shellcheck shell=bash
# Common settings for the harness scripts. Sourced, never run.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Caches live outside the checkout; BTT_CACHE overrides the location.
CACHE=${BTT_CACHE:-/var/cache/btf-type-tags}
ROOT=${BTT_ROOT:-$CACHE/sid}
# The base kernel: "7.2" (sid's linux-source-7.2) or "6.12" (the host's).
BASE=${BTT_BASE:-7.2}
JOBS=${BTT_JOBS:-$(nproc)}

die() { echo "error: $*" >&2; exit 1; }
note() { echo "== $*" >&2; }

need_root() { [ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot and bind mounts need it)"; }

need_tool() {
	command -v "$1" >/dev/null 2>&1 || die "missing tool '$1'${2:+ ($2)}"
}

# need_disk DIR GiB: fail early rather than in the middle of a build.
need_disk() {
	local dir=$1 want=$2 have
	mkdir -p "$dir"
	have=$(df -P -BM "$dir" | awk 'NR == 2 { sub("M", "", $4); print $4 }')
	[ "$have" -ge $((want * 1024)) ] || die "need ${want} GiB free under $dir, have ${have} MiB"
}

need_sid_root() {
	[ -x "$ROOT/usr/bin/bpf-gcc" ] || [ -x "$ROOT/usr/bin/bpf-unknown-none-gcc" ] ||
		die "no sid root with bpf-gcc at $ROOT; run scripts/toolchain.sh first"
}

# in_root DIR CMD...: run CMD inside the sid root with DIR bind-mounted at the same path.
in_root() {
	local dir=$1; shift
	mount_same "$dir"
	chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		CCACHE_DIR="$CACHE/ccache" sh -c "cd '$dir' && $*"
}

# mount_same DIR: bind DIR into the root at the same path, once.
mount_same() {
	local dir=$1
	mkdir -p "$ROOT$dir"
	# A bind of a directory that was since replaced (a new base tree) is stale.
	if mountpoint -q "$ROOT$dir" &&
		[ "$(stat -c %d:%i "$dir")" != "$(stat -c %d:%i "$ROOT$dir" 2>/dev/null)" ]; then
		umount -l "$ROOT$dir"
	fi
	mountpoint -q "$ROOT$dir" || mount --bind "$dir" "$ROOT$dir"
	mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
	mountpoint -q "$ROOT/dev" || mount --bind /dev "$ROOT/dev"
}

# base_worktree SRC DIR: a detached git worktree of the base tree SRC at DIR,
# created once and reused.
base_worktree() {
	[ -e "$2/.git" ] || git -C "$1" worktree add -q -f --detach "$2" base
}

# list_file FILE: the entries of a list file, without comments and blank lines.
list_file() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^[[:space:]]*$/d' "$1"; }

# patch_files DIR: the numbered patches in DIR, without the cover letter.
patch_files() {
	(cd "$1" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '^0000-cover-letter.patch$' || true)
}

# Stage timing: stage NAME starts a stage and closes the previous one.
STAGE_FILE=${STAGE_FILE:-}
stage() {
	local now; now=$(date +%s)
	if [ -n "${STAGE_NAME:-}" ] && [ -n "$STAGE_FILE" ]; then
		printf '%-10s %5ss\n' "$STAGE_NAME" $((now - STAGE_T0)) >>"$STAGE_FILE"
	fi
	STAGE_NAME=${1:-}; STAGE_T0=$now
	[ -z "$STAGE_NAME" ] || note "stage: $STAGE_NAME"
}

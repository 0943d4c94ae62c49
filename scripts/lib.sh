# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Common settings for the harness scripts. Sourced, never run.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Caches live outside the checkout; BTT_CACHE overrides the location.
CACHE=${BTT_CACHE:-/var/cache/btf-type-tags}
ROOT=${BTT_ROOT:-$CACHE/sid}
# The base kernels are the rows of config/bases (BTT_BASES: another table,
# for the harness checks); BTT_BASE picks one, default the first row.
BASES=${BTT_BASES:-$TOP/config/bases}
DEFAULT_BASE=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$BASES" | awk '{ print $1; exit }')
BASE=${BTT_BASE:-$DEFAULT_BASE}
JOBS=${BTT_JOBS:-$(nproc)}
LOCK=${BTT_LOCK:-$TOP/config/toolchain.lock}
FLAVOURS=$TOP/config/flavours
# PATH inside the sid root: toolchain.sh links the pinned compilers into
# /usr/local/bin, so it comes first.
ROOT_PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# Every mount the harness makes (binds into the sid root, /proc, /dev) lives in
# a private mount namespace of the script that made it (BTT_NS is its pid), so
# it is gone when that script ends, however it ends: nothing is left for an
# rm -rf of the cache to descend into. A script called by another gets a
# namespace of its own inside its caller's. scripts/clean.sh sets BTT_NS=host
# before sourcing this file: it works on the caller's own mounts.
if [ "${BTT_NS:-}" != "$$" ] && [ "${BTT_NS:-}" != host ] && [ "$(id -u)" = 0 ]; then
	# Only a script that sources this file at its top can be run again.
	if [[ $- == *i* ]] || ! [ "${BASH_SOURCE[1]:-}" -ef "$0" ]; then
		echo "error: scripts/lib.sh is sourced by the harness scripts; run one of them (scripts/btt help)" >&2
		return 1 2>/dev/null || exit 1
	fi
	command -v unshare >/dev/null 2>&1 || { echo "error: missing tool 'unshare' (util-linux)" >&2; exit 1; }
	BTT_NS=$$ exec unshare -m --propagation private "$BASH" $([[ $- == *x* ]] && echo -x) "$0" "$@"
fi
export BTT_NS

# Paths go into chroot "sh -c" strings (in_root): checked once, here.
case "$TOP$CACHE$ROOT" in
*[\'\"\$\`\\[:space:]]*) echo "error: the checkout, BTT_CACHE and BTT_ROOT must not hold spaces, quotes, \$, \` or \\: $TOP $CACHE $ROOT" >&2; exit 1 ;;
esac

# cache_lock: one harness run at a time per cache. Every script that runs as
# root holds the cache's lock on fd 8 (taken here as it is sourced) and
# passes it on to the scripts it runs, which find it held by the same open
# file and go on. A second run refuses at once, naming the first.
cache_lock() {
	if ! [ "$(readlink "/proc/$$/fd/8" 2>/dev/null)" -ef "$CACHE/.lock" ] 2>/dev/null; then
		mkdir -p "$CACHE"
		exec 8>>"$CACHE/.lock"
	fi
	if ! flock -n 8; then
		echo "error: another harness run holds $CACHE/.lock ($(cat "$CACHE/.lock.who" 2>/dev/null || echo unknown)); wait for it to end" >&2
		exit 1
	fi
	: "${BTT_LOCK_WHO:=pid $$: ${0##*/}}"
	[ "$(cat "$CACHE/.lock.who" 2>/dev/null)" = "$BTT_LOCK_WHO" ] || echo "$BTT_LOCK_WHO" >"$CACHE/.lock.who"
	export BTT_LOCK_WHO
}
if [ "$(id -u)" = 0 ] && [ "${BTT_NS:-}" != host ]; then cache_lock; fi

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
	# The cache's mark: scripts/clean.sh removes only marked folders.
	[ "$dir" != "$CACHE" ] || touch "$CACHE/.btt-cache"
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
	mkdir -p "$CACHE/ccache"
	mount_same "$CACHE/ccache"
	chroot "$ROOT" env -i PATH="$ROOT_PATH" HOME=/root \
		LANG=C.UTF-8 CCACHE_DIR="$CACHE/ccache" CCACHE_MAXSIZE=8G \
		$([ "${BTT_CCACHE:-}" != 0 ] || echo CCACHE_DISABLE=1) sh -c "cd '$dir' && $*"
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
# created once and reused. A scratch worktree of an earlier base tree (base.sh
# replaced SRC) is removed and made again.
base_worktree() {
	local common
	if [ -e "$2/.git" ]; then
		common=$(git -C "$2" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) || common=
		[ -n "$common" ] && [ "$common" -ef "$1/.git" ] && return 0
		note "$2 is a worktree of an earlier base tree; making it again"
		rm -rf "$2"
	fi
	git -C "$1" worktree prune
	git -C "$1" worktree add -q -f --detach "$2" base
}

# base_kernel KBUILD [plain]: build the base tree, unpatched, into KBUILD-base
# with the same compiler and config (incremental); prints that dir. The
# compiler sees the base tree and KBUILD-base at the paths of the series' tree
# and KBUILD, so ccache serves every file the series does not change (few:
# the UAPI btf.h changes). "plain": into KBUILD-base-plain, without the kernel
# row's extra config fragments (the sanitizers), which compiles faster.
base_kernel() {
	local kcc
	kcc=$(cat "$1/.kcc" 2>/dev/null) || die "no kernel built in $1"
	base_tree
	base_build "$1" "$kcc" "${2:-}"
}

# base_tree: the base tree, unpatched, at $CACHE/linux-BASE.base.
base_tree() {
	local src=$CACHE/linux-$BASE
	base_worktree "$src" "$src.base"
	git -C "$src.base" checkout -q -f --detach base
}

# base_build KBUILD KCC [plain]: base_kernel's build alone, for the kernel
# row KCC (KBUILD need not exist yet), after base_tree.
base_build() {
	local src=$CACHE/linux-$BASE dir=$1-base
	[ "${3:-}" != plain ] || dir=$1-base-plain
	BTT_KCC=$2 BTT_PLAIN=$([ "${3:-}" = plain ] && echo 1 || echo 0) BTT_SRC=$src.base \
		BTT_KBUILD=$dir BTT_AS_SRC=$src BTT_AS_KBUILD=$1 "$TOP/scripts/kbuild.sh"
}

# base_kmods KBUILD: the selftests' test modules (bpf_testmod, ...) built
# against KBUILD's base kernel (base_kernel, whose dir it prints), into
# KBUILD/ST/kmods-base (ST: BTT_ST or selftests), where vmrun.sh's
# BTT_VM_KMODS finds them: modules built for the patched kernel do not load
# on the base one (another version magic, another vmlinux BTF).
base_kmods() {
	local kname=${1##*/} st=$1/${BTT_ST:-selftests} src dir b
	src=$CACHE/st-${kname#kbuild-}${BTT_ST:+-$BTT_ST}/src/tools/testing/selftests/bpf
	# 6.12 keeps them in bpf_testmod/
	if [ -d "$src/test_kmods" ]; then src=$src/test_kmods; else src=$src/bpf_testmod; fi
	[ -d "$src" ] || die "no test modules at $src; build the selftests first"
	dir=$CACHE/kmods-${kname#kbuild-}-base
	rm -rf "$dir"; mkdir -p "$dir"
	cp "$src"/Makefile "$src"/*.[ch] "$dir/"
	b=$(BTT_KMODS=$dir base_kernel "$1")
	rm -rf "$st/kmods-base"; mkdir -p "$st/kmods-base"
	cp "$dir"/*.ko "$st/kmods-base/"
	echo "$b"
}

# flavours KIND: the names of the kernel compilers (KIND "kernel") or BPF object
# flavours (KIND "objects") in config/flavours, in order.
flavours() { list_file "$FLAVOURS" | awk -v k="$1" '$1 == k { print $2 }'; }

# flavour KIND NAME FIELD: field FIELD (1 is the first after NAME, as named by
# the header comment of config/flavours) of a row; "-" means empty.
flavour() {
	list_file "$FLAVOURS" | awk -v k="$1" -v n="$2" -v f="$3" '
		$1 == k && $2 == n { v = $(f + 2); if (v == "-") v = ""; print v; found = 1 }
		END { exit !found }' || die "no $1 flavour '$2' in config/flavours"
}

# plan_line FLAVOUR: the guest's plan line (scripts/guest-init) that runs
# FLAVOUR's test_progs in its output dir.
plan_line() { echo "$1 /mnt/st/$(flavour objects "$1" 1) ./$(flavour objects "$1" 2)"; }

# guest_progress V: the run the guest of vmrun.sh's dir V is in and how many
# results it has written. The serial console ends its lines with CR.
guest_progress() {
	local r n
	r=$(tr -d '\r' <"$1/console.log" | sed -n 's/^btt-init: run //p' | tail -n1)
	n=$(grep -c '^#' "$1/$r.log" 2>/dev/null) || true
	echo "guest running ${r:-nothing yet}${r:+, ${n:-0} results}"
}

# kernels: the kernel compilers of a run, BTT_KERNELS or every kernel row of
# config/flavours but those whose RUN is "own" (built only when named).
kernels() {
	echo "${BTT_KERNELS:-$(list_file "$FLAVOURS" | awk '$1 == "kernel" && $6 != "own" { print $2 }' | paste -sd' ')}"
}

# test_kernels: the kernel compilers of the test command, BTT_KERNELS or the
# kernel rows of config/flavours whose RUN is "test".
test_kernels() {
	echo "${BTT_KERNELS:-$(list_file "$FLAVOURS" | awk '$1 == "kernel" && $6 == "test" { print $2 }' | paste -sd' ')}"
}

# kbuild_dir [KCC]: the build dir of kernel compiler KCC (default: the first
# kernel row of config/flavours).
kbuild_dir() { echo "$CACHE/kbuild-$BASE-${1:-$(flavours kernel | head -n1)}"; }

# lock_entry PKG: "VERSION SHA256" of PKG in config/toolchain.lock (either
# empty if not pinned).
lock_entry() { list_file "$LOCK" | awk -v p="$1" '$1 == p { sub("sha256:", "", $3); print $2, $3; exit }'; }

# list_file FILE: the entries of a list file, without comments and blank lines.
list_file() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^[[:space:]]*$/d' "$1"; }

# list_tests LIST ST: the test_progs tests of LIST's entries, from the file
# ST/tests that stbuild.sh writes ("FILE TEST" lines); an entry that is not
# there is taken as a test name.
list_tests() {
	list_file "$1" | awk -v t="$2/tests" '
		BEGIN { while ((getline l < t) > 0) { split(l, w, " "); tests[w[1]] = tests[w[1]] " " w[2] } }
		{ n = split($1 in tests ? tests[$1] : $1, a, " "); for (i = 1; i <= n; i++) print a[i] }'
}

# base_field FIELD: a column of BASE's row in config/bases (PACKAGE, VERSION,
# SHA256, ARCHIVE, SERIES or EXPECTED, as named in its header).
base_field() {
	local col
	case $1 in
	PACKAGE) col=2 ;; VERSION) col=3 ;; SHA256) col=4 ;; ARCHIVE) col=5 ;; SERIES) col=6 ;; EXPECTED) col=7 ;; PREREQ) col=8 ;;
	*) die "base_field: no column $1" ;;
	esac
	list_file "$BASES" | awk -v b="$BASE" -v c="$col" '$1 == b { print $c; f = 1; exit } END { exit !f }' ||
		die "no base '$BASE' in ${BASES#"$TOP"/} (bases: $(list_file "$BASES" | awk '{ print $1 }' | paste -sd' '))"
}

# series_dirs: BASE's patch dirs (config/bases SERIES), most specific first,
# one per line; BTT_PATCHES (one dir) replaces them.
series_dirs() {
	if [ -n "${BTT_PATCHES:-}" ]; then echo "$BTT_PATCHES"; return; fi
	base_field SERIES | tr , '\n' | sed "s|^|$TOP/|"
}

# series_dir: the dir whose series file and cover letter BASE's series uses
# (the last of series_dirs).
series_dir() { series_dirs | tail -n 1; }

# prereq_dirs: the dirs of the series applied before BASE's (config/bases
# PREREQ), one per line; none with BTT_PATCHES.
prereq_dirs() {
	[ -z "${BTT_PATCHES:-}" ] || return 0
	base_field PREREQ | tr , '\n' | grep -vx -- - | sed "s|^|$TOP/|" || true
}

# is_prereq DIR: DIR is a prerequisite series of some base (a fix series
# for the bpf tree).
is_prereq() {
	list_file "$BASES" | awk '{ print $8 }' | tr , '\n' | grep -qxF "${1#"$TOP"/}"
}

# prereq_patches: the patches of prereq_dirs in order, as paths.
prereq_patches() {
	local p d
	for d in $(prereq_dirs); do
		for p in $(list_file "$d/series"); do echo "$d/$p"; done
	done
}

# series_patches: BASE's patches in order, as paths: prereq_patches, then
# each name of series_dir's series file, from the first of series_dirs that
# has it.
series_patches() {
	local p d
	prereq_patches
	for p in $(list_file "$(series_dir)/series"); do
		for d in $(series_dirs); do
			if [ -f "$d/$p" ]; then echo "$d/$p"; continue 2; fi
		done
		echo "$(series_dir)/$p"
	done
}

# override_dir: the dir of BASE's patches whose context differs from the
# primary series (the first of two series dirs), or nothing.
override_dir() { [ "$(series_dirs | wc -l)" -lt 2 ] || series_dirs | head -n 1; }

# same_series: BASE's series makes the primary series' changes (it ends in
# patches/), so it adds the same files; a backport (6.12) is a series of its own.
same_series() { [ "$(base_field SERIES | tr , '\n' | tail -n 1)" = patches ]; }

# base_config NAME: config/BASE/NAME if that exists (a backport's own
# subset, denylists and base failures), else config/NAME.
base_config() {
	if [ -f "$TOP/config/$BASE/$1" ]; then echo "$TOP/config/$BASE/$1"; else echo "$TOP/config/$1"; fi
}

# conv_verdicts FLAVOUR LOG: "FLAVOUR PROGRAM COMPILED CONVERTED" for each
# kptr_/read_ program of a test_progs LOG: its verdict in btf_tag_conv_kptr
# or _user (the compiler's object) and in btf_tag_conv_obj (the object
# converted to the attribute convention; "none" if it did not run).
conv_verdicts() {
	awk -v f="$1" '
		match($0, /^#[0-9]+\/[0-9]+ +btf_tag_conv_(kptr|user|obj)\/(kptr|read)_[a-z_]+:[A-Z]+/) {
			split(substr($0, RSTART, RLENGTH), a, /[ \/:]+/)
			if (a[3] == "btf_tag_conv_obj") conv[a[4]] = a[5]; else orig[a[4]] = a[5]
		}
		END { for (n in orig) print f, n, orig[n], (n in conv) ? conv[n] : "none" }' "$2" | sort
}

# expected_dir: the expected results of BASE's cells (config/bases EXPECTED).
expected_dir() { echo "$TOP/$(base_field EXPECTED)"; }

# patch_body PATCH: its diff without index lines and hunk line numbers, the
# part that tells whether an override's context differs from its patch's.
patch_body() { sed -n '/^diff --git /,$p' "$1" | grep -v '^index ' | sed 's/^@@ [^@]* @@/@@/'; }

# patch_files DIR: the numbered patches in DIR, without the cover letter.
patch_files() {
	(cd "$1" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '^0000-cover-letter.patch$' || true)
}

# flag VALUE: true for a set switch (BTT_VM_SHELL=1); unset, empty and 0 are off.
flag() { [ "${1:-0}" != 0 ]; }

# kill_tree PID: PID and every process below it.
kill_tree() {
	local c
	for c in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$c"; done
	kill "$1" 2>/dev/null || true
}

# with_progress LABEL LOG COUNT CMD...: run CMD with its output in LOG, and
# every BTT_PROGRESS seconds (default 30) print LABEL, the output of the shell
# snippet COUNT and the time so far. Returns CMD's status. On SIGINT or
# SIGTERM, CMD and everything it started are killed.
with_progress() {
	local label=$1 log=$2 count=$3 pid= rc=0 t0=$SECONDS next; shift 3
	next=$((SECONDS + ${BTT_PROGRESS:-30}))
	# The trap first: a signal as the command starts still ends it ($! is
	# the command's pid as soon as it is forked, before pid is set).
	trap 'pid=${pid:-${!:-}}; [ -z "$pid" ] || kill_tree "$pid"; exit 130' INT TERM
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ "$SECONDS" -ge "$next" ]; then
			note "$label: $(eval "$count") after $((SECONDS - t0))s"
			next=$((SECONDS + ${BTT_PROGRESS:-30}))
		fi
	done
	trap - INT TERM
	wait "$pid" || rc=$?
	return "$rc"
}

# run_dir: the folder of this run, $CACHE/runs/DATE-N, made once per run and
# shared with child scripts through BTT_RUN. Stage logs, console logs, the
# report and the manifest go there; nothing is overwritten by a later run.
run_dir() {
	if [ -z "${BTT_RUN:-}" ]; then
		local d n=1
		d=$CACHE/runs/$(date +%Y%m%d)
		mkdir -p "$CACHE/runs"
		while ! mkdir "$d-$n" 2>/dev/null; do n=$((n + 1)); done
		BTT_RUN=$d-$n
		# runs/latest: the newest run (btt bless runs/latest).
		ln -sfn "${BTT_RUN##*/}" "$CACHE/runs/latest"
	fi
	mkdir -p "$BTT_RUN"
	export BTT_RUN
}

# step NAME CMD...: run CMD with its stdout in $BTT_RUN/NAME.out and its
# stderr both here and in $BTT_RUN/NAME.log.
step() {
	local name=$1; shift
	"$@" >"$BTT_RUN/$name.out" 2> >(tee -a "$BTT_RUN/$name.log" >&2)
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

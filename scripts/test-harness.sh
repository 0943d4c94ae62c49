#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Checks of the harness itself: bad input gets a clear message and a non-zero
# exit. Prints "ok - ..." or "FAIL - ..." per check and "harness: N passed, N failed".
. "$(dirname "$0")/lib.sh"

need_root
tmp=$(mktemp -d)
trap 'umount -q "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0 fail=0

# expect NAME PATTERN CMD...: CMD must fail and print PATTERN.
expect() {
	local name=$1 pat=$2 out rc=0; shift 2
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" != 0 ] && grep -qE -- "$pat" <<<"$out"; then
		echo "ok - $name"; pass=$((pass + 1))
	else
		echo "FAIL - $name (status $rc, wanted /$pat/):"; sed 's/^/    /' <<<"$out" | tail -n 5
		fail=$((fail + 1))
	fi
}
s=$TOP/scripts
# check NAME CMD...: CMD must succeed.
check() {
	local name=$1 out rc=0; shift
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" = 0 ]; then
		echo "ok - $name"; pass=$((pass + 1))
	else
		echo "FAIL - $name (status $rc):"; sed 's/^/    /' <<<"$out" | tail -n 8
		fail=$((fail + 1))
	fi
}

# "not root" from a copy of the scripts anyone can read: the checkout may be
# in a folder only root can enter (/root).
nb=$(mktemp -d /tmp/btt-nobody.XXXXXX); chmod 755 "$nb"; cp -r "$s" "$TOP/config" "$nb/"
expect "not root" "must run as root" \
	setpriv --reuid=65534 --regid=65534 --clear-groups bash "$nb/scripts/kbuild.sh"
rm -rf "$nb"
expect "no debootstrap" "missing tool 'debootstrap'" \
	env -u BTT_HOST_INSTALL PATH=/usr/bin:/bin BTT_ROOT="$tmp/none" bash "$s/toolchain.sh"
mkdir -p "$tmp/notroot" && echo precious >"$tmp/notroot/f"
expect "toolchain: a BTT_ROOT it did not make is not removed" "no sid root of the harness \(no .btt-root\): not removing it" \
	env BTT_ROOT="$tmp/notroot" bash "$s/toolchain.sh"
check "toolchain: ... and its file is still there" grep -qx precious "$tmp/notroot/f"
mkdir -p "$tmp/small" && mount -t tmpfs -o size=1m tmpfs "$tmp/small"
expect "no disk space" "need 6 GiB free under $tmp/small, have 1 MiB" \
	env BTT_CACHE="$tmp/small" bash "$s/toolchain.sh"
expect "no sid root" "no sid root with bpf-gcc at $tmp/none" \
	env BTT_ROOT="$tmp/none" bash "$s/kbuild.sh"
expect "base unknown" "no base '7.99' in config/bases \(bases: 7.3 " env BTT_BASE=7.99 bash "$s/base.sh"
{ cat "$TOP/config/bases"; echo "7.99 linux-source-7.99 7.99-1 - sid patches config/expected/7.99"; } >"$tmp/bases99"
expect "base package missing" "the mirror serves no linux-source-7.99 package" \
	env BTT_BASES="$tmp/bases99" BTT_BASE=7.99 bash "$s/base.sh"
expect "gccwa: an unknown workaround" "no workaround config/gcc-workarounds/nosuch.patch" \
	bash "$s/gcc-workaround.sh" nosuch
expect "libbpf-old: no older base" "set BTT_BASE to an older base than 7.3" \
	env BTT_BASE=7.3 bash "$s/libbpf-old.sh"

# A patch whose context does not match: named, with git's reason.
r=$tmp/repo; mkdir -p "$r" "$tmp/p"
git -C "$r" init -q && git -C "$r" config user.name t && git -C "$r" config user.email t@t
printf 'one\ntwo\n' >"$r/f" && git -C "$r" add f && git -C "$r" commit -qm base && git -C "$r" tag base
cat >"$tmp/p/0001-bad.patch" <<'P'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: t <t@t>
Subject: [PATCH] bad

---
 f | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/f b/f
--- a/f
+++ b/f
@@ -1,2 +1,2 @@
 zero
-two
+three
P
echo 0001-bad.patch >"$tmp/p/series"
expect "bad patch: named" "patch .*0001-bad.patch does not apply" \
	env BTT_TREE="$r" BTT_PATCHES="$tmp/p" bash "$s/apply.sh"
expect "bad patch: git's reason" "patch failed: f:1" \
	env BTT_TREE="$r" BTT_PATCHES="$tmp/p" bash "$s/apply.sh"
echo missing.patch >"$tmp/p/series"
expect "listed patch missing" "patch missing.patch listed in .* does not exist" \
	env BTT_TREE="$r" BTT_PATCHES="$tmp/p" bash "$s/apply.sh"

# The judges (report.py, expected.py, bless.py, basefails.py, regresscmp.py,
# vcostcmp.py, fuzzcmp.py) have their unit tests in scripts/tests/ (the fast
# tests, scripts/fast.sh).
expect "regress: bad argument" "usage: regress.sh \\[all\\|patched\\|base\\]" bash "$s/regress.sh" bogus

# Two VM runs with one result dir: the second stops before it deletes the
# first one's results.
k=$tmp/kb; mkdir -p "$k/selftests/clang23" "$k/selftests/vm-lock"
for b in test_progs test_progs-bpf_gcc clang23/test_progs; do
	printf '#!/bin/sh\n' >"$k/selftests/$b"; chmod +x "$k/selftests/$b"
done
: >"$k/selftests/vm-lock/keep"; : >"$tmp/bzImage"
flock "$k/selftests/vm-lock.lock" sleep 5 &
sleep 1
expect "vm: a second run on one result dir stops" "another VM run is using" \
	env BTT_VM_NAME=vm-lock BTT_VM_IMAGE="$tmp/bzImage" bash "$s/vmrun.sh" "$k"
check "vm: the first run's results stay" test -e "$k/selftests/vm-lock/keep"
wait

# Mounts: a command that ends, one that fails and one interrupted (SIGINT to
# its process group, as Ctrl-C) leave no mount under the cache in the
# namespace they were started from; each runs in a fresh namespace, as from a
# user's shell.
fresh() { unshare -m --propagation private env -u BTT_NS bash -c "$1" fresh; }
leftover="findmnt -rn -o TARGET | grep -E '^($CACHE|$ROOT)/' || true"
nomounts() {
	local out
	out=$(fresh "$1 >/dev/null 2>&1; $leftover") || return 1
	[ -z "$out" ] || { echo "left mounted:"; echo "$out"; return 1; }
}
check "mounts: none left after a command" nomounts "bash $s/base.sh"
check "mounts: none left after a failed command" nomounts "BTT_BASE=7.99 bash $s/base.sh"
interrupted() {
	local out
	out=$(fresh "set -m
		bash $s/shell.sh 'sleep 61.5' >/dev/null 2>&1 & pid=\$!
		for i in \$(seq 100); do pgrep -g \$pid -f '^sleep 61.5' >/dev/null && break; sleep 0.2; done
		pgrep -g \$pid -f '^sleep 61.5' >/dev/null || { echo 'the command never started'; exit 1; }
		kill -INT -\$pid; wait \$pid
		! pgrep -g \$pid -f '^sleep 61.5' >/dev/null || echo 'the command still runs'
		$leftover") || return 1
	[ -z "$out" ] || { echo "$out"; return 1; }
}
check "mounts: none left after an interrupted command" interrupted
# A long step run with progress lines (kernel build, VM) stops on Ctrl-C with
# everything it started; its own children ignore SIGINT (background jobs).
interrupted_bg() {
	rm -f "$tmp/wp.pid"
	fresh "set -m
		BTT_NS=host bash -c '. $s/lib.sh; with_progress t $tmp/wp.log true sh -c \"echo \\\$\\\$ >$tmp/wp.pid; exec sleep 61.7\"' & pid=\$!
		for i in \$(seq 100); do [ -s $tmp/wp.pid ] && break; sleep 0.2; done
		[ -s $tmp/wp.pid ] || { echo 'the command never started'; exit 1; }
		kill -INT -\$pid; wait \$pid; sleep 0.5
		st=\$(ps -o stat= -p \$(cat $tmp/wp.pid)) || true
		case \$st in '' | Z*) ;; *) echo 'the command still runs'; kill \$(cat $tmp/wp.pid); exit 1 ;; esac"
}
check "progress: an interrupted step stops what it started" interrupted_bg

# clean: a cache with something bind-mounted inside is removed without
# touching what was mounted there.
cleaned() {
	mkdir -p "$tmp/precious" "$tmp/c/sid/dev" && echo keep >"$tmp/precious/file"
	touch "$tmp/c/.btt-cache"
	fresh "mount --bind $tmp/precious $tmp/c/sid/dev && BTT_CACHE=$tmp/c bash $s/clean.sh &&
		[ ! -e $tmp/c/sid ] && [ \"\$(cat $tmp/precious/file)\" = keep ]"
}
check "clean: unmounts, then removes the cache and nothing else" cleaned
# clean builds: every build dir a script makes goes; the root, the downloads
# and ccache stay.
cleanbuilds() {
	local c=$tmp/cb d
	mkdir -p "$c/sid/.x" "$c/dl" "$c/ccache" && touch "$c/.btt-cache"
	for d in linux-7.3 linux-7.3.base kbuild-7.3-llvm kbuild-7.3-llvm-base-plain st-7.3-llvm kmods-7.3-llvm-base \
		basecmp-7.3 regress-7.3 vcost-7.3 libbpf-old-6.12 gccwa-7.3-seg-off runs; do mkdir -p "$c/$d/x"; done
	BTT_CACHE=$c bash "$s/clean.sh" builds >/dev/null || return 1
	[ "$(cd "$c" && ls -A | paste -sd' ')" = ".btt-cache .lock .lock.who ccache dl sid" ] || { ls -A "$c"; return 1; }
}
check "clean builds: removes every build dir, keeps root, downloads and ccache" cleanbuilds
expect "clean: refuses a system folder" "refusing to clean /var" env BTT_CACHE=/var bash "$s/clean.sh"
mkdir -p "$tmp/unmarked" && echo x >"$tmp/unmarked/f"
expect "clean: refuses a folder that is not the cache" "not marked as the harness's cache" \
	env BTT_CACHE="$tmp/unmarked" bash "$s/clean.sh"
mkdir -p "$tmp/withedit/edit-7.2" && touch "$tmp/withedit/.btt-cache"
expect "clean: refuses to drop an editing tree" "editing trees hold commits" \
	env BTT_CACHE="$tmp/withedit" bash "$s/clean.sh" builds
# Two runs on one cache: the second refuses at once and names the first.
mkdir -p "$tmp/lk"; echo "pid 1: run.sh" >"$tmp/lk/.lock.who"
(exec 7>>"$tmp/lk/.lock"; flock 7; touch "$tmp/lk/held"; sleep 20) & holder=$!
for i in $(seq 50); do [ -e "$tmp/lk/held" ] && break; sleep 0.1; done
expect "lock: a second run refuses" "another harness run holds $tmp/lk/.lock \(pid 1: run.sh\)" \
	env BTT_CACHE="$tmp/lk" bash "$s/base.sh"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null || true
expect "paths: a cache path with a space is refused" "must not hold spaces" env BTT_CACHE="$tmp/a b" bash "$s/base.sh"
expect "lib.sh sourced by hand is refused" "is sourced by the harness scripts" \
	bash -c ". $s/lib.sh"

# A new base tree (base.sh after a version bump) orphans the scratch
# worktrees: apply.sh makes them again.
rebased() {
	local r=$tmp/rb
	mkbase() {
		rm -rf "$r"; mkdir -p "$r"; git -C "$r" init -q
		git -C "$r" config user.name t; git -C "$r" config user.email t@t
		printf 'one\ntwo\n' >"$r/f"; git -C "$r" add f; git -C "$r" commit -qm base; git -C "$r" tag base
	}
	mkdir -p "$tmp/good"
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: t <t@t>\nSubject: [PATCH] good\n\n---\n f | 2 +-\n\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n' >"$tmp/good/0001-good.patch"
	echo 0001-good.patch >"$tmp/good/series"
	mkbase && BTT_TREE=$r BTT_PATCHES=$tmp/good bash "$s/apply.sh" && [ -e "$r.apply/.git" ] &&
		mkbase && BTT_TREE=$r BTT_PATCHES=$tmp/good bash "$s/apply.sh" && grep -qx three "$r/f"
}
check "apply: works after the base tree was made again" rebased

# Host tools are checked: python3 missing from PATH is named.
mkdir -p "$tmp/bin"
for d in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
	for f in "$d"/*; do
		case ${f##*/} in python3*) continue ;; esac
		[ -e "$tmp/bin/${f##*/}" ] || ln -s "$f" "$tmp/bin/${f##*/}"
	done
done
expect "no python3" "missing tool 'python3' \(host package python3;" \
	env -u BTT_HOST_INSTALL PATH="$tmp/bin" bash "$s/toolchain.sh"

# Pinning: a base version that is gone names the available ones; drift is
# reported, and fails only with BTT_STRICT_VERSIONS=1.
sed 's/^pahole .*/pahole 0.1-1/' "$TOP/config/toolchain.lock" >"$tmp/lock"
sed 's/^\(7\.2 *linux-source-7\.2 *\)[^ ]*/\17.2.0-1/' "$TOP/config/bases" >"$tmp/bases"
expect "base version gone" "linux-source-7.2 7.2.0-1 \(pinned in .*\) is gone from the archive; available: [0-9]" \
	env BTT_BASES="$tmp/bases" BTT_BASE=7.2 bash "$s/base.sh"
check "drift is reported" bash -c "BTT_LOCK=$tmp/lock bash $s/manifest.sh | grep -qx 'drift: pahole locked 0.1-1, have [^ ]*'"
expect "drift fails with BTT_STRICT_VERSIONS=1" "versions differ from" \
	env BTT_LOCK="$tmp/lock" BTT_STRICT_VERSIONS=1 bash "$s/manifest.sh"

# The main job tries every kernel: two that fail to build both get a row and
# a failure, and the run folder keeps both logs.
twokernels() {
	local out d
	out=$(BTT_RUN=$tmp/run BTT_KERNELS="bogus1 bogus2" bash "$s/run.sh" 2>&1) && return 1
	tail -n 1 <<<"$out" | grep -qx '0 passed, 2 failed, 0 skipped' || { echo "$out" | tail -n 5; return 1; }
	for d in bogus1 bogus2; do
		grep -q "^  $d  *kernel build failed" <<<"$out" || { echo "no matrix row for $d"; return 1; }
		grep -q "no kernel flavour '$d'" "$tmp/run/kernel-$d.log" || { echo "no log for $d"; return 1; }
	done
}
check "run: a failed kernel build does not stop the next" twokernels

# bpftool-check.sh refuses objects that this run did not build.
mkdir -p "$tmp/kb/selftests" && cp /bin/true "$tmp/kb/selftests/bpftool" && echo old-run >"$tmp/kb/selftests/.built"
expect "bpftool-check: objects of an earlier run" "built by run old-run, not by this run" \
	env BTT_RUN="$tmp/this-run" bash "$s/bpftool-check.sh" "$tmp/kb"
rm "$tmp/kb/selftests/.built"
expect "bpftool-check: half-built objects" "not completely built" bash "$s/bpftool-check.sh" "$tmp/kb"

# Progress lines come while a command runs.
progress() {
	BTT_NS=host BTT_PROGRESS=1 bash -c '. "$1/lib.sh"; with_progress slow "$2/p.log" "echo counting" sleep 3' \
		x "$s" "$tmp" 2>&1 | grep -c '^== slow: counting after [0-9]*s$' | awk '$1 >= 2 { ok = 1 } END { exit !ok }'
}
check "progress lines during a long command" progress
# vmrun's progress line counts the results of the run the guest is in; the
# serial console's lines end with CR.
guestprog() {
	mkdir -p "$tmp/gp" && printf 'btt-init: up 1s\r\nbtt-init: run clang\r\n' >"$tmp/gp/console.log"
	printf '#1/1 a:OK\n#1/2 a:OK\n#2 b:OK\nlog\n' >"$tmp/gp/clang.log"
	[ "$(BTT_NS=host bash -c '. "$1/lib.sh"; guest_progress "$2"' x "$s" "$tmp/gp")" = "guest running clang, 3 results" ]
}
check "vmrun progress: results of the guest's run" guestprog


# send-prep: on a copy of the series with one defect of each kind, each
# check fails and names it; "write" on the series as exported changes nothing.
sp=$tmp/sp
cp -r "$(series_dir)" "$sp"
cp -r "$(series_dir)" "$tmp/spw"
first() { ls "$sp"/"$1"-*.patch; }
sed -i '0,/^Subject: \[RFC PATCH bpf-next 05/s//Subject: [PATCH bpf-next 05/' "$(first 0005)"
sed -i 's/^Signed-off-by: .*/Signed-off-by: t <t@t>/' "$(first 0003)"
awk '!d && /^\+[^+]/ { print $0 " "; d = 1; next } { print }' "$(first 0021)" >"$tmp/p1" && cp "$tmp/p1" "$(first 0021)"
sed -i -e 's/^base-commit: .*/base-commit: 0000000000000000000000000000000000000000/' \
	-e '0,/^Subject: \[RFC PATCH bpf-next 00/s//Subject: [RFC PATCH bpf-next v2 00/' \
	-e '/^    linux-doc@vger.kernel.org,$/d' "$sp/0000-cover-letter.patch"
sed 's|^F:\tkernel/bpf/btf_tags.c$|F:\tkernel/bpf/btf_tags_gone.c|' "$TOP/MAINTAINERS" >"$tmp/maint"
spout=$(BTT_PATCHES=$sp BTT_MAINTAINERS=$tmp/maint bash "$s/send-prep.sh" 2>&1) || true
sp_fails() { grep -qE -- "^FAIL - sendprep: $1" <<<"$spout"; }
check "sendprep: an RFC patch without the RFC prefix" sp_fails "subject prefixes:.*0005-[^:]*: '\[PATCH bpf-next 05/21\]' \(want '\[RFC PATCH bpf-next v2 05/21\]'\)"
check "sendprep: a sign-off that is not the author's" sp_fails "no Signed-off-by of the author: 0003-"
check "sendprep: trailing whitespace" sp_fails "git am --whitespace=error: 0021-.*trailing whitespace"
check "sendprep: another base-commit" sp_fails "base-commit '0{40}' is not the base tree's"
check "sendprep: v2 without a changelog" sp_fails "v2: the cover letter has no 'Changes in v2'"
check "sendprep: To/Cc not get_maintainer.pl's" sp_fails "the cover letter's To/Cc differs.*> +linux-doc@vger.kernel.org"
check "sendprep: an F: pattern that matches nothing" sp_fails "MAINTAINERS:.*btf_tags_gone.c"
spw() { BTT_PATCHES=$tmp/spw bash "$s/send-prep.sh" write && diff -r -I '^Date: ' "$(series_dir)" "$tmp/spw"; }
check "sendprep: write on the exported series changes nothing" spw
# The prerequisite series (patches/bpf): a fix without the bpf prefix, and
# the bpf-next series' prerequisite-patch-id lines after a fix changed.
cp -r "$TOP/patches/bpf" "$tmp/spb"
sed -i '0,/^Subject: \[PATCH bpf 2\//s//Subject: [PATCH bpf-next 2\//' "$(ls "$tmp"/spb/0002-*.patch)"
spout=$(BTT_PATCHES=$tmp/spb bash "$s/send-prep.sh" 2>&1) || true
check "sendprep: a fix without the bpf prefix" sp_fails "subject prefixes:.*0002-[^:]*: '\[PATCH bpf-next 2/3\]' \(want '\[PATCH bpf 2/3\]'\)"
cp -r "$(series_dir)" "$tmp/spp"
sed -i '0,/^prerequisite-patch-id: /s/^prerequisite-patch-id: .*/prerequisite-patch-id: 0000000000000000000000000000000000000000/' "$tmp/spp/0000-cover-letter.patch"
spout=$(BTT_PATCHES=$tmp/spp bash "$s/send-prep.sh" 2>&1) || true
check "sendprep: a prerequisite-patch-id that is not the prerequisite's" sp_fails "the prerequisite-patch-id lines are not the patch ids of patches/bpf"

# series-same: a changed line in a 7.2.y override is named, and so is an
# override that has the primary patch's own context.
cp -r "$TOP/patches" "$tmp/same"
sed -i '0,/^+[^+]/s/^+[^+].*/&x/' "$(ls "$tmp"/same/7.2/0012-*.patch)"
expect "series-same: another added line" "/7.2/0012-.* makes other changes than " bash "$s/series-same.sh" "$tmp/same"
rm -r "$tmp/same"; cp -r "$TOP/patches" "$tmp/same"; cp "$tmp"/same/0001-*.patch "$tmp/same/7.2/"
expect "series-same: an override with the primary's context" "/7.2/0001-.* has the context of .*: not an override" bash "$s/series-same.sh" "$tmp/same"

# newcomer TMP: README.md's "Changing the series" block as written, in a
# scratch copy of the checkout and a scratch cache that shares the base trees'
# objects and the sid root; the lines marked "# long" are only checked to
# name a verb of scripts/btt.
newcomer() {
	local n=$1/nc c top script b bad=0 f
	c=$n/cache top=$n/top
	rm -rf "$n"; mkdir -p "$c" && touch "$c/.btt-cache"
	cp -a "$TOP" "$top"
	# What the checkout holds now is the starting point: the block changes patches only.
	git -C "$top" add -A && git -C "$top" -c user.name=btt -c user.email=btt@localhost commit -qm start --allow-empty
	for b in 7.3 7.2; do
		[ -d "$CACHE/linux-$b/.git" ] || { echo "no $b base tree at $CACHE/linux-$b (scripts/base.sh)"; return 1; }
		git clone -q -c gc.auto=0 "$CACHE/linux-$b" "$c/linux-$b"
		cp "$CACHE/base-$b.version" "$CACHE/base-$b.sha256" "$c/"
	done
	script=$(sed -n '/<!-- newcomer:begin -->/,/<!-- newcomer:end -->/p' "$TOP/README.md" |
		sed -n '/^```sh$/,/^```$/p' | grep -v '^```' | sed "s|/var/cache/btf-type-tags|$c|g")
	[ "$(grep -c . <<<"$script")" -ge 10 ] || { echo "README.md has no newcomer block"; return 1; }
	script=$(awk '/# long/ { split($0, w, " "); print "scripts/btt help | grep \"^  " w[2] " \" >/dev/null"; next } { print }' <<<"$script")
	(cd "$top" && BTT_CACHE=$c BTT_ROOT=$ROOT bash -euo pipefail -c "$script") || { echo "the README block failed"; return 1; }
	for f in "$top"/patches/0012-*.patch "$top"/patches/7.2/0012-*.patch; do
		grep -q 'split BTF reads chains in its base BTF type tag convention' "$f" || { echo "${f#"$top"/}: the change is not there"; bad=1; }
	done
	# Elsewhere in the series only index lines may change (blob ids after the edit).
	f=$(git -C "$top" status --porcelain | awk '{ print $2 }' | grep -v '^patches/' || true)
	[ -z "$f" ] || { echo "files outside patches/ changed: $f"; bad=1; }
	f=$(git -C "$top" diff -U0 -- patches ':!patches/*0012-*' ':!patches/7.2/*0012-*' | grep '^[-+]' |
		grep -v '^\(+++\|---\) \|^[-+]index \|^[-+]Date: ' | head -n 3 || true)
	[ -z "$f" ] || { echo "other patches changed: $f"; bad=1; }
	return "$bad"
}
check "newcomer: README.md's way to change a patch, as written, on a one-line change" newcomer "$tmp"

# One help screen: every verb's script exists, every script has a verb (or is
# a helper of one), and every BTT_* variable the scripts read is documented.
helpscreen() {
	local bad=0 v f
	for f in $(bash "$s/btt" verbs | cut -d'|' -f1); do [ -f "$s/$f" ] || { echo "verb script $f missing"; bad=1; }; done
	for f in $(cd "$s" && ls); do
		case $f in btt | lib.sh | report.py | expected.py | tests | guest-init | copies.sh | btf-load-bench.c | btf-fuzz.c | fuzzcmp.py | basefails.py | regresscmp.py | vcostcmp.py) continue ;; esac
		bash "$s/btt" verbs | cut -d'|' -f1 | grep -qxF "$f" || { echo "script $f has no verb"; bad=1; }
	done
	for v in $(grep -ohE 'BTT_[A-Z0-9_]+' "$s"/* "$TOP/.ci/run" | sort -u); do
		bash "$s/btt" vars | grep "^$v " >/dev/null || { echo "variable $v is not in the help"; bad=1; }
	done
	return "$bad"
}
check "help: every verb, script and BTT_* variable" helpscreen
# fd 8 is the cache lock's (lib.sh cache_lock), which every script passes on
# to the scripts it runs: no other script may open fd 8.
fd8() { ! grep -nE '(exec|^|[^0-9])8[<>]' "$s"/*.sh "$s"/btt | grep -v '^[^:]*/lib\.sh:'; }
check "lock: no script but lib.sh opens fd 8" fd8

# The flavour table is the only place that names the flavours.
flavourtable() {
	local hits
	hits=$(grep -nE 'test_progs-bpf_gcc|clang23|DENYLIST\.bpf_gcc|LLVM=1' "$s"/*.sh "$s"/guest-init "$s"/report.py | grep -v test-harness.sh | grep -v '^\S*:[0-9]*:\s*#' || true)
	[ -z "$hits" ] || { echo "flavours named outside config/flavours:"; echo "$hits"; return 1; }
}
check "flavours: named in config/flavours only" flavourtable

# Scripts call each other as "$s/NAME.sh": each must be executable (a
# failing call whose stderr is hidden would go unnoticed).
executable() {
	local f bad=
	for f in "$s"/*.sh "$s"/btt "$s"/guest-init; do
		[ -x "$f" ] || bad="$bad ${f##*/}"
	done
	[ -z "$bad" ] || { echo "not executable:$bad"; return 1; }
}
check "scripts are executable" executable

# gcc-tag-probe.sh DIR: every case GCC fails becomes a reproducer with the
# case's source, the command, what is expected and what GCC printed.
gccrepro() {
	local out line name n=0
	out=$("$s/gcc-tag-probe.sh" "$tmp/repro" 2>&1) || true
	while read -r name line; do
		[ "$line" = ok ] && continue
		n=$((n + 1))
		[ -s "$tmp/repro/$name.c" ] || { echo "no $name.c"; return 1; }
		grep -q '^Command: gcc .* '"$name"'\.c' "$tmp/repro/$name.txt" &&
			grep -q '^Expected: ' "$tmp/repro/$name.txt" &&
			grep -qF -- "${line#*: }" "$tmp/repro/$name.txt" ||
			{ echo "$name.txt lacks the command, the expectation or \"$line\""; return 1; }
	done < <(sed '/^return-type spellings/,$d' <<<"$out" | grep '^  ')
	[ "$(find "$tmp/repro" -name '*.c' 2>/dev/null | wc -l)" = "$n" ] ||
		{ echo "$n failing cases, other reproducers:"; ls "$tmp/repro"; return 1; }
}
check "gccprobe: each failing case written as a GCC bug reproducer" gccrepro

# Every deny list entry carries a reason.
noreason=$(cat "$TOP"/config/DENYLIST* "$TOP"/config/*/DENYLIST* | grep -vE '^[[:space:]]*(#|$)' | grep -vE '#[[:space:]]*[^[:space:]]' || true)
if [ -z "$noreason" ]; then echo "ok - deny list entries have reasons"; pass=$((pass + 1))
else echo "FAIL - deny list entries without a reason: $noreason"; fail=$((fail + 1)); fi

echo "harness: $pass passed, $fail failed"
[ "$fail" = 0 ]

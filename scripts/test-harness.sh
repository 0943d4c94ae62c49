#!/usr/bin/env bash
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

expect "not root" "must run as root" \
	setpriv --reuid=65534 --regid=65534 --clear-groups bash "$s/kbuild.sh"
expect "no debootstrap" "missing tool 'debootstrap'" \
	env PATH=/usr/bin:/bin BTT_NO_HOST_INSTALL=1 BTT_ROOT="$tmp/none" bash "$s/toolchain.sh"
mkdir -p "$tmp/small" && mount -t tmpfs -o size=1m tmpfs "$tmp/small"
expect "no disk space" "need 6 GiB free under $tmp/small, have 1 MiB" \
	env BTT_CACHE="$tmp/small" bash "$s/toolchain.sh"
expect "no sid root" "no sid root with bpf-gcc at $tmp/none" \
	env BTT_ROOT="$tmp/none" bash "$s/kbuild.sh"
expect "base version missing" "the mirror serves no linux-source-7.99 package" \
	env BTT_BASE=7.99 bash "$s/base.sh"

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
expect "bad patch: named" "patch 0001-bad.patch does not apply" \
	env BTT_TREE="$r" BTT_PATCHES="$tmp/p" bash "$s/apply.sh"
expect "bad patch: git's reason" "patch failed: f:1" \
	env BTT_TREE="$r" BTT_PATCHES="$tmp/p" bash "$s/apply.sh"
echo missing.patch >"$tmp/p/series"
expect "listed patch missing" "patch missing.patch listed in .* does not exist" \
	env BTT_TREE="$r" BTT_PATCHES="$tmp/p" bash "$s/apply.sh"

# The report fails on a kernel BUG, a guest timeout and a failed subtest.
v=$tmp/vm; mkdir -p "$v"
echo "clang /mnt/st ./test_progs" >"$v/plan"
printf '#1/1     t/a:OK\n#1/2     t/b:OK\n#1       t:OK\n' >"$v/clang.log"; echo 0 >"$v/clang.rc"
echo "BUG: kernel NULL pointer dereference, address: 0000000000000000" >"$v/console.log"
expect "report: kernel BUG" "problem: kernel reported: BUG: kernel NULL" python3 "$s/report.py" "$v" "$TOP/config" 0
: >"$v/console.log"
expect "report: guest timeout" "problem: guest timeout" python3 "$s/report.py" "$v" "$TOP/config" 124
printf '#1/1     t/a:OK\n#1/2     t/b:FAIL\n#1       t:FAIL\n' >"$v/clang.log"; echo 1 >"$v/clang.rc"
expect "report: failed subtest" "^1 passed, 1 failed, 0 skipped$" python3 "$s/report.py" "$v" "$TOP/config" 0
rm "$v/clang.log"
expect "report: guest never ran the tests" "clang: no results" python3 "$s/report.py" "$v" "$TOP/config" 0

# Every deny list entry carries a reason.
noreason=$(cat "$TOP"/config/DENYLIST* | grep -vE '^[[:space:]]*(#|$)' | grep -vE '#[[:space:]]*[^[:space:]]' || true)
if [ -z "$noreason" ]; then echo "ok - deny list entries have reasons"; pass=$((pass + 1))
else echo "FAIL - deny list entries without a reason: $noreason"; fail=$((fail + 1)); fi

echo "harness: $pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What a maintainer looks for before the series is mailed. "check" (default)
# prints the To/Cc list and one "ok - ..." or "FAIL - ..." line per check:
# subject prefixes ([PATCH bpf] for a patch with Fixes: and for every patch
# of a prerequisite series (config/bases PREREQ), [RFC PATCH ...]
# for the patches the cover letter calls an RFC, [PATCH bpf-next] for the
# rest, [PATCH 6.12.y] for every patch of a backport, vN from v2 on), a Signed-off-by of each patch's author, git am
# --whitespace=error, the base-commit line, a changelog from v2 on, the
# cover letter's To/Cc against get_maintainer.pl (the base tree's, with the
# project's MAINTAINERS entry, whose F: patterns must match the patched tree).
# "write" sets the prefixes and the To/Cc (scripts/export.sh runs it).
# BTT_PATCHES: patch dir (default the series of BTT_BASE); BTT_SERIES_V: version to write.
. "$(dirname "$0")/lib.sh"

need_tool git
need_tool perl
mode=${1:-check}
pd=${BTT_PATCHES:-$(series_dir)}
src=$CACHE/linux-$BASE
cover=$pd/0000-cover-letter.patch
[ -e "$src/.git" ] || die "no base tree at $src; run scripts/base.sh"
[ -f "$cover" ] || die "no cover letter in $pd"
mapfile -t files < <(patch_files "$pd")
# "N/M" as git format-patch writes it: N as wide as M.
total=${#files[@]}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok - sendprep: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL - sendprep: $*"; fail=$((fail + 1)); }

# subject FILE: the Subject header, unfolded.
subject() { awk '/^Subject: / { s = $0; h = 1; next } h && /^[ \t]/ { s = s $0; next } h { exit } END { sub(/^Subject: /, "", s); print s }' "$1"; }
# body FILE: the commit message, unfolded paragraphs not needed.
has_fixes() { sed -n '/^$/,/^---$/p' "$1" | grep -q '^Fixes: '; }
# The patches the cover letter calls an RFC: "patches 7 and 12-16 are an RFC".
rfc=$(sed -n '/^$/,$p' "$cover" | tr '\n' ' ' |
	grep -oE '[Pp]atch(es)? [0-9][-0-9, and]*[0-9]\)? (is|are) an RFC' | grep -oE '[0-9]+(-[0-9]+)?' |
	awk -F- '{ for (i = $1; i <= ($2 ? $2 : $1); i++) print i }') || true
is_rfc() { grep -qx "$((10#$1))" <<<"$rfc"; }
ver=${BTT_SERIES_V:-$(subject "$cover" | sed -nE 's/^\[[^]]* v([0-9]+) [0-9]+\/[0-9]+\].*/\1/p')}
ver=${ver:-1}
vtag=$([ "$ver" -le 1 ] || echo " v$ver")

# prefix N FILE: the subject prefix patch N (00: the cover letter) must carry.
prefix() {
	local r="" tree=bpf-next
	# A backport's patches all go to the stable line of its base, a
	# prerequisite series' (the fixes) to the bpf tree.
	same_series || tree=$BASE.y
	! is_prereq "$pd" || tree=bpf
	if [ "$1" = 00 ]; then
		[ -z "$rfc" ] || r="RFC "
	else
		! is_rfc "$1" || r="RFC "
		! same_series || ! has_fixes "$2" || tree=bpf
	fi
	printf '[%sPATCH %s%s %0*d/%s]\n' "$r" "$tree" "$vtag" "${#total}" "$((10#$1))" "$total"
}

# The project's MAINTAINERS entry next to the base tree's file.
mkdir -p "$tmp/m"
git -C "$src" show base:MAINTAINERS >"$tmp/m/MAINTAINERS"
cp "${BTT_MAINTAINERS:-$TOP/MAINTAINERS}" "$tmp/m/project"
# A fixed hash seed: with Perl's random one, a person listed in two
# sections gets the role of either from run to run (To or Cc).
gm() { (cd "$src" && PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 perl scripts/get_maintainer.pl --mpath "$tmp/m" "$@"); }
me=$(git -C "$TOP" config user.email || true)
# To: the maintainers of the touched files; Cc: reviewers, lists and the
# keyword matches. The author is neither.
gm --no-git --no-git-fallback --no-fixes $(printf "$pd/%s " "${files[@]}") 2>"$tmp/gm.err" >"$tmp/gm" ||
	die "get_maintainer.pl failed: $(cat "$tmp/gm.err")"
grep -vF "<$me>" "$tmp/gm" | awk -v t="$tmp/to" -v c="$tmp/cc" '{
	a = $0; sub(/ \(.*$/, "", a)
	if ($0 ~ /\((maintainer|supporter|odd fixer):/ && $0 !~ /:Keyword:/) print a > t; else print a > c }'
touch "$tmp/to" "$tmp/cc"
# A backport is for the stable tree of its base.
same_series || echo "stable@vger.kernel.org" >>"$tmp/cc"
hdr() { awk -v h="$1" 'NR > 1 { printf ",\n" } { printf "%s %s", (NR == 1 ? h ":" : "   "), $0 } END { if (NR) print "" }' "$2"; }
{ hdr To "$tmp/to"; hdr Cc "$tmp/cc"; } >"$tmp/tocc"

if [ "$mode" = write ]; then
	for f in 0000-cover-letter.patch "${files[@]}"; do
		n=${f:2:2}
		p=$(prefix "$n" "$pd/$f")
		# Replace the first "[...]" of the Subject; drop and re-add To/Cc
		# (after Date:, so that worktree.sh still finds the Subject first).
		awk -v p="$p" -v tocc="$([ "$n" = 00 ] && cat "$tmp/tocc")" '
			!done && /^(To|Cc): / { skip = 1; next }
			!done && skip && /^[ \t]/ { next }
			{ skip = 0 }
			!done && /^Subject: \[/ { sub(/^Subject: \[[^]]*\]/, "Subject: " p) }
			!done && /^Date: / { print; if (tocc != "") print tocc; next }
			/^$/ { done = 1 }
			{ print }' "$pd/$f" >"$tmp/p" && cat "$tmp/p" >"$pd/$f"
	done
	echo "sendprep: wrote the subject prefixes (v$ver${rfc:+, RFC: $(echo $rfc)}) and $(grep -c . "$tmp/to") To, $(grep -c . "$tmp/cc") Cc"
	exit 0
fi
[ "$mode" = check ] || die "usage: send-prep.sh [check|write]"

echo "To/Cc (get_maintainer.pl of $(git -C "$src" log -1 --format=%s base), with MAINTAINERS of this project):"
sed 's/^/  /' "$tmp/tocc"
# 1. Subject prefixes.
badp=
for f in 0000-cover-letter.patch "${files[@]}"; do
	n=${f:2:2}; p=$(prefix "$n" "$pd/$f"); s=$(subject "$pd/$f")
	[ "${s#"$p "}" != "$s" ] || badp="$badp $f: '${s%%]*}]' (want '$p');"
done
if [ -z "$badp" ]; then ok "subject prefixes (v$ver${rfc:+, RFC: $(echo $rfc)}, Fixes: -> bpf)"; else bad "subject prefixes:$badp"; fi
# 2. A Signed-off-by of the author.
bads=
for f in "${files[@]}"; do
	git mailinfo "$tmp/msg" "$tmp/diff" <"$pd/$f" >"$tmp/info"
	a=$(sed -n 's/^Author: //p' "$tmp/info"); e=$(sed -n 's/^Email: //p' "$tmp/info")
	grep -qxF "Signed-off-by: $a <$e>" "$tmp/msg" || bads="$bads $f ($a <$e>);"
done
if [ -z "$bads" ]; then ok "every patch is signed off by its author"; else bad "no Signed-off-by of the author:$bads"; fi
# 3. git am with whitespace errors as errors (trailing space, blank line at EOF).
# In a scratch worktree, made once: resetting it to base rewrites only the
# files the series touched.
wt=$src.send
base_worktree "$src" "$wt"
git -C "$wt" am --abort >/dev/null 2>&1 || true
git -C "$wt" checkout -q -f --detach base
# The prerequisite series first (config/bases PREREQ), also under a copy of
# the series (BTT_PATCHES), but not under the prerequisite itself.
mapfile -t pre < <(is_prereq "$pd" || BTT_PATCHES= prereq_patches)
badw=
for f in "${pre[@]}"; do
	git -C "$wt" am -q "$f" >/dev/null 2>&1 || { badw="prerequisite ${f#"$TOP"/} does not apply"; break; }
done
for f in "${files[@]}"; do
	[ -z "$badw" ] || break
	if ! out=$(git -C "$wt" am -q --whitespace=error "$pd/$f" 2>&1); then
		badw="$f: $(grep -v '^hint:' <<<"$out" | head -n 3 | paste -sd' ')"; break
	fi
done
if [ -z "$badw" ]; then ok "git am --whitespace=error applies all ${#files[@]} patches"; else bad "git am --whitespace=error: $badw"; fi
# 4. base-commit: the pinned base tree.
want=$(git -C "$src" rev-parse base)
have=$(sed -n 's/^base-commit: //p' "$cover" | tail -n 1)
if [ "$have" = "$want" ]; then ok "base-commit $want ($(cat "$CACHE/base-$BASE.version" 2>/dev/null))"
else bad "base-commit '${have:-none}' is not the base tree's $want"; fi
# 4b. The prerequisite series' patches, as prerequisite-patch-id lines.
if [ ${#pre[@]} -gt 0 ]; then
	want=$(for f in "${pre[@]}"; do git patch-id --stable <"$f" | cut -d' ' -f1; done)
	have=$(sed -n 's/^prerequisite-patch-id: //p' "$cover")
	names=$(BTT_PATCHES= prereq_dirs | sed "s|^$TOP/||" | paste -sd' ')
	if [ "$have" = "$want" ]; then ok "prerequisite-patch-id lines name the ${#pre[@]} patches of $names"
	else bad "the prerequisite-patch-id lines are not the patch ids of $names (export again)"; fi
fi
# 5. A changelog from v2 on.
if [ "$ver" -le 1 ]; then ok "v1: no changelog needed"
elif grep -qE "^(Changes in v$ver\b|Changes since v$((ver - 1))\b|v$((ver - 1)) -> v$ver\b)" "$cover"; then ok "v$ver has a changelog"
else bad "v$ver: the cover letter has no 'Changes in v$ver' (or 'v$((ver - 1)) -> v$ver') section"; fi
# 6. The cover letter's To/Cc is get_maintainer.pl's.
awk '/^(To|Cc): / { h = 1; print; next } h && /^[ \t]/ { print; next } { h = 0 } /^$/ { exit }' "$cover" >"$tmp/have"
if cmp -s "$tmp/have" "$tmp/tocc"; then ok "the cover letter's To/Cc is get_maintainer.pl's ($(grep -c . "$tmp/to") To, $(grep -c . "$tmp/cc") Cc)"
else bad "the cover letter's To/Cc differs from get_maintainer.pl's (scripts/btt send-prep write): $(diff "$tmp/have" "$tmp/tocc" | grep '^[<>]' | head -n 3 | paste -sd' ')"; fi
# 7. The project's entry: a header, then "X:<tab>value" fields with M:, L:,
# S: (a status of the kernel's list) and F:, every F: pattern matching a
# file of the patched tree (get_maintainer.pl --self-test takes minutes).
out=$(sed '1,/^$/d' "$tmp/m/project" | awk -F'\t' '
	NR == 1 { if ($0 ~ /^[A-Z]:/) print "no section header"; next }
	!/^[A-Z]:\t[^ \t]/ { print "line " NR + 0 " is not a field: " $0; next }
	{ seen[substr($0, 1, 1)] = 1 }
	/^S:/ && $2 !~ /^(Supported|Maintained|Odd Fixes|Orphan|Obsolete|Buried)$/ { print "unknown status " $2 }
	END { split("M L S F", k, " "); for (i in k) if (!seen[k[i]]) print "no " k[i] ": field" }')
# The entry names the mainline series' files, which a backport does not add.
tree="and matches the patched tree"
same_series || tree="(F: not matched: patches/$BASE is a backport without the mainline files)"
! is_prereq "$pd" || tree="(F: not matched: ${pd#"$TOP"/} is a prerequisite without the series' files)"
for f in $(same_series && ! is_prereq "$pd" && sed -n 's/^F:\t//p' "$tmp/m/project"); do
	g=$f; [ "${f%/}" = "$f" ] || g=$f**
	git -C "$wt" ls-files -- ":(glob)$g" | grep -q . || out="$out${out:+; }no file matches F: $f"
done
if [ -z "$out" ]; then ok "MAINTAINERS: the project's entry is well formed $tree"
else bad "MAINTAINERS: $(head -n 3 <<<"$out" | paste -sd' ')"; fi
echo "sendprep: $pass passed, $fail failed"
[ "$fail" = 0 ]

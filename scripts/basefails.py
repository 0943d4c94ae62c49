#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test results against a fixed list of the leaves that fail.

Usage: basefails.py OUT LIST FLAVOUR...  (OUT/base-FLAVOUR.log per flavour)

LIST (config/basecmp-fails for the series' tests on the unpatched base
kernel, config/regress-fails for scripts/regress.sh) names the test_progs
leaves (TEST/SUBTEST, or TEST without subtests) that fail, one per line,
"FAIL NAME  # reason" (scripts/expected.py's list format): NAME for every
flavour, "FLAVOUR:NAME" for one; NAME may hold fnmatch wildcards. Exits 1 on
a listed leaf that passes or is skipped (unless listed as "FLAKY NAME": it
may fail or not), a line that matches no result, and an unlisted failure.
"""
import fnmatch
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import expected  # noqa: E402
from report import parse  # noqa: E402


def read_logs(out, prefix, flavours):
    """{flavour: {leaf: verdict}} of OUT/PREFIX-FLAVOUR.log ({} if none)."""
    res = {}
    for f in flavours:
        log = out / f'{prefix}-{f}.log'
        res[f] = parse(log.read_text(errors='replace')) if log.exists() else {}
    return res


def check_listed(results, lst, where):
    """Problems of RESULTS against the fail list LST; WHERE names the kernel."""
    if not lst.exists():
        bad = [f'{f}:{leaf}' for f, leaves in results.items()
               for leaf, verdict in sorted(leaves.items()) if verdict == 'FAIL']
        return [f'no list {lst}; the failures on {where} were: ' + (' '.join(bad) or 'none')]
    entries = []
    try:
        rows = expected.entries(lst, {'FAIL', 'FLAKY'})
    except expected.BadFile as e:
        raise SystemExit(str(e))
    for word, entry, _, _ in rows:
        # FLAVOUR:TEST/SUBTEST, where the subtest name may hold colons
        fl, _, name = entry.partition(':') if ':' in entry.split('/')[0] else ('', '', entry)
        entries.append((fl, name, word == 'FLAKY'))
    problems, used = [], set()
    for f, leaves in results.items():
        if not leaves:
            problems.append(f'{f}: no results')
            continue
        mine = [e for e in entries if e[0] in ('', f)]
        for leaf, verdict in sorted(leaves.items()):
            hit = [e for e in mine if fnmatch.fnmatchcase(leaf, e[1])]
            used.update(hit)
            if hit and verdict != 'FAIL' and not any(e[2] for e in hit):
                problems.append(f'{f}: {leaf} is listed to fail on {where}, but was {verdict}')
            elif not hit and verdict == 'FAIL':
                problems.append(f'{f}: {leaf} fails on {where}, unlisted')
        n = sum(v == 'FAIL' for v in leaves.values())
        print(f'{f}: {n} of {len(leaves)} leaves fail on {where}')
    # A flaky test that failed outside its subtests is a leaf only then.
    tests = {l.split('/')[0] for leaves in results.values() for l in leaves}
    for e in entries:
        if e not in used and not (e[2] and e[1] in tests):
            problems.append(f'{lst.name}: "{e[0] + ":" if e[0] else ""}{e[1]}" matches no result')
    return problems


def main():
    out, lst, flavours = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
    problems = check_listed(read_logs(out, 'base', flavours), lst, 'the base kernel')
    for p in problems:
        print(f'FAIL - {p}')
    if not problems:
        print('ok - the series\' tests fail on the base kernel exactly as listed')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

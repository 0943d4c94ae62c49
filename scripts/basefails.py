#!/usr/bin/env python3
"""The series' tests on the unpatched base kernel against a fixed list.

Usage: basefails.py OUT LIST FLAVOUR...  (OUT/base-FLAVOUR.log per flavour)

LIST (config/basecmp-fails) names the test_progs leaves (TEST/SUBTEST, or
TEST without subtests) that fail on the base kernel, one per line with its
reason after '#': "NAME" for every flavour, "FLAVOUR:NAME" for one; NAME may
hold fnmatch wildcards. Exits 1 on a listed leaf that passes or is skipped,
a line that matches no result, and an unlisted failure.
"""
import fnmatch
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from report import denied, parse  # noqa: E402


def main():
    out, lst, flavours = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
    results = {}
    for f in flavours:
        log = out / f'base-{f}.log'
        results[f] = parse(log.read_text(errors='replace')) if log.exists() else {}
    if not lst.exists():
        print(f'FAIL - no list {lst}; the failures on the base kernel were:')
        for f, leaves in results.items():
            for leaf, verdict in sorted(leaves.items()):
                if verdict == 'FAIL':
                    print(f'  {f}:{leaf}')
        return 1
    entries = []
    for entry, reason in denied(lst):
        if not reason:
            raise SystemExit(f'{lst}: "{entry}" has no reason')
        fl, _, name = entry.rpartition(':') if ':' in entry.split('/')[0] else ('', '', entry)
        entries.append((fl, name))
    problems, used = [], set()
    for f, leaves in results.items():
        if not leaves:
            problems.append(f'{f}: no results in {out / f"base-{f}.log"}')
            continue
        mine = [(fl, n) for fl, n in entries if fl in ('', f)]
        for leaf, verdict in sorted(leaves.items()):
            hit = [e for e in mine if fnmatch.fnmatchcase(leaf, e[1])]
            used.update(hit)
            if hit and verdict != 'FAIL':
                problems.append(f'{f}: {leaf} is listed to fail on the base kernel, but was {verdict}')
            elif not hit and verdict == 'FAIL':
                problems.append(f'{f}: {leaf} fails on the base kernel, unlisted')
        n = sum(v == 'FAIL' for v in leaves.values())
        print(f'{f}: {n} of {len(leaves)} leaves fail on the base kernel')
    for e in entries:
        if e not in used:
            problems.append(f'{lst.name}: "{e[0] + ":" if e[0] else ""}{e[1]}" matches no result')
    for p in problems:
        print(f'FAIL - {p}')
    if not problems:
        print('ok - the series\' tests fail on the base kernel exactly as listed')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

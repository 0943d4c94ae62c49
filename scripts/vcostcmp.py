#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Verifier cost of the same programs on the base and the patched kernel.

Usage: vcostcmp.py OUT LIST FLAVOUR...  (OUT/{base,patched}-FLAVOUR.csv from
veristat -o csv -e file,prog,verdict,insns,states)

For every program the base kernel accepts, the patched kernel must accept it
with the same processed instructions and states, unless LIST
(config/vcost-diffs: "FLAVOUR:FILE:PROG # reason", fnmatch wildcards) says
why not. Prints each difference; exits 1 on an unexplained one, on a listed
one that no longer differs, and on a flavour without results.
"""
import csv
import fnmatch
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import expected  # noqa: E402


def load(path):
    rows = {}
    lines = [l for l in path.read_text(errors='replace').splitlines()
             if l.count(',') == 4 and not l.startswith('libbpf')]
    for r in csv.DictReader(lines):
        rows[(r['file_name'], r['prog_name'])] = r
    return rows


def main():
    out, lst, flavours = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
    allowed = []
    if lst.exists():
        try:
            allowed = [name for _, name, _, _ in expected.entries(lst, {'DIFF'})]
        except expected.BadFile as e:
            raise SystemExit(str(e))
    problems, used, total, same = [], set(), 0, 0
    for f in flavours:
        base, pat = load(out / f'base-{f}.csv'), load(out / f'patched-{f}.csv')
        if not base or not pat:
            problems.append(f'{f}: no veristat results')
            continue
        for key, b in sorted(base.items()):
            if b['verdict'] != 'success':
                continue
            total += 1
            p = pat.get(key)
            got = 'missing' if p is None else (
                f"{p['verdict']}, insns {b['total_insns']} -> {p['total_insns']}, "
                f"states {b['total_states']} -> {p['total_states']}")
            if p is not None and p['verdict'] == 'success' and \
                    (p['total_insns'], p['total_states']) == (b['total_insns'], b['total_states']):
                same += 1
                continue
            name = f'{f}:{key[0]}:{key[1]}'
            hit = [a for a in allowed if fnmatch.fnmatchcase(name, a)]
            used.update(hit)
            print(f'  {"listed" if hit else "DIFF  "} {name}: {got}')
            if not hit:
                problems.append(f'{name} differs: {got}')
    for a in allowed:
        if a not in used:
            problems.append(f'{lst.name}: "{a}" matches no difference')
    print(f'verifier cost: {total} programs accepted by the base kernel, {same} the same on the patched one')
    for p in problems:
        print(f'FAIL - {p}')
    if not problems:
        print('ok - verifier cost: every difference from the base kernel is listed with its reason')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

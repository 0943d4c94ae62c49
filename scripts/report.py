#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize a VM run: per-flavour table, kernel log problems, final count line.

Usage: report.py VM_DIR CONFIG_DIR QEMU_STATUS. Exits 1 on any failed test,
missing result, kernel oops/BUG/WARN/KASAN/UBSAN report or guest timeout.
Where VM_DIR has expected.FLAVOUR (the cell's config/expected file, expanded,
scripts/vmrun.sh), also on every leaf whose name or verdict differs from it
(scripts/expected.py), and on a test of VM_DIR/allow that printed no result.
The leaves come from test_progs' result lines; its JSON summary, which
lists only the failures, must agree with them.
"""
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import expected  # noqa: E402

LINE = re.compile(r"^#(\d+)(?:/(\d+))?\s+(.*):(OK|FAIL|SKIP)\b")
BAD_KERNEL = re.compile(r'(Oops|BUG:|WARNING:|Kernel panic|KASAN|UBSAN|'
                        r'general protection fault|Call Trace:)')


def parse(log):
    """Leaf results of one test_progs run: {name: verdict}."""
    tests, subs = {}, {}
    for line in log.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        name, verdict = m.group(3), m.group(4)
        (subs if m.group(2) else tests)[name] = verdict
    leaves = dict(subs)
    for name, verdict in tests.items():
        if not any(s.startswith(name + '/') for s in subs):
            leaves[name] = verdict
        elif verdict == 'FAIL' and not any(
                subs[s] == 'FAIL' for s in subs if s.startswith(name + '/')):
            leaves[name] = 'FAIL'   # failed outside its subtests
    return leaves


def denied(path):
    out = []
    for line in Path(path).read_text().splitlines():
        entry, _, reason = line.partition('#')
        if entry.strip():
            out.append((entry.strip(), reason.strip()))
    return out


def check_expected(vm, flavour, leaves):
    """The problems of one flavour's results against expected.FLAVOUR (the
    cell's config/expected file, expanded by scripts/vmrun.sh), by name: a
    leaf missing, new or with another verdict; and a test of VM/allow that
    printed no result. A full run without that file (VM/cell, no
    expected.FLAVOUR) is a problem too."""
    path = vm / f'expected.{flavour}'
    out = []
    if path.exists():
        try:
            exp = expected.load(path)
        except expected.BadFile as e:
            return [f'{flavour}: {e}']
        out += [f'{flavour}: {p}' for p in expected.compare(exp, leaves)]
    elif (vm / 'cell').exists():
        _, kcc, edir = (vm / 'cell').read_text().split()
        out.append(f'{flavour}: no expected results {edir}/{kcc}.{flavour}; '
                   'check the run, then write them with scripts/btt bless RUN')
    out += [f'{flavour}: test {test} printed no result' for test in no_result(vm, flavour, leaves)]
    return out


def json_failures(path):
    """The leaves that test_progs' JSON summary (-J) names as failed. It
    lists failed tests only, so it cross-checks the log's FAIL lines."""
    try:
        data = json.loads(path.read_text(errors='replace'))
    except (OSError, ValueError):
        return None
    out = set()
    for t in data.get('results', []):
        subs = [f'{t["name"]}/{s["name"]}' for s in t.get('subtests', []) if s.get('failed')]
        out |= set(subs) if subs else ({t['name']} if t.get('failed') else set())
    return out


def no_result(d, flavour, leaves):
    """The tests of D/allow that neither printed a result in LEAVES nor are
    denied by D/deny.FLAVOUR."""
    tops = {name.split('/')[0] for name in leaves}
    deny = d / f'deny.{flavour}'
    tops |= {e for e, _ in denied(deny)} if deny.exists() else set()
    allow = d / 'allow'
    return [t for t in (allow.read_text().split() if allow.exists() else []) if t not in tops]


def main():
    vm, cfg, qemu_rc = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    total = {'OK': 0, 'FAIL': 0, 'SKIP': 0}
    problems = []
    if qemu_rc == 124:
        problems.append('guest timeout')
    console = (vm / 'console.log').read_text(errors='replace') \
        if (vm / 'console.log').exists() else ''
    bad = [ln for ln in console.splitlines() if BAD_KERNEL.search(ln)]
    if bad:
        problems.append('kernel reported: ' + bad[0].strip())
    for line in (vm / 'plan').read_text().splitlines():
        flavour = line.split()[0]
        log = vm / f'{flavour}.log'
        if not log.exists():
            problems.append(f'{flavour}: no results (guest did not run it)')
            continue
        leaves = parse(log.read_text(errors='replace'))
        per_test = {}
        for name, verdict in leaves.items():
            row = per_test.setdefault(name.split('/')[0], {'OK': 0, 'FAIL': 0, 'SKIP': 0})
            row[verdict] += 1
            total[verdict] += 1
        print(f'\nflavour {flavour}:')
        print(f'  {"test":<24} {"pass":>5} {"fail":>5} {"skip":>5}')
        for name, row in sorted(per_test.items()):
            print(f'  {name:<24} {row["OK"]:>5} {row["FAIL"]:>5} {row["SKIP"]:>5}')
        n = {v: sum(r[v] for r in per_test.values()) for v in ('OK', 'FAIL', 'SKIP')}
        print(f'  total {flavour}: {n["OK"]} passed, {n["FAIL"]} failed, '
              f'{n["SKIP"]} skipped')
        for name, verdict in sorted(leaves.items()):
            if verdict == 'FAIL':
                print(f'  FAIL {name}')
        deny = vm / f'deny.{flavour}'
        for entry, reason in denied(deny) if deny.exists() else []:
            print(f'  denylisted {entry}: {reason}')
        rc = (vm / f'{flavour}.rc').read_text().strip() \
            if (vm / f'{flavour}.rc').exists() else 'missing'
        problems += check_expected(vm, flavour, leaves)
        jf = json_failures(vm / f'{flavour}.json')
        for name in sorted(jf or ()):
            if leaves.get(name) != 'FAIL' and leaves.get(name.split('/')[0]) != 'FAIL':
                problems.append(f'{flavour}: {name} failed in {flavour}.json, '
                                f'but the log says {leaves.get(name, "nothing")}')
        if not leaves:
            problems.append(f'{flavour}: test_progs printed no results (rc {rc})')
        elif rc != '0' and not any(v == 'FAIL' for v in leaves.values()):
            problems.append(f'{flavour}: test_progs exited {rc}')
    for p in problems:
        print(f'problem: {p}')
    if problems:
        print(f'console log: {vm / "console.log"}')
    print(f'{total["OK"]} passed, {total["FAIL"] + len(problems)} failed, '
          f'{total["SKIP"]} skipped')
    return 1 if total['FAIL'] or problems else 0


if __name__ == '__main__':
    sys.exit(main())

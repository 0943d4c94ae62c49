#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the regression cell (scripts/regress.sh).

Usage: regresscmp.py OUT FAILS FLAVOUR...

OUT holds, per kernel K (patched, and base where it ran) and flavour F,
K-F.log (the test_progs output), K-F.console.log and K-F.status (qemu's exit
status of that boot); OUT/allow, the tests that were asked for, and
OUT/deny.F, those not run. Exits 1 on:
- a kernel report on a console (oops, BUG, WARN, KASAN, UBSAN) or a guest
  that timed out;
- a test of OUT/allow, not denied, without a result on the patched kernel;
- patched-kernel failures other than the leaves FAILS lists (basefails.py);
- a leaf that passes on the base kernel and not on the patched one.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from basefails import check_listed, read_logs  # noqa: E402
from report import BAD_KERNEL, no_result  # noqa: E402


def main():
    out, fails, flavours = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
    problems = []
    ran = {k: [f for f in flavours if (out / f'{k}-{f}.status').exists()] for k in ('patched', 'base')}
    if not ran['patched']:
        raise SystemExit(f'regresscmp: no patched-kernel run in {out}')
    kernels = [k for k in ran if ran[k]]
    for k in kernels:
        for f in ran[k]:
            if (out / f'{k}-{f}.status').read_text().strip() == '124':
                problems.append(f'{k} kernel ({f}): the guest timed out')
            console = out / f'{k}-{f}.console.log'
            text = console.read_text(errors='replace') if console.exists() else ''
            bad = [l for l in text.splitlines() if BAD_KERNEL.search(l)]
            if bad:
                problems.append(f'{k} kernel ({f}): a kernel report on the console: {bad[0].strip()}')
    res = {k: read_logs(out, k, flavours) for k in kernels}
    for f, leaves in res['patched'].items():
        problems += [f'{f}: {t} printed no result on the patched kernel' for t in no_result(out, f, leaves)]
    problems += check_listed(res['patched'], fails, 'the patched kernel')
    if 'base' in res:
        for f in flavours:
            base, new = res['base'][f], res['patched'][f]
            if not base:
                print(f'{f}: not run on the base kernel')
                continue
            lost = sorted(l for l, v in base.items() if v == 'OK' and new.get(l) != 'OK')
            won = sorted(l for l, v in new.items() if v == 'OK' and base.get(l) not in (None, 'OK'))
            same = sum(1 for l, v in base.items() if new.get(l) == v)
            print(f'{f}: {same} of {len(base)} base-kernel leaves the same on the patched kernel, '
                  f'{len(lost)} passing only on the base kernel, {len(won)} only on the patched one')
            problems += [f'{f}: {l} passes on the base kernel, but is {new.get(l, "missing")} '
                         'on the patched one' for l in lost]
            for l in won:
                print(f'  {f}: {l} passes only on the patched kernel (was {base[l]})')
    for p in problems:
        print(f'FAIL - {p}')
    if not problems:
        print('ok - the regression cell: failures as listed' +
              (', nothing that passes on the base kernel fails' if 'base' in res else ''))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

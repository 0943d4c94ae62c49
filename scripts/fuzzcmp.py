#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a differential fuzz run (scripts/fuzz.sh): OUT/base.txt and
OUT/patched.txt, one scripts/btf-fuzz.c line per seed, and the consoles.

Usage: fuzzcmp.py OUT INTENDED COUNT

Oracle A, flag-clear BTF: the patched kernel must give every seed the base
kernel's verdict, except where a rule of INTENDED (the written list of the
series' intended changes, each naming its Documentation/bpf/btf.rst row)
explains the difference. Refusing what the base accepts, and a rejection
without a log line, fail.
Oracle B: flag-clear BTF converted by libbpf to the attribute convention
gets the patched kernel's field verdicts, or a rule explains it.
Oracle C: no kernel splat on either console.
Prints the verdict changes by category; exits 1 on any failure.
"""
import collections
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import expected  # noqa: E402
from report import BAD_KERNEL  # noqa: E402

LINE = re.compile(r'^(\d+) f=(\d+) (.*?) \|(.*)$')


def parse(path):
    seeds, done = {}, None
    for line in Path(path).read_text(errors='replace').splitlines():
        if line.startswith('done '):
            done = int(line.split()[1])
            continue
        m = LINE.match(line)
        if m:
            v = dict(w.split('=', 1) for w in m.group(3).split())
            members = [(int(o), c) for o, c in (w.split(':', 1) for w in m.group(4).split())]
            seeds[int(m.group(1))] = (int(m.group(2)), v, members)
    return seeds, done


def rules(path):
    """KIND[,KIND...] CATEGORY REGEX  # btf.rst row (expected.entries)"""
    try:
        return [(kinds.split(','), cat, re.compile(rx[0]), row)
                for kinds, cat, rx, row in expected.entries(path, None, 1)]
    except expected.BadFile as e:
        raise SystemExit(str(e))


def bits(mask):
    """Byte offsets whose bit is set in a btf-fuzz hex bitmap"""
    return {i * 4 + b for i, c in enumerate(mask) for b in range(4) if int(c, 16) >> b & 1}


def is_err(v):
    return v.startswith('-')


def plain(v):
    """A map verdict without its "~" (the create log said something)"""
    return v.rstrip('~')


def same_map(b, p):
    """Two map verdicts agree: the same fields, or refused with one errno"""
    return b == p or (is_err(b) and is_err(p) and b.split('/')[0] == p.split('/')[0])


def explain(kind, chain, rl):
    for kinds, cat, rx, _ in rl:
        if kind in kinds and rx.search(chain):
            return cat
    return None


def member_of(off, members):
    own = None
    for o, c in members:
        if o <= off:
            own = c
    return own


def main():
    out, rl, count = Path(sys.argv[1]), rules(sys.argv[2]), int(sys.argv[3])
    base, bdone = parse(out / 'base.txt')
    pat, pdone = parse(out / 'patched.txt')
    fails, cats = [], collections.Counter()
    for k in ('base', 'patched'):
        con = (out / f'console-{k}.log').read_text(errors='replace')
        bad = [ln for ln in con.splitlines() if BAD_KERNEL.search(ln)]
        if bad:
            fails.append(f'{k} kernel reported: {bad[0].strip()}')
    if bdone != count or pdone != count:
        fails.append(f'incomplete: base ran {bdone}, patched {pdone} of {count} seeds')

    def fail(seed, why):
        fails.append(f'seed {seed}: {why}')

    for seed in sorted(pat):
        f, pv, members = pat[seed]
        chains = ' '.join(c for _, c in members)
        # Every rejection on the patched kernel says why.
        if is_err(pv['L']) and pv.get('g') == '0':
            fail(seed, f'load refused ({pv["L"]}) with an empty log: {chains}')
        for m in ('A', 'H', 'U'):
            if is_err(pv.get(m, '')) and not pv[m].endswith('/1') and pv['L'] == 'ok':
                fail(seed, f'map {m} refused ({pv[m]}) with an empty log: {chains}')
        if seed not in base:
            continue
        bf, bv, _ = base[seed]
        if f & ~1:
            cats['unknown header flag'] += 1
            if not is_err(pv['L']):
                fail(seed, f'unknown header flag {f} accepted')
            continue
        if f:
            cats['attribute convention (base refuses the flag)'] += 1
            continue
        # Oracle A
        changed = []
        if pv['L'] != bv['L']:
            if not is_err(bv['L']):
                fail(seed, f'base loads, patched refuses {pv["L"]}: {chains}')
            elif not is_err(pv['L']):
                changed.append(('load', chains))
            else:
                changed.append(('errno', chains))
        else:
            for m in ('A', 'H', 'U'):
                b, p = plain(bv.get(m, '')), plain(pv.get(m, ''))
                if same_map(b, p):
                    continue
                if is_err(p) and not is_err(b):
                    fail(seed, f'map {m}: base creates it, patched refuses {p}: {chains}')
                elif is_err(b) and not is_err(p):
                    changed.append(('map', chains))
                elif is_err(b):
                    changed.append(('errno', chains))
                else:
                    bb, pb = bits(b), bits(p)
                    for off in sorted(pb ^ bb):
                        c = member_of(off, members)
                        changed.append(('more' if off in pb else 'less', c))
        seen = set()
        for kind, chain in changed:
            if (kind, chain) in seen:
                continue
            seen.add((kind, chain))
            cat = explain(kind, chain, rl)
            if not cat and kind == 'more':
                cat = explain('value', chains, rl)
            if cat:
                cats[f'{kind}: {cat}'] += 1
            else:
                fail(seed, f'unexplained change ({kind}) base {bv} patched {pv}: {chain}')
        if not changed:
            cats['same verdict'] += 1
        # Oracle B
        c = pv.get('c')
        if c is None:
            continue
        if re.fullmatch(r'-\d+', c):
            cats[f'conversion refused ({c})'] += 1
            continue
        # Without the flag, a special field that cannot be used is ignored
        # and logged; with it, it is an error (btf.rst: "without the flag
        # nothing that loaded before is refused").
        if c.startswith('L:'):
            if pv.get('g') == '2':
                cats['converted: refused with the flag, ignored and logged without'] += 1
            else:
                fail(seed, f'converted BTF fails to load ({c}): {chains}')
            continue
        cv = dict(w.split(':', 1) for w in c.split(','))
        same = True
        for m in ('A', 'H', 'U'):
            b, p = plain(pv.get(m, '')), plain(cv.get(m, ''))
            if same_map(b, p):
                continue
            same = False
            # With the flag, a malformed special field is -EINVAL before
            # the map type's own check (-EOPNOTSUPP) or another field's
            # error: refused either way.
            if is_err(p) and is_err(b):
                cats['converted: map refused either way, another errno'] += 1
            elif is_err(p) and pv.get(m, '').endswith('~'):
                cats['converted: map refused with the flag, field ignored and logged without'] += 1
            else:
                fail(seed, f'converted map {m} {cv.get(m)}, flag clear {pv.get(m)}: {chains}')
        if same:
            cats['converted: same fields'] += 1
    print(f'differential fuzz: {len(pat)} seeds, base {len(base)}')
    for cat, n in sorted(cats.items(), key=lambda x: (-x[1], x[0])):
        print(f'  {n:6d}  {cat}')
    show = int(os.environ.get('FUZZ_SHOW', '40'))
    for f in fails[:show]:
        print('FAIL', f)
    if len(fails) > show:
        print(f'FAIL ... {len(fails) - show} more')
    print(f'fuzz: {len(fails)} failures')
    if fails:
        print(f'FAIL - differential fuzz of {count} seeds: {len(fails)} failures')
    else:
        print(f'ok - differential fuzz of {count} seeds: every verdict change explained, no splat')
    sys.exit(1 if fails else 0)


if __name__ == '__main__':
    main()

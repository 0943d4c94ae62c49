#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The test matrix of README.md, generated from config/expected/.

Usage: matrix.py TOP [--check | --write]
Prints the table (one row per base, kernel and object flavour, with the
expected OK and SKIP leaves); --write puts it into TOP/README.md between
its matrix markers, --check exits 1 when README.md's copy differs.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import expected  # noqa: E402

BEGIN, END = '<!-- matrix:begin (scripts/matrix.py) -->', '<!-- matrix:end -->'


def rows(top):
    out = []
    for f in expected.bases(top):
        base, edir = f[0], top / f[6]
        files = sorted(p for p in edir.glob('*.*') if p.is_file()) if edir.is_dir() else []
        if not files:
            out.append(f'| {base} | - | - | - | - | no expected results yet: run its cells, then `btt bless RUN` |')
        for p in files:
            kcc, flavour = p.name.split('.', 1)
            e = expected.load(p)
            ok = sum(1 for v, _ in e.values() if v == 'OK')
            skips = sorted(n for n, (v, _) in e.items() if v == 'SKIP')
            inc = expected.read(p)[0]
            out.append(f'| {base} | {kcc} | {flavour} | {ok} | {len(skips)}'
                       + (f' | {inc} with differences |' if inc else ' | |'))
    return out


def table(top):
    return '\n'.join([BEGIN,
                      '| base | kernel | objects | OK | SKIP | file |',
                      '|---|---|---|---|---|---|'] + rows(top) + [END])


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__.split('Usage: ')[1].split('\n')[0])
    top = Path(sys.argv[1])
    t = table(top)
    mode = sys.argv[2] if len(sys.argv) > 2 else None
    if mode is None:
        print(t)
        return 0
    readme = top / 'README.md'
    text = readme.read_text()
    if BEGIN not in text or END not in text:
        raise SystemExit(f'{readme}: no matrix markers')
    a, b = text.index(BEGIN), text.index(END) + len(END)
    if mode == '--check':
        if text[a:b] != t:
            print('README.md: the test matrix differs from config/expected/; run scripts/btt matrix --write')
            return 1
        return 0
    readme.write_text(text[:a] + t + text[b:])
    return 0


if __name__ == '__main__':
    sys.exit(main())

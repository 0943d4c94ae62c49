#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the expected results of the cells of a run (btt bless).

Usage: bless.py TOP RUN_OR_VM_DIR...

Each VM dir (RUN/vm-KCC, or a dir given itself) whose "cell" file names a
full run (scripts/vmrun.sh) gives TOP/EXPECTED_DIR/KCC.FLAVOUR for each of its
flavours: every leaf with its verdict. A file that includes another
(scripts/expected.py) stays a list of differences from it. A skip keeps the
reason the file gave it; a new one gets a FIXME reason, which the file's
reader refuses until a person writes the real one. Prints the diff of every
file it changes. Refuses a run with a failed leaf. Exits 1 when a FIXME was
written or nothing could be blessed.
"""
import difflib
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import expected  # noqa: E402
from report import parse  # noqa: E402

FIXME = 'FIXME: why does this skip? (new in {})'
MEASURED = '# Measured with '


def versions(vm_dir):
    """The header line that says which tool versions the run had: its
    manifest's drift from config/toolchain.lock, if any (run.sh writes
    RUN/manifest.txt beside RUN/vm-KCC)."""
    m = vm_dir.parent / 'manifest.txt'
    if not m.exists():
        return None
    drift = [ln.split(':', 1)[1].strip() for ln in m.read_text().splitlines() if ln.startswith('drift:')]
    if not drift:
        return MEASURED + "config/toolchain.lock's versions (no drift)."
    return MEASURED + 'drift from config/toolchain.lock: ' + '; '.join(drift) + '.'


def vm_dirs(paths):
    out = []
    for p in map(Path, paths):
        if (p / 'cell').exists():
            out.append(p)
        else:
            out += sorted(d for d in p.glob('vm-*') if (d / 'cell').exists())
    return out


def cells(top, dirs):
    """[(target file, leaves, where)] of every flavour of every VM dir."""
    out = []
    for d in dirs:
        _, kcc, edir = (d / 'cell').read_text().split()
        for line in (d / 'plan').read_text().splitlines():
            flavour = line.split()[0]
            log = d / f'{flavour}.log'
            leaves = parse(log.read_text(errors='replace')) if log.exists() else {}
            if not leaves:
                raise SystemExit(f'error: {log} has no results; nothing to bless')
            bad = sorted(n for n, v in leaves.items() if v == 'FAIL')
            if bad:
                raise SystemExit(f'error: {d.name}/{flavour}: {len(bad)} failed ({bad[0]}, ...): '
                                 'a failure is never expected; fix it or deny-list it with its reason')
            out.append((top / edir / f'{kcc}.{flavour}', leaves, f'{d}/{flavour}', versions(d)))
    return out


def bless(target, leaves, where, measured=None):
    """Write TARGET for LEAVES; returns (diff, FIXMEs written). MEASURED: the
    header line naming the run's tool versions (replaces the old one)."""
    old_text = target.read_text() if target.exists() else ''
    include, header, old = None, [], {}
    if target.exists():
        include, _, _, header = expected.read(target, strict=False)
        old = expected.load(target, strict=False)
    else:
        header = ['# SPDX-License-Identifier: GPL-2.0',
                  f'# Expected leaves of the cell {target.parent.name}/{target.name}',
                  '# (kernel.objects): scripts/expected.py; written by btt bless.']
    if measured:
        header = [h for h in header if not h.startswith(MEASURED)] + [measured]
    new, fixmes = {}, 0
    for name, verdict in leaves.items():
        reason = ''
        if verdict == 'SKIP':
            reason = old[name][1] if old.get(name, ('', ''))[0] == 'SKIP' else ''
            if not reason:
                reason, fixmes = FIXME.format(where), fixmes + 1
        new[name] = (verdict, reason)
    base = expected.load(target.parent / include, strict=False) if include else None
    text = expected.render(new, header, include, base)
    diff = ''.join(difflib.unified_diff(old_text.splitlines(True), text.splitlines(True),
                                        str(target), str(target)))
    if text != old_text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return diff, fixmes


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__.split('Usage: ')[1].split('\n')[0])
    top = Path(sys.argv[1])
    todo = cells(top, vm_dirs(sys.argv[2:]))
    if not todo:
        raise SystemExit('error: no full VM run there (a vm-*/cell file); nothing to bless')
    # A file that includes another is written after the files it could include.
    todo.sort(key=lambda c: (c[0].exists() and expected.read(c[0], False)[0] is not None, str(c[0])))
    fixmes = 0
    for target, leaves, where, measured in todo:
        diff, n = bless(target, leaves, where, measured)
        fixmes += n
        print(diff or f'{target}: unchanged ({len(leaves)} leaves)')
    if fixmes:
        print(f'bless: {fixmes} new skips need their reason: replace each FIXME, then run scripts/btt matrix --write')
        return 1
    if (top / 'README.md').exists():
        subprocess.run([sys.executable, str(Path(__file__).parent / 'matrix.py'), str(top), '--write'], check=True)
        print('bless: README.md test matrix written (scripts/matrix.py)')
    return 0


if __name__ == '__main__':
    sys.exit(main())

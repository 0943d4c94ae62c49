#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Expected test results by name: the one format of config/expected/.

A file lists every leaf (TEST/SUBTEST, or TEST without subtests) a cell
runs, one per line, sorted by name:

    OK    btf_tag/btf_type_tag_percpu_mod1
    SKIP  percpu_alloc/cpu_flag_create  # needs 2 possible CPUs; the guest sees 1

A SKIP needs its reason after "  # " (two spaces; names hold " #"; a reason that starts with FIXME is
not one: btt bless writes it for a new skip, a person replaces it). FAIL is
never expected: a failed test fails the run whatever this file says.
"include FILE" (first entry, FILE in the same folder) starts from FILE's
entries; the lines after it are the differences: an entry with another
verdict or reason, or "DROP NAME" for a leaf of FILE this cell does not
run. btt bless keeps such a file as a list of differences.

Every other outcome table in config/ is a list in the same line format,
"WORD NAME [ARG]  # reason" (entries() reads them): basecmp-fails and
regress-fails ("FAIL NAME" or "FLAKY NAME", NAME may be "FLAVOUR:NAME" and
hold fnmatch wildcards), vcost-diffs and libbpf-old-diffs ("DIFF NAME"),
fuzz-intended ("KIND[,KIND] CATEGORY REGEX"). test_progs reads the deny
lists itself: they stay in its format ("NAME  # reason").

Usage: expected.py expand FILE   (prints the entries, includes resolved)
"""
import re
import sys
from pathlib import Path

# "WORD NAME  # reason": the reason follows two or more spaces and a '#'
# (test names hold " #").
LIST = re.compile(r'^(\S+)\s+(.+?)(?: {2,}#\s*(.*?))?\s*$')
VERDICTS = ('OK', 'SKIP', 'DROP')
INCLUDE = re.compile(r'^include\s+(\S+)\s*$')


class BadFile(Exception):
    pass


def read(path, strict=True):
    """(include, {name: (verdict, reason)}, drops, header) of one file,
    includes not resolved. HEADER: the comment lines before the first entry.
    STRICT=False (btt bless) takes a skip without its reason."""
    path = Path(path)
    include, entries, drops, header, body = None, {}, set(), [], False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        where = f'{path}:{n}'
        s = line.strip()
        if not s or s.startswith('#'):
            if not body:
                header.append(line)
            continue
        m = INCLUDE.match(s)
        if m:
            if body:
                raise BadFile(f'{where}: "include" must be the first entry')
            include, body = m.group(1), True
            continue
        body = True
        m = LIST.match(s)
        if not m or m.group(1) not in VERDICTS:
            raise BadFile(f'{where}: not "OK|SKIP|DROP NAME [# reason]": {s}')
        verdict, name, reason = m.group(1), m.group(2), m.group(3) or ''
        if name in entries or name in drops:
            raise BadFile(f'{where}: {name} is listed twice')
        if strict and verdict == 'SKIP' and (not reason or reason.startswith('FIXME')):
            raise BadFile(f'{where}: the skip of {name} needs its reason after "  # " (two spaces)')
        if verdict == 'DROP':
            if include is None:
                raise BadFile(f'{where}: DROP {name} without an include')
            drops.add(name)
        else:
            entries[name] = (verdict, reason if verdict == 'SKIP' else '')
    return include, entries, drops, header


def entries(path, words=None, args=0):
    """[(word, name, args, reason)] of an outcome list: "WORD NAME [ARG...]
    # reason" lines (two spaces before the '#'), each with its reason. WORDS:
    the words it may use (None: any); ARGS: how many words after NAME (NAME
    itself may hold spaces when ARGS is 0)."""
    path, out = Path(path), []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        s = line.strip()
        if not s or s.startswith('#'):
            continue
        m = LIST.match(s)
        if not m or (words is not None and m.group(1) not in words):
            want = '|'.join(sorted(words)) if words else 'WORD'
            raise BadFile(f'{path}:{n}: not "{want} NAME{" ARG" * args}  # reason": {s}')
        if not m.group(3):
            raise BadFile(f'{path}:{n}: {m.group(2)} needs its reason after "  # " (two spaces)')
        rest = m.group(2).rsplit(None, args) if args else [m.group(2)]
        if len(rest) != args + 1:
            raise BadFile(f'{path}:{n}: not "WORD NAME{" ARG" * args}  # reason": {s}')
        out.append((m.group(1), rest[0], rest[1:], m.group(3)))
    return out


def bases(top):
    """The rows of TOP/config/bases, each a list of its columns (BASE
    PACKAGE VERSION SHA256 ARCHIVE SERIES EXPECTED PREREQ)."""
    rows = [ln.split('#')[0].split() for ln in (Path(top) / 'config/bases').read_text().splitlines()]
    return [r for r in rows if r]


def load(path, strict=True, _seen=()):
    """{name: (verdict, reason)} of an expected file, includes resolved."""
    path = Path(path).resolve()
    if path in _seen:
        raise BadFile(f'{path}: includes itself')
    include, entries, drops, _ = read(path, strict)
    if include is None:
        return entries
    inc = path.parent / include
    if not inc.exists():
        raise BadFile(f'{path}: includes {include}, which does not exist')
    out = load(inc, strict, _seen + (path,))
    for name in sorted(drops):
        if name not in out:
            raise BadFile(f'{path}: DROP {name}, which {include} does not list')
        del out[name]
    out.update(entries)
    return out


def line(name, verdict, reason=''):
    return f'{verdict:<5} {name}' + (f'  # {reason}' if reason else '')


def render(entries, header=(), include=None, base=None):
    """The text of a file holding ENTRIES ({name: (verdict, reason)}); with
    INCLUDE, only the differences from BASE (that file's entries)."""
    out = list(header)
    if include is not None:
        out.append(f'include {include}')
        for name in sorted(set(base) | set(entries)):
            if name not in entries:
                out.append(line(name, 'DROP'))
            elif base.get(name) != entries[name]:
                out.append(line(name, *entries[name]))
    else:
        out += [line(name, *entries[name]) for name in sorted(entries)]
    return '\n'.join(out) + '\n'


def compare(exp, leaves, limit=40):
    """The problems of LEAVES ({name: verdict}) against EXP (load())."""
    out = []
    for name in sorted(set(exp) | set(leaves)):
        want = exp[name][0] if name in exp else None
        got = leaves.get(name)
        if want == got or got == 'FAIL':
            continue    # a failure is counted as one on its own
        if got is None:
            out.append(f'missing {name}: expected {want}, printed no result')
        elif want is None:
            out.append(f'new {name}: {got}, not in the expected results')
        else:
            out.append(f'changed {name}: {got}, expected {want}')
    if len(out) > limit:
        out = out[:limit] + [f'... and {len(out) - limit} more differences']
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] != 'expand':
        raise SystemExit(__doc__.split('Usage: ')[1])
    try:
        entries = load(sys.argv[2])
    except BadFile as e:
        raise SystemExit(f'error: {e}')
    sys.stdout.write(render(entries))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Code that one patch of a series adds and a later patch removes.

Usage: addremove.py [PATCH...]  (in series order; default: the primary base's
series of config/bases, its prerequisite series first)

A reviewer reads such code twice and bisects through code that is gone at
the end. For each pair of patches (i, j), i < j, it lists the C lines that
patch i adds and patch j removes from the same file, without the lines
patch j adds back (moved code) and without lines that carry no code of
their own (braces, blank, "return 0;", ...), and names the functions,
macros, struct members and static tables among them. Prints one block per
pair and "addremove: N pairs"; exits 1 if there is any.
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import expected  # noqa: E402

TOP = Path(__file__).resolve().parent.parent

# Lines too common to say anything: a match on them is not a finding.
TRIVIAL = re.compile(r'^(|[{}();,]*|else|break;|continue;|return;|return 0;|return err;|'
                     r'return ret;|return true;|return false;|default:|\*/|/\*|\*|'
                     r'fallthrough;|goto out;|goto err;|#endif|#else|\}\s*else\s*\{?)$')
TYPES = r'(?:static|inline|const|struct\s+\w+|enum\s+\w+|void|bool|int|long|char|u8|u16|u32|u64|s32|__u8|__u16|__u32|__u64)'
NAMES = [
    ('function', re.compile(r'^' + TYPES + r'(?:\s+' + TYPES + r')*[\s*]+(\w{2,})\([^;]*$')),
    ('macro', re.compile(r'^#define\s+(\w+)')),
    ('table', re.compile(r'^(?:static\s+const\s+struct\s+\w+\s+|\}\s*)(\w+)\[\]\s*=')),
]
MEMBER = re.compile(r'^' + TYPES + r'(?:\s+' + TYPES + r')*[\s*]+(\w+)(?:\[\w*\])?;')


def parse(path):
    """{file: (added lines, removed lines, {added line: struct it is a
    member of})} of one patch, C files only."""
    out = defaultdict(lambda: (set(), set(), {}))
    cur = None
    struct = None
    with open(path, errors='replace') as f:
        for ln in f:
            if ln.startswith('diff --git '):
                m = re.match(r'diff --git a/(\S+) b/(\S+)', ln)
                cur = m.group(2) if m and re.search(r'\.[ch]$', m.group(2)) else None
                struct = None
                continue
            if cur is None or ln.startswith(('+++ ', '--- ', '@@')):
                struct = None if ln.startswith('@@') else struct
                continue
            body = ln[1:].rstrip('\n')
            # The struct definition a line is in (context lines count).
            m = re.match(r'^struct (\w+) \{$', body)
            if m and ln[:1] in ' +':
                struct = m.group(1)
            elif body.startswith('};'):
                struct = None
            if ln[:1] in '+-':
                text = body.strip()
                if TRIVIAL.match(text):
                    continue
                out[cur][0 if ln[0] == '+' else 1].add(text)
                if ln[0] == '+' and struct and body.startswith('\t'):
                    out[cur][2][text] = struct
    return out


def names(lines, members):
    found = []
    for text in sorted(lines):
        if text in members:
            m = MEMBER.match(text)
            if m:
                found.append(f'member {members[text]}.{m.group(1)}')
            continue
        for kind, rx in NAMES:
            m = rx.match(text)
            if m:
                found.append(f'{kind} {m.group(1)}')
                break
    return sorted(set(found))


def main(paths):
    # Named by their number, and by their dir when they come from several
    # (bpf/0003: the prerequisite's; 0003: the series' own, in patches/).
    dirs = {Path(p).resolve().parent for p in paths}

    def name(p):
        num = Path(p).name.split('-', 1)[0]
        d = Path(p).resolve().parent.name
        return num if len(dirs) == 1 or d == 'patches' else f'{d}/{num}'
    patches = [(name(p), parse(p)) for p in paths]
    pairs = 0
    for i, (pi, di) in enumerate(patches):
        for pj, dj in patches[i + 1:]:
            gone = {}
            for f, (added, _, _) in di.items():
                if f not in dj:
                    continue
                added_j, removed_j, _ = dj[f]
                lines = (added & removed_j) - added_j
                if lines:
                    gone[f] = lines
            if not gone:
                continue
            pairs += 1
            n = sum(len(v) for v in gone.values())
            across = ' (across two series)' if ('/' in pi) != ('/' in pj) else ''
            print(f'{pi} adds, {pj} removes: {n} lines{across}')
            for f, lines in sorted(gone.items()):
                what = names(lines, di[f][2])
                print(f'  {f}: {len(lines)} lines' + (f'; {", ".join(what)}' if what else ''))
    print(f'addremove: {pairs} pairs')
    return 1 if pairs else 0


def default_series():
    """The primary base's patches: PREREQ dirs, then SERIES (no overrides)."""
    row = expected.bases(TOP)[0]
    dirs = [d for d in row[7].split(',') if d != '-'] + [row[5].split(',')[-1]]
    out = []
    for d in dirs:
        for ln in (TOP / d / 'series').read_text().splitlines():
            ln = ln.split('#')[0].strip()
            if ln:
                out.append(str(TOP / d / ln))
    return out


if __name__ == '__main__':
    if sys.argv[1:2] in (['-h'], ['--help']):
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:] or default_series()))

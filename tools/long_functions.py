#!/usr/bin/env python3
"""Lists C++ function bodies longer than a limit (default 120 lines), longest first.

A rough scanner, not a parser: a definition is a line at namespace or class level whose text
ends in '{' after a ')' (optionally followed by const/override/noexcept/-> type) and that is not
a control statement; its body runs to the matching brace (braces in strings, chars and comments
are skipped). Usage: tools/long_functions.py [--limit N] PATH...
"""
import re
import sys
from pathlib import Path

def strip(line, state):
    out, i = [], 0
    while i < len(line):
        if state['block']:
            j = line.find('*/', i)
            if j < 0:
                return ''.join(out)
            state['block'] = False
            i = j + 2
            continue
        c = line[i]
        if line.startswith('//', i):
            break
        if line.startswith('/*', i):
            state['block'] = True
            i += 2
            continue
        if c in '"\'':
            q, i = c, i + 1
            while i < len(line) and line[i] != q:
                i += 2 if line[i] == '\\' else 1
            i += 1
            out.append(q + q)
            continue
        out.append(c)
        i += 1
    return ''.join(out)

HEAD = re.compile(r'\)\s*(const)?\s*(noexcept)?\s*(override|final)?\s*(->\s*[\w:<>,\s*&]+)?\s*\{\s*$')
CONTROL = re.compile(r'^\s*(if|for|while|switch|catch|else|do|return|namespace|struct|class|enum)\b')

def scan(path, limit):
    state = {'block': False}
    lines = [strip(l.rstrip('\n'), state) for l in open(path, encoding='utf-8', errors='replace')]
    found, depth, start, start_depth, name = [], 0, None, 0, ''
    for n, text in enumerate(lines, 1):
        if start is None and HEAD.search(text) and not CONTROL.match(text) and '=' not in text.split('(')[0]:
            # the signature may begin on an earlier line
            k = n - 1
            while k > 0 and '(' not in lines[k - 1 + 0] and k > n - 4:
                k -= 1
            start, start_depth, name = n, depth, text.strip()[:90]
        depth += text.count('{') - text.count('}')
        if start is not None and depth <= start_depth:
            length = n - start + 1
            if length > limit:
                found.append((length, f'{path}:{start}', name))
            start = None
    return found

def main(argv):
    limit = 120
    if argv[:1] == ['--limit']:
        limit, argv = int(argv[1]), argv[2:]
    found = []
    for arg in argv:
        p = Path(arg)
        files = [p] if p.is_file() else sorted(q for q in p.rglob('*') if q.suffix in ('.cc', '.h'))
        for f in files:
            found += scan(f, limit)
    for length, where, name in sorted(found, reverse=True):
        print(f'{length:5d}  {where}  {name}')
    return 1 if found else 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

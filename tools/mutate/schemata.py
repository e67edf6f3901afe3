"""Mutation sites of a C++ file and its mutant schemata (tools/mutate/README.md).

A site is one place of the source and one operator applied to it. Sites are found on the clang AST
(libclang, Debian python3-clang-14) and written back as text: the schemata file is the original
with every site replaced by a run-time choice,

    (TC_MUT(17) ? (a) <= (b) : TC_MUT(18) ? (a) >= (b) : a < b)

so that one build holds every mutant of the file and TOPOCHECK_MUTANT=17 (read once, at the first
test) selects one. Sites nest (a comparison inside a negated condition inside a removed statement):
each group is rendered with the groups inside it already rendered, and only one switch is ever on.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import zlib

import clang.cindex as ci

_LIBCLANG = "/usr/lib/llvm-14/lib/libclang-14.so.1"
if not ci.Config.loaded:
    ci.Config.set_library_file(_LIBCLANG)

K = ci.CursorKind

# Operators (the issue's list, in the spirit of Mull and Dextool).
ROR = "relational"            # < <= > >= == != replaced by their boundary and their negation
LCR = "logical"               # && <-> ||
NEG = "negate-condition"      # if/while/for/?: condition c -> !c
BOUND = "loop-bound"          # for (...; i < n; ...) -> n + 1, n - 1
INDEX = "index"               # a[i] -> a[i + 1], a[i - 1]
REMOVE = "remove-statement"   # return inside an if, continue, break, an assignment statement
CONST = "constant"            # integer literal: 0 -> 1, 1 -> 0, n -> n + 1
SWAP = "swap-arguments"       # f(a, b, ...) -> f(b, a, ...) when a and b have the same type

OPERATORS = [ROR, LCR, NEG, BOUND, INDEX, REMOVE, CONST, SWAP]

_ROR_REPLACEMENTS = {
    "<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"],
    "==": ["!="], "!=": ["=="],
}
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}


@dataclasses.dataclass
class Site:
    id: int
    operator: str
    start: int                 # byte offsets of the replaced extent in the original file
    end: int
    line: int
    column: int
    function: str
    original: str              # the extent's original text
    mutated: str               # the extent's text under this mutant (nested sites not applied)
    pieces: list               # how to render the mutant: str or (start, end) sub-ranges
    statement: bool = False    # a removal: rendered as a guarded statement, not an expression

    def to_json(self, file: str) -> dict:
        return {"id": self.id, "file": file, "line": self.line, "column": self.column,
                "function": self.function, "operator": self.operator,
                "original": self.original, "mutated": self.mutated}


_KEYWORD = {K.IF_STMT: "if", K.WHILE_STMT: "while", K.DO_STMT: "do", K.FOR_STMT: "for",
            K.CONTINUE_STMT: "continue", K.BREAK_STMT: "break"}


def file_key(relpath: str) -> int:
    """A stable number per file: the high digits of every site id of that file."""
    return zlib.crc32(relpath.encode()) % 90000 + 10000


def _tokens(tu, start, end):
    return list(tu.get_tokens(extent=ci.SourceRange.from_locations(start, end)))


class _Finder:
    def __init__(self, path: str, relpath: str, args: list[str]):
        self.path = os.path.realpath(path)
        self.relpath = relpath
        with open(path, "rb") as f:
            self.src = f.read()
        index = ci.Index.create()
        self.tu = index.parse(path, args=args, options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES * 0)
        self.sites: list[Site] = []
        self.base = file_key(relpath) * 100000
        self.taken: set = set()

    # ---- helpers -------------------------------------------------------------------------
    def own(self, cursor) -> bool:
        ext = cursor.extent
        if ext.start.file is None or ext.end.file is None:
            return False
        return (os.path.realpath(ext.start.file.name) == self.path
                and os.path.realpath(ext.end.file.name) == self.path)

    def span(self, cursor):
        return cursor.extent.start.offset, cursor.extent.end.offset

    def text(self, a, b) -> str:
        return self.src[a:b].decode("utf-8", "replace")

    def add(self, operator, start, end, pieces, function, statement=False):
        key = (operator, start, end, json.dumps(pieces))
        if key in self.taken:
            return
        self.taken.add(key)
        line = self.src.count(b"\n", 0, start) + 1
        col = start - (self.src.rfind(b"\n", 0, start) + 1) + 1
        mutated = "".join(p if isinstance(p, str) else self.text(*p) for p in pieces)
        self.sites.append(Site(self.base + len(self.sites) + 1, operator, start, end, line, col, function,
                               self.text(start, end), mutated, pieces, statement))

    def op_token(self, cursor, lhs, rhs):
        """The operator's spelling and offsets between lhs and rhs (None under a macro)."""
        a = lhs.extent.end.offset
        b = rhs.extent.start.offset
        between = self.text(a, b)
        m = re.fullmatch(r"(\s*)(\S+)(\s*)", between)
        if not m:
            return None
        return m.group(2), a + len(m.group(1)), a + len(m.group(1)) + len(m.group(2))

    # ---- the walk ------------------------------------------------------------------------
    def run(self):
        for c in self.tu.cursor.get_children():
            if self.own(c):
                self.walk(c, None, "", False)
        return self.sites

    def walk(self, c, parent, function, constant_context, grandparent=None):
        self.grandparent = grandparent
        kind = c.kind
        if kind in (K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.FUNCTION_TEMPLATE,
                    K.CONVERSION_FUNCTION, K.LAMBDA_EXPR):
            if kind != K.LAMBDA_EXPR:
                function = c.spelling
            tokens = [t.spelling for t in c.get_tokens()][:12]
            if "constexpr" in tokens or "consteval" in tokens:
                return  # a run-time switch cannot live in a constant expression
        if kind in (K.STATIC_ASSERT, K.ENUM_DECL, K.TEMPLATE_NON_TYPE_PARAMETER, K.CASE_STMT):
            constant_context = True
        if kind == K.VAR_DECL:
            toks = [t.spelling for t in c.get_tokens()][:6]
            if "constexpr" in toks or "constinit" in toks:
                constant_context = True
            if parent is None or parent.kind in (K.NAMESPACE, K.TRANSLATION_UNIT):
                constant_context = True  # namespace-scope initializers: often constant, never a judge
        if function and not constant_context and self.own(c):
            self.grandparent = grandparent
            self.visit(c, parent, function)
        for child in c.get_children():
            self.walk(child, c, function, constant_context, parent)

    def visit(self, c, parent, function):
        kind = c.kind
        children = list(c.get_children())
        s, e = self.span(c)
        if kind == K.BINARY_OPERATOR and len(children) == 2:
            lhs, rhs = children
            op = self.op_token(c, lhs, rhs)
            if op is None:
                return
            spelling, oa, ob = op
            L, R = self.span(lhs), self.span(rhs)
            if spelling in _ROR_REPLACEMENTS:
                for rep in _ROR_REPLACEMENTS[spelling]:
                    self.add(ROR, s, e, ["(", L, ") " + rep + " (", R, ")"], function)
                if parent is not None and parent.kind == K.FOR_STMT and spelling in ("<", "<=", ">", ">=", "!="):
                    for d in ("+ 1", "- 1"):
                        self.add(BOUND, R[0], R[1], ["((", R, ") " + d + ")"], function)
            elif spelling in ("&&", "||"):
                rep = "||" if spelling == "&&" else "&&"
                self.add(LCR, s, e, ["(", L, ") " + rep + " (", R, ")"], function)
            elif spelling == "=" and parent is not None and parent.kind == K.COMPOUND_STMT:
                self.remove(c, function)
        elif kind == K.COMPOUND_ASSIGNMENT_OPERATOR and parent is not None and parent.kind == K.COMPOUND_STMT:
            self.remove(c, function)
        elif kind in (K.IF_STMT, K.WHILE_STMT, K.DO_STMT, K.CONDITIONAL_OPERATOR, K.FOR_STMT):
            if kind != K.CONDITIONAL_OPERATOR and not self.spelled_here(c, _KEYWORD[kind]):
                return  # a statement of a macro's body (TC_CHECK's do ... while (0)): not in this text
            cond = self.condition(c, children)
            if cond is not None:
                C = self.span(cond)
                self.add(NEG, C[0], C[1], ["!static_cast<bool>(", C, ")"], function)
        elif kind == K.ARRAY_SUBSCRIPT_EXPR and len(children) == 2:
            I = self.span(children[1])
            for d in ("+ 1", "- 1"):
                self.add(INDEX, I[0], I[1], ["((", I, ") " + d + ")"], function)
        elif kind == K.CALL_EXPR and c.spelling == "operator[]" and len(children) >= 2:
            idx = children[-1]
            if self.own(idx):
                I = self.span(idx)
                for d in ("+ 1", "- 1"):
                    self.add(INDEX, I[0], I[1], ["((", I, ") " + d + ")"], function)
        elif kind == K.INTEGER_LITERAL:
            t = self.text(s, e)
            m = re.fullmatch(r"(\d+)([uUlL]*)", t)
            if m and parent is not None and parent.kind not in (K.TEMPLATE_REF,):
                v = int(m.group(1))
                rep = "1" if v == 0 else ("0" if v == 1 else str(v + 1))
                self.add(CONST, s, e, [rep + m.group(2)], function)
        elif kind in (K.RETURN_STMT,) and parent is not None and self.in_if_branch(c, parent) and \
                self.spelled_here(c, "return"):
            self.remove(c, function)
        elif kind in (K.CONTINUE_STMT, K.BREAK_STMT) and parent is not None and \
                parent.kind in (K.COMPOUND_STMT, K.IF_STMT) and self.spelled_here(c, _KEYWORD[kind]):
            self.remove(c, function)
        elif kind == K.CALL_EXPR and c.spelling and not c.spelling.startswith("operator"):
            args = list(c.get_arguments())
            if len(args) >= 2 and all(self.own(a) for a in args[:2]):
                a0, a1 = args[0], args[1]
                if a0.type.get_canonical().spelling == a1.type.get_canonical().spelling and \
                        a0.type.get_canonical().spelling and self.text(*self.span(a0)) != self.text(*self.span(a1)):
                    A0, A1 = self.span(a0), self.span(a1)
                    if s <= A0[0] and A1[1] <= e and A0[1] <= A1[0]:
                        self.add(SWAP, s, e, [(s, A0[0]), A1, (A0[1], A1[0]), A0, (A1[1], e)], function)

    def spelled_here(self, c, keyword: str) -> bool:
        """The statement's keyword is written at the start of its extent in this file's text: not a
        statement a macro expands to, whose extent is the macro's whole invocation."""
        s, e = self.span(c)
        return re.match(rb"%s(?![A-Za-z0-9_])" % keyword.encode(), self.src[s:e]) is not None

    def condition(self, c, children):
        if c.kind == K.CONDITIONAL_OPERATOR:
            return children[0] if children else None
        if c.kind == K.DO_STMT:
            return children[-1] if len(children) >= 2 else None
        if c.kind == K.FOR_STMT:
            # for (init; cond; inc) body: the condition is the child that starts after the first ';'
            toks = list(c.get_tokens())
            semis = [t.extent.start.offset for t in toks if t.spelling == ";"][:2]
            if len(semis) < 2:
                return None
            for ch in children:
                a, b = self.span(ch)
                if semis[0] < a and b <= semis[1]:
                    return ch if ch.kind not in (K.VAR_DECL, K.DECL_STMT) else None
            return None
        # if / while: a declaration in the condition (if (auto x = ...)) or an init-statement is skipped
        if not children or children[0].kind in (K.VAR_DECL, K.DECL_STMT):
            return None
        toks = [t.spelling for t in c.get_tokens()][:3]
        if "constexpr" in toks:
            return None
        first = children[0]
        # an init-statement (if (init; cond)) is a statement child before the condition
        if first.kind in (K.UNEXPOSED_STMT, K.NULL_STMT):
            return None
        return first

    def in_if_branch(self, c, parent):
        """A return that is a branch of an if (or inside the branch's block): removing it lets the
        function go on. A function's last return is never removed (falling off its end is undefined)."""
        # An if with an else may be the function's last statement: then the removal would fall off.
        if parent.kind == K.IF_STMT:
            return len(list(parent.get_children())) == 2
        return parent.kind == K.COMPOUND_STMT and self.grandparent is not None and \
            self.grandparent.kind == K.IF_STMT and len(list(self.grandparent.get_children())) == 2

    def remove(self, c, function):
        s, e = self.span(c)
        # the statement's ';'
        rest = self.src[e:e + 64]
        m = re.match(rb"\s*;", rest)
        if not m:
            return
        e2 = e + m.end()
        self.add(REMOVE, s, e2, ["/* removed */;"], function, statement=True)


def find_sites(path: str, relpath: str, args: list[str]) -> list[Site]:
    f = _Finder(path, relpath, args)
    sites = f.run()
    return sites


# ---- rendering ----------------------------------------------------------------------------
@dataclasses.dataclass
class _Group:
    start: int
    end: int
    sites: list
    children: list = dataclasses.field(default_factory=list)


def _groups(sites):
    by_extent: dict = {}
    for s in sites:
        by_extent.setdefault((s.start, s.end, s.statement), []).append(s)
    groups = [_Group(a, b, ss) for (a, b, _), ss in by_extent.items()]
    # statements before expressions of the same extent (a statement holds its expression)
    groups.sort(key=lambda g: (g.start, -g.end, not g.sites[0].statement))
    roots: list = []
    stack: list = []
    for g in groups:
        while stack and not (stack[-1].start <= g.start and g.end <= stack[-1].end):
            stack.pop()
        if stack and (stack[-1].start, stack[-1].end) == (g.start, g.end) and \
                stack[-1].sites[0].statement == g.sites[0].statement:
            stack[-1].sites.extend(g.sites)
            continue
        (stack[-1].children if stack else roots).append(g)
        stack.append(g)
    return roots


def _overlaps(groups):
    """Groups whose extents cross without nesting cannot be rendered: drop the later one."""
    ok = []
    last_end = -1
    for g in sorted(groups, key=lambda g: (g.start, -g.end)):
        if g.start < last_end:
            continue
        ok.append(g)
        last_end = g.end
    return ok


def render(src: bytes, sites: list[Site]) -> tuple[str, dict]:
    """The schemata text and, per site id, the output lines its group spans."""
    text = src.decode("utf-8", "replace")
    b2c = None
    if len(text) != len(src):  # non-ASCII: map byte offsets to characters
        b2c = {}
        ci_ = 0
        for i, ch in enumerate(text):
            b2c[ci_] = i
            ci_ += len(ch.encode("utf-8"))
        b2c[ci_] = len(text)

    def t(a, b):
        return text[b2c[a]:b2c[b]] if b2c else text[a:b]

    out: list[str] = []
    spans: dict = {}

    def emit_range(a, b, kids):
        kids = _overlaps([k for k in kids if a <= k.start and k.end <= b])
        pos = a
        for k in kids:
            out.append(t(pos, k.start))
            emit_group(k)
            pos = k.end
        out.append(t(pos, b))

    def emit_pieces(pieces, kids):
        for p in pieces:
            if isinstance(p, str):
                out.append(p)
            else:
                emit_range(p[0], p[1], kids)

    def emit_group(g):
        first_line = "".join(out).count("\n") + 1
        if g.sites[0].statement:
            guard = " || ".join(f"TC_MUT({s.id})" for s in g.sites)
            out.append(f"{{ if (!({guard})) {{ ")
            emit_range(g.start, g.end, g.children)
            out.append(" } }")
        else:
            out.append("(")
            for s in g.sites:
                out.append(f"TC_MUT({s.id}) ? (")
                emit_pieces(s.pieces, g.children)
                out.append(") : ")
            out.append("(")
            emit_range(g.start, g.end, g.children)
            out.append("))")
        last_line = "".join(out).count("\n") + 1
        for s in g.sites:
            spans[s.id] = (first_line, last_line)

    roots = _groups(sites)
    header = "#include \"tools/mutate/tc_mutant.h\"\n"
    out.append(header)
    emit_range(0, len(src), roots)
    body = "".join(out)
    # lines are counted including the two header lines
    return body, spans


def compile_errors(cmd: list[str], file: str) -> list[int] | None:
    """Lines of `file` the compiler rejects (None: it compiles)."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode == 0:
        return None
    lines = set()
    base = os.path.basename(file)
    # An error inside tc_mutant.h (a switch in a constant expression, e.g. a template argument)
    # names the site's line in its "in expansion of macro" note; the errors after it may be its
    # consequences (a declaration that failed), so such lines alone are dropped first.
    macro_lines = set()
    for m in re.finditer(r"^(.*?):(\d+):\d+: note: in expansion of macro .TC_MUT.", p.stderr, re.M):
        if os.path.basename(m.group(1)) == base:
            macro_lines.add(int(m.group(2)))
    if macro_lines:
        return sorted(macro_lines)
    for m in re.finditer(r"^(.*?):(\d+):\d+: error:", p.stderr, re.M):
        if os.path.basename(m.group(1)) == base:
            lines.add(int(m.group(2)))
    if not lines:
        raise RuntimeError(f"{file}: does not compile, and no error names a line:\n{p.stderr[-3000:]}")
    return sorted(lines)

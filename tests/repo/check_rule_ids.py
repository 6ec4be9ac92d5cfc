#!/usr/bin/env python3
"""repo.RuleIdsResolve: every rule the sources cite is defined in docs/rules.md.

Code, tests and protos cite the game rules by id. This check collects every
citation from the files of the repository (repo_files.py) under engine/,
services/, client/, clients/, ratings/, storage/, proto/, tests/, deploy/ and
docs/, plus README.md, and fails, listing file:line, on any that
docs/rules.md does not define. JSON files are data, not citations, and are
not read (tests/data/edge_cases.json names its cases by the edge-case ids
below; docs/rules.md lists every one of them anyway). Three kinds of citation are recognised (each
starting a word):

  rule ids       MB.11, MB.11b, K.8', O.I1, C.7a, ...: a game prefix (MB, K,
                 O or C), a dot, then a number with an optional letter and
                 an optional prime, or I and a number (invariants);
                 and decisions: MB-D2, K-D1, O-D3, C-D7, ...
  edge cases     K01-K16, O01-O16, C01-C10, B01-B16: the ids of
                 tests/data/edge_cases.json (a game letter, two digits)
  sections       "rules.md section N", "rules.md N.M" (also "rules.md §N")

docs/rules.md defines an id with an HTML anchor `<a id="ID"></a>`, or with a
heading whose first word is the id ("## 2. Options" defines section 2). The
check also fails if docs/rules.md defines an id twice.

Usage: check_rule_ids.py REPO_ROOT [--list]
       --list prints every cited id with its citation count and the line of
       docs/rules.md that defines it.
"""

import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repo_files import read_text, repo_files  # noqa: E402

RULES_DOC = os.path.join("docs", "rules.md")
SCANNED = ("engine", "services", "client", "clients", "ratings", "storage",
           "proto", "tests", "deploy", "docs")

RULE_ID = re.compile(
    r"(?<![\w.-])((?:MB|K|O|C)(?:\.I\d+|\.\d+[a-z]?'?|-D\d+))(?![\w])")
EDGE_CASE = re.compile(r"(?<![\w-])([KOCB]\d\d)(?![\w])")
SECTION = re.compile(r"rules\.md(?:\s+section|\s*§)?\s+(\d+(?:\.\d+)?)\b")

ANCHOR = re.compile(r"<a id=\"([^\"]+)\"></a>")
HEADING = re.compile(r"^#+\s+(\S+)", re.MULTILINE)


def definitions(text):
    """{id: line} of docs/rules.md, and the ids defined more than once."""
    defined, twice = {}, []
    found = [(m.group(1), m.start()) for m in ANCHOR.finditer(text)]
    found += [(m.group(1).rstrip(".:"), m.start())
              for m in HEADING.finditer(text)]
    for ident, pos in found:
        line = text.count("\n", 0, pos) + 1
        if ident in defined and defined[ident] != line:
            twice.append(ident)
        defined.setdefault(ident, line)
    return defined, twice


def citations(root, files):
    """[(id, file, line)] of every citation in the scanned files."""
    out = []
    for rel in files:
        top = rel.split(os.sep)[0]
        if rel != "README.md" and top not in SCANNED:
            continue
        if rel == RULES_DOC or rel.endswith(".json"):
            continue  # The definitions themselves; data.
        text = read_text(root, rel)
        for regex in (RULE_ID, EDGE_CASE, SECTION):
            for m in regex.finditer(text):
                out.append((m.group(1), rel, text.count("\n", 0, m.start()) + 1))
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    if len(args) != 1:
        sys.exit("usage: check_rule_ids.py REPO_ROOT [--list]")
    root = os.path.abspath(args[0])
    mode, files = repo_files(root)
    if RULES_DOC not in files:
        sys.exit(RULES_DOC + " is missing")
    defined, twice = definitions(read_text(root, RULES_DOC))
    cited = citations(root, files)
    if not cited:
        sys.exit("no rule id cited anywhere: the pattern or the file list "
                 "is broken")
    failures = 0
    for ident in sorted(set(twice)):
        print(f"{RULES_DOC}: {ident} is defined more than once")
        failures += 1
    for ident, rel, line in cited:
        # A quote after an id ('K.5') is not a prime.
        if ident not in defined and ident.rstrip("'") in defined:
            continue
        if ident not in defined:
            what = "section " + ident if ident[0].isdigit() else ident
            print(f"{rel}:{line}: {what} is not defined in {RULES_DOC}")
            failures += 1
    counts = collections.Counter(i.rstrip("'") if i not in defined else i
                                 for i, _, _ in cited)
    if "--list" in sys.argv:
        for ident in sorted(counts, key=lambda i: (defined.get(i, 0), i)):
            where = defined.get(ident)
            print(f"{ident}\t{counts[ident]} citations\t"
                  f"{RULES_DOC}:{where if where else 'MISSING'}")
    files_citing = len({rel for _, rel, _ in cited})
    print(f"{len(counts)} distinct ids, {len(cited)} citations in "
          f"{files_citing} files ({mode}); {failures} unresolved")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""repo.NoPathsOutsideTheRepository: no file points outside the repository.

A clone of this repository, with nothing beside it, must hold everything
its files refer to. This check reads every file of the repository
(repo_files.py: the tracked files in a git checkout, else the whole tree;
binary files skipped) and fails, listing file:line and the reason, on any of:

1. A relative path that climbs out with `..`: every text of the form
   `../x`, `../../x/y`, ... is resolved against the folder of the file that
   contains it and must name a file or folder that exists inside the
   repository. (So a path to a sibling folder of the clone fails, and so
   does a `../` path to something that does not exist.)

2. An absolute path into a machine's own folders. An absolute path here is
   a `/` that starts a word (at the start of a line or after a space, quote,
   backtick or one of `( [ < = , ; :`; not after another `/`), followed by
   one of the top-level folders of a Linux or macOS machine:
       bin boot dev etc home lib lib32 lib64 libx32 media mnt opt private
       proc root run sbin scratch snap srv sys tmp usr var Users Volumes
       work workspace
   `file://` URLs are checked the same way. Such a path is allowed only
   when it starts with one of these system prefixes, which every Debian
   machine has or which the service installs:
       /usr/       installed software: Debian packages (e.g. the googleapis
                   protos in proto/CMakeLists.txt) and cmake's default
                   prefix /usr/local (the installed binaries and docs)
       /etc/       system configuration (/etc/systemd/system for the unit)
       /dev/       devices (/dev/null, /dev/shm, bash's /dev/tcp/, and /dev
                   itself, bind-mounted into deploy/fresh-root.sh's root)
       /proc/, /sys/
       /var/lib/mancala   the state folder the systemd unit gives mancalad
       /var/lib/apt/  apt's own state (lists an image build removes)
       /var/tmp/   the FHS folder for large temporary files, on every
                   Debian machine (deploy/fresh-root.sh makes its root there)
   Anything else (home folders, /root, /tmp, /opt, /mnt, a work folder ...)
   is a path on one machine and fails. Exceptions, each a folder inside a
   container the repository defines, not one on any machine: a
   `mountPath:` in a Kubernetes manifest (deploy/k8s/), and the folder after
   podman's `--tmpfs`. Not covered: `~/` paths and Windows
   drive letters (none are expected here).

3. A Markdown document that is not in the repository. A name with a
   folder (`dir/name.md`) must exist relative to the repository root or to
   the citing file's folder; a bare upper-case name (`NAME.md`) must be the
   name of one of the repository's files. (The upper-case documents the
   project was started from are not part of it; its own documents are
   README.md and docs/*.md.)

Exempt: `.gitignore` files (their leading `/` means the repository root),
and this file, which has to spell out what it forbids.

Usage: check_paths.py REPO_ROOT        (exit status 1 on any finding)
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repo_files import read_text, repo_files  # noqa: E402

MACHINE_ROOTS = (
    "bin boot dev etc home lib lib32 lib64 libx32 media mnt opt private "
    "proc root run sbin scratch snap srv sys tmp usr var Users Volumes work "
    "workspace").split()
ALLOWED_PREFIXES = ("/usr/", "/etc/", "/dev/", "/proc/", "/sys/",
                    "/var/lib/mancala", "/var/lib/apt/", "/var/tmp/")

# Each pattern starts with a literal, which keeps the scan of the large data
# files fast; what may precede a match is checked by starts_word().
PATH_CHARS = r"[^\s\"'`()\[\]<>,;|]*"
RELATIVE_UP = re.compile(r"((?:\.\./)+" + PATH_CHARS + ")")
ABSOLUTE = re.compile(r"(/(?:" + "|".join(MACHINE_ROOTS) + r")(?:/" +
                      PATH_CHARS + r")?)(?![\w.-])")
FILE_URL = re.compile(r"file://(/" + PATH_CHARS + ")")
DOCUMENT_END = re.compile(r"\.md\b")
DOCUMENT_CHARS = re.compile(r"[\w.-]")
UPPER_NAME = re.compile(r"[A-Z][A-Z0-9_]*\.md")


def starts_word(text, pos, after):
    """True if text[pos] is at a line start or right after a char in after."""
    return pos == 0 or text[pos - 1] == "\n" or text[pos - 1] in after


SELF = os.path.basename(__file__)


# The start of a deploy/k8s line that mounts a volume in the container.
CONTAINER_MOUNT = re.compile(r"^\s*(- )?mountPath:\s*$")
# The start of a podman/docker flag whose path is inside the container.
CONTAINER_FLAG = re.compile(r"--tmpfs\s+$")


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def check_relative(root, rel, text, out):
    base = os.path.dirname(rel)
    for m in RELATIVE_UP.finditer(text):
        if not starts_word(text, m.start(), " \t\"'`([<=,;:"):
            continue
        target = m.group(1).rstrip(".:")
        # Only the literal part of a pattern such as ../x/*.json is checked.
        target = re.split(r"[*?{$%]", target)[0]
        resolved = os.path.normpath(os.path.join(base, target))
        inside = resolved != ".." and not resolved.startswith("../")
        exists = inside and os.path.exists(os.path.join(root, resolved))
        if not exists:
            why = ("climbs out of the repository" if not inside else
                   "names nothing in the repository (" + resolved + ")")
            out.append((rel, line_of(text, m.start()), m.group(1), why))


def allowed_absolute(path):
    return any(path == p.rstrip("/") or path.startswith(p)
               for p in ALLOWED_PREFIXES)


def check_absolute(rel, text, out):
    for regex in (ABSOLUTE, FILE_URL):
        for m in regex.finditer(text):
            if regex is ABSOLUTE and not starts_word(
                    text, m.start(), " \t\"'`([<=,;:"):
                continue
            path = m.group(1).rstrip(".:")
            before = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
            if rel.startswith("deploy/k8s/") and CONTAINER_MOUNT.search(before):
                continue
            if CONTAINER_FLAG.search(before):
                continue
            first = path.split("/")[1]
            if first not in MACHINE_ROOTS or allowed_absolute(path):
                continue
            out.append((rel, line_of(text, m.start(1)), path,
                        "absolute path on one machine"))


def check_documents(root, rel, text, names, out):
    base = os.path.dirname(rel)
    for m in DOCUMENT_END.finditer(text):
        start = m.start()
        while start > 0 and (DOCUMENT_CHARS.match(text[start - 1]) or
                             text[start - 1] == "/"):
            start -= 1
        doc = text[start:m.end()].lstrip("/")
        if start > 0 and text[start - 1] in ":~" or not doc[:-3].strip("./"):
            continue  # Part of a URL or a home path; or a bare ".md".
        if "/" in doc:
            found = any(
                os.path.isfile(os.path.normpath(os.path.join(root, d, doc)))
                for d in ("", base))
        else:
            found = not UPPER_NAME.fullmatch(doc) or doc in names
        if not found:
            out.append((rel, line_of(text, start), doc,
                        "no such document in the repository"))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_paths.py REPO_ROOT")
    root = os.path.abspath(sys.argv[1])
    mode, files = repo_files(root)
    if not files:
        sys.exit("no files found under " + root)
    names = {os.path.basename(f) for f in files}
    findings = []
    for rel in files:
        base = os.path.basename(rel)
        if base == ".gitignore" or rel == os.path.join("tests", "repo", SELF):
            continue
        text = read_text(root, rel)
        check_relative(root, rel, text, findings)
        check_absolute(rel, text, findings)
        check_documents(root, rel, text, names, findings)
    for rel, line, what, why in findings:
        print(f"{rel}:{line}: {what}: {why}")
    print(f"{len(files)} files checked ({mode}); "
          f"{len(findings)} paths outside the repository")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()

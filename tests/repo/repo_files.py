"""The files of the repository that the repo.* tests read.

In a git checkout these are the tracked files (`git ls-files`), read from
the working tree; otherwise (an unpacked source archive) every file under
the root except version-control data and build output: `.git/`, folders
named `build*` or `var` at the top, any folder holding a CMakeCache.txt, and
the web client's npm output (`node_modules/` anywhere; `gen/` and `dist/` of
clients/web, as its .gitignore says) when `npm ci` was run in the source.
Binary files (a NUL byte in their first 8 KiB) are left out.
"""

import os
import subprocess


def _git_files(root):
    try:
        top = subprocess.run(
            ["git", "-C", root, "rev-parse", "--show-toplevel"],
            capture_output=True, text=True, check=True).stdout.strip()
        if os.path.realpath(top) != os.path.realpath(root):
            return None
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [p for p in out.decode("utf-8").split("\0") if p]


def _walk_files(root):
    files = []
    for here, dirs, names in os.walk(root):
        rel_here = os.path.relpath(here, root)
        keep = []
        for d in dirs:
            path = os.path.join(here, d)
            top = rel_here == "."
            if d == ".git" or (top and (d.startswith("build") or d == "var")):
                continue
            if d == "node_modules" or (rel_here == os.path.join(
                    "clients", "web") and d in ("gen", "dist")):
                continue
            if os.path.exists(os.path.join(path, "CMakeCache.txt")):
                continue
            keep.append(d)
        dirs[:] = sorted(keep)
        for n in sorted(names):
            files.append(os.path.normpath(os.path.join(rel_here, n)))
    return files


def repo_files(root):
    """(mode, [relative paths]) where mode is 'git ls-files' or 'tree'."""
    files = _git_files(root)
    mode = "git ls-files"
    if files is None:
        files, mode = _walk_files(root), "tree"
    text = []
    for rel in files:
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue  # Deleted in the working tree, or a submodule.
        with open(path, "rb") as f:
            if b"\0" in f.read(8192):
                continue
        text.append(rel)
    return mode, text


def read_text(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8",
              errors="replace") as f:
        return f.read()

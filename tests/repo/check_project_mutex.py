#!/usr/bin/env python3
"""repo.LocksVisibleToThreadSanitizer: the C++ code locks with services/base/mutex.h.

Debian builds abseil without ThreadSanitizer, so build-tsan cannot see an
absl::Mutex being taken and reports every access it guards as a race. The
project's lock (services/base/mutex.h: Mutex, MutexLock, CondVar, Condition,
same names and annotations as absl's, on std::mutex) is visible to it.

    check_project_mutex.py ROOT          fails, listing file:line, on any
                                         absl synchronization use left in
                                         the C++ files (.h, .cc, .cpp)
    check_project_mutex.py ROOT --fix    rewrites them (the rename below),
                                         then checks again

The rename, file by file (word-exact, in this order):
    #include "absl/synchronization/mutex.h"  ->  #include "services/base/mutex.h"
    absl::MutexLock   ->  MutexLock
    absl::Mutex       ->  Mutex
    absl::CondVar     ->  CondVar
    absl::Condition   ->  Condition
Files inside `namespace mancala::services` get the bare names; any other
file gets them as mancala::services::Mutex etc. Run clang-format -i on the
files it lists afterwards (it may reorder the include). Anything else from
absl/synchronization (ReaderMutexLock, Notification, ...) is not renamed:
the check names it, to be added to services/base/mutex.h or written without it.
"""

import os
import re
import sys

from repo_files import repo_files

MUTEX_HEADER = "services/base/mutex.h"
# Its companion includes absl's header only to turn off abseil's deadlock
# detection for gRPC's own locks (SkipAbseilDeadlockDetection): no lock.
MUTEX_SOURCE = "services/base/mutex.cc"
RENAMES = [
    (re.compile(r'#include\s+"absl/synchronization/mutex\.h"'),
     '#include "services/base/mutex.h"'),
    (re.compile(r"\babsl::MutexLock\b"), "MutexLock"),
    (re.compile(r"\babsl::Mutex\b"), "Mutex"),
    (re.compile(r"\babsl::CondVar\b"), "CondVar"),
    (re.compile(r"\babsl::Condition\b"), "Condition"),
]
# Whatever is left of absl's synchronization after the rename.
FORBIDDEN = re.compile(
    r'absl/synchronization/|\babsl::(Mutex|MutexLock|ReaderMutexLock|'
    r"WriterMutexLock|ReleasableMutexLock|MutexLockMaybe|CondVar|Condition|"
    r"Notification|BlockingCounter|Barrier)\b")
IN_SERVICES = re.compile(r"namespace\s+mancala::services\b")


def cpp_files(root):
    _, files = repo_files(root)
    return [f for f in files
            if f.endswith((".h", ".cc", ".cpp"))
            and f not in (MUTEX_HEADER, MUTEX_SOURCE)]


def rename(text):
    """The file's text with absl's lock names replaced by the project's,
    in code only (a `//` comment keeps its words)."""
    prefix = "" if IN_SERVICES.search(text) else "mancala::services::"
    lines = []
    for line in text.split("\n"):
        code, sep, comment = line.partition("//")
        for pattern, name in RENAMES:
            target = name if name.startswith("#include") else prefix + name
            code = pattern.sub(target, code)
        lines.append(code + sep + comment)
    return "\n".join(lines)


def main():
    args = [a for a in sys.argv[1:] if a != "--fix"]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    root = args[0]
    files = cpp_files(root)
    if "--fix" in sys.argv:
        for f in files:
            path = os.path.join(root, f)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            new = rename(text)
            if new != text:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(new)
                print(f"renamed: {f}")
    bad = []
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                # Code only: a comment may name absl's types (to say why).
                if FORBIDDEN.search(line.split("//")[0]):
                    bad.append(f"{f}:{n}: {line.strip()}")
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} use(s) of absl synchronization, invisible to "
              "ThreadSanitizer: use services/base/mutex.h (run this script with "
              "--fix for the rename)")
        return 1
    print(f"{len(files)} C++ files checked: none uses absl synchronization")
    return 0


if __name__ == "__main__":
    sys.exit(main())

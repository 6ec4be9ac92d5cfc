#!/usr/bin/env bash
# The Debian packages that the shared libraries of BINARY... come from, one
# a line (deploy/Containerfile installs only these in its run stage).
# Debian 12 is merged-/usr, and dpkg records some libraries under lib/ and
# some under usr/lib/: each file ldd resolves is looked up in both forms.
set -euo pipefail
ldd "$@" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
  while read -r lib; do
    file=$(readlink -f "$lib")
    pkg=$(dpkg -S "$file" 2>/dev/null || dpkg -S "${file#/usr}" 2>/dev/null) ||
      { echo "runtime-packages.sh: no package has $lib" >&2; exit 1; }
    echo "${pkg%%:*}"
  done | sort -u

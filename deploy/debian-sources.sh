# Sourced by deploy/fresh-root.sh and tests/e2e/container_image_test.sh:
# a Debian 12 root made with mmdebstrap from what this machine is
# configured with (no mirror host is written in the repository).

# This machine's sources of Debian 12's suites, as one-line entries: from
# sources.list and *.list (one-line) and *.sources (deb822) files.
debian12_sources() {
  local f suites='^bookworm(-updates|-security|-backports)?$'
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v want="$suites" '
      $1 == "deb" {
        i = 2
        if ($2 ~ /^\[/) { while (i < NF && $i !~ /\]$/) i++; i++ }
        if ($(i + 1) ~ want) print
      }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v want="$suites" '
      BEGIN { RS = ""; FS = "\n" }
      {
        delete v
        for (j = 1; j <= NF; j++) {
          if ($j ~ /^[ \t#]/ || index($j, ":") == 0) continue
          k = tolower(substr($j, 1, index($j, ":") - 1))
          val = substr($j, index($j, ":") + 1)
          gsub(/^[ \t]+|[ \t]+$/, "", val)
          v[k] = val
        }
        if (tolower(v["enabled"]) == "no") next
        if ((" " v["types"] " ") !~ / deb /) next
        opt = (v["signed-by"] ~ /^\//) ? "[signed-by=" v["signed-by"] "] " : ""
        nu = split(v["uris"], u, " "); ns = split(v["suites"], s, " ")
        for (a = 1; a <= nu; a++)
          for (b = 1; b <= ns; b++)
            if (s[b] ~ want) print "deb " opt u[a] " " s[b] " " v["components"]
      }' "$f"
  done
}

# How this machine reaches its archive (apt.conf lines: proxies, a
# snapshot's old Release dates), for mmdebstrap --aptopt.
apt_acquire_conf() {
  apt-config dump |
    grep -E '^Acquire::((http|https)::Proxy|Check-Valid-Until|Check-Date)' ||
    true
}

# debian12_root TARGET [MMDEBSTRAP_OPTION...]: a minimal bookworm root
# (minbase: the Essential packages and apt) at TARGET, a folder or a
# tarball, from this machine's sources and apt settings. /usr is merged as
# Debian 12's installer and images do it (mmdebstrap's merged-usr hook),
# without the usrmerge package and the Perl it brings.
debian12_root() {
  local target=$1 tmp rc=0
  shift
  tmp=$(mktemp -d)
  debian12_sources >"$tmp/sources"
  if [ ! -s "$tmp/sources" ]; then
    echo "debian12_root: this machine has no apt source for bookworm" >&2
    rm -rf "$tmp"
    return 1
  fi
  apt_acquire_conf >"$tmp/apt.conf"
  mmdebstrap --quiet --variant=minbase \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --aptopt="$tmp/apt.conf" "$@" bookworm "$target" - <"$tmp/sources" \
    >/dev/null || rc=$?  # (the merged-usr hook's dpkg talks on stdout)
  rm -rf "$tmp"
  return $rc
}

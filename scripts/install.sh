#!/bin/sh
# Installs a mirrorlint release, verified:
#
#   curl -fsSL https://raw.githubusercontent.com/mirrorlint/mirrorlint/main/scripts/install.sh | sh -s -- -b ~/.local/bin v1.2.3
#
#   install.sh [-b BINDIR] [VERSION]
#
# VERSION is a release tag (v1.2.3) or "latest" (the default), resolved
# through the GitHub releases API. The archive for this machine and the
# release's checksums.txt are downloaded from $MIRRORLINT_RELEASE_URL/VERSION/
# (default: this repository's GitHub release downloads); the archive's
# sha256 must match its line in checksums.txt, or nothing is installed.
#
# Environment:
#   MIRRORLINT_RELEASE_URL   where VERSION/ directories are (a mirror inside
#                            a disconnected network, a file server)
#   MIRRORLINT_RELEASES_API  the URL answering {"tag_name": ...} for "latest"
#
# Needs: curl or wget; sha256sum, shasum or openssl; tar (unzip on Windows).
set -eu

repo=mirrorlint/mirrorlint
release_url=${MIRRORLINT_RELEASE_URL:-https://github.com/$repo/releases/download}
api_url=${MIRRORLINT_RELEASES_API:-https://api.github.com/repos/$repo/releases/latest}
bindir=/usr/local/bin

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

usage() {
  sed -n '2,21p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//' >&2 || true
  exit 2
}

while getopts b:h opt; do
  case $opt in
    b) bindir=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
version=${1:-latest}

# fetch URL FILE: downloads, failing on HTTP errors.
if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --proto '=https,http,file' -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "needs curl or wget"
fi

if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
elif command -v openssl >/dev/null 2>&1; then
  sha256() { openssl dgst -sha256 "$1" | sed 's/^.*= *//'; }
else
  die "needs sha256sum, shasum or openssl to verify the download"
fi

case $(uname -s) in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
  *) die "no release for $(uname -s); build from source: go install github.com/$repo/cmd/mirrorlint@latest" ;;
esac
case $(uname -m) in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no release for $(uname -m); build from source: go install github.com/$repo/cmd/mirrorlint@latest" ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mirrorlint-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

if [ "$version" = latest ]; then
  fetch "$api_url" "$tmp/latest.json" || die "could not ask $api_url for the latest release"
  # The first "tag_name": "..." of the JSON answer; no JSON parser needed.
  version=$(tr -d '\n' <"$tmp/latest.json" | sed -n 's/.*"tag_name"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
  [ -n "$version" ] || die "$api_url did not name a release (tag_name)"
  say "latest release: $version"
fi
case $version in
  v[0-9]*) ;;
  [0-9]*) version=v$version ;;
  *) die "VERSION must be a release tag like v1.2.3 or latest, not $version" ;;
esac

ext=tar.gz
[ "$os" = windows ] && ext=zip
archive=mirrorlint_${version#v}_${os}_${arch}.$ext
base=$release_url/$version

fetch "$base/checksums.txt" "$tmp/checksums.txt" || die "could not download $base/checksums.txt: nothing installed"
fetch "$base/$archive" "$tmp/$archive" || die "could not download $base/$archive: nothing installed"

# sha256sum lines: HASH, two spaces (or space and *), NAME.
want=$(awk -v n="$archive" '$2 == n || $2 == "*" n { print $1; exit }' "$tmp/checksums.txt")
[ -n "$want" ] || die "checksums.txt of $version has no line for $archive: refusing to install an unverified binary"
got=$(sha256 "$tmp/$archive")
if [ "$got" != "$want" ]; then
  die "sha256 of $archive is $got, but checksums.txt says $want: the download is corrupt or was tampered with; nothing installed"
fi

mkdir "$tmp/x"
if [ "$ext" = zip ]; then
  unzip -q "$tmp/$archive" -d "$tmp/x"
  bin=mirrorlint.exe
else
  tar -xzf "$tmp/$archive" -C "$tmp/x"
  bin=mirrorlint
fi
[ -f "$tmp/x/$bin" ] || die "$archive holds no $bin"

mkdir -p "$bindir" || die "cannot create $bindir; choose another with -b DIR"
[ -w "$bindir" ] || die "$bindir is not writable; choose another with -b DIR"
# Copy next to the target, then rename: a failed copy leaves the old binary.
cp "$tmp/x/$bin" "$bindir/.$bin.$$"
chmod 0755 "$bindir/.$bin.$$"
mv -f "$bindir/.$bin.$$" "$bindir/$bin"
say "installed $bindir/$bin ($version, sha256 $got)"

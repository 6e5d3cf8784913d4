#!/usr/bin/env bash
# Differential test of mirrorlint's renderer against MCO's own rendering
# code. See README.md next to this script. Usage (from the repository root,
# or through `make oracle`):
#
#   MCO_SRC=<dir|git-dir> scripts/mco-oracle/oracle.sh [4.19 4.20 4.21]
#
# Environment: MCO_SRC (an MCO source tree, or a git dir holding the
# release-4.N branches), MCO_MODULE_VERSION (instead of MCO_SRC: a module
# version, e.g. a pseudo-version of a release branch, fetched with
# `go mod download`), ORACLE_CASES (cases per release, default 2000),
# ORACLE_SEED (default 1), ORACLE_WORK (scratch directory, default a new
# temporary one, removed afterwards unless ORACLE_KEEP=1).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
here="$repo/scripts/mco-oracle"
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(4.19 4.20 4.21)
cases=${ORACLE_CASES:-2000}
seed=${ORACLE_SEED:-1}
# The build tags MCO's own Makefile uses: no gpgme (cgo), no graph drivers.
tags="containers_image_openpgp exclude_graphdriver_devicemapper exclude_graphdriver_btrfs containers_image_ostree_stub"

work=${ORACLE_WORK:-}
if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/mirrorlint-oracle.XXXXXX")
	[ "${ORACLE_KEEP:-0}" = 1 ] || trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fi
mkdir -p "$work"

# fetch_tree VERSION DEST: a copy of MCO's source for release VERSION.
fetch_tree() {
	local v=$1 dest=$2
	rm -rf "$dest"
	mkdir -p "$dest"
	if [ -n "${MCO_MODULE_VERSION:-}" ]; then
		# The module zip has no vendor/ directory: build against the
		# proxy's copies of the dependencies instead (-mod=mod below).
		local dir
		dir=$(go mod download -json "github.com/openshift/machine-config-operator@$MCO_MODULE_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
		[ -n "$dir" ] || { echo "oracle: go mod download gave no directory" >&2; exit 2; }
		cp -R "$dir/." "$dest"
		chmod -R u+w "$dest"
		return
	fi
	[ -n "${MCO_SRC:-}" ] || { echo "oracle: set MCO_SRC (an MCO tree or git dir) or MCO_MODULE_VERSION" >&2; exit 2; }
	if [ -f "$MCO_SRC/go.mod" ]; then
		cp -R "$MCO_SRC/." "$dest"
	elif git --git-dir="$MCO_SRC" rev-parse --verify -q "release-$v" >/dev/null; then
		git --git-dir="$MCO_SRC" archive "release-$v" | tar -x -C "$dest"
	else
		echo "oracle: $MCO_SRC is neither an MCO tree nor a git dir with release-$v" >&2
		exit 2
	fi
}

# install_driver TREE: our driver files into the copy, build constraint
# dropped; the policies file matching the API the branch's controller reads.
install_driver() {
	local tree=$1 pkg=$1/pkg/controller/container-runtime-config variant=v1
	if grep -q 'func getValidScopePolicies(clusterImagePolicies \[\]\*apicfgv1alpha1' "$pkg/container_runtime_config_controller.go"; then
		variant=v1alpha1
	fi
	strip() { grep -v '^//go:build ignore$' "$1" > "$2"; }
	strip "$here/driver/oracle.go" "$pkg/zz_mirrorlint_oracle.go"
	strip "$here/driver/policies_$variant.go" "$pkg/zz_mirrorlint_oracle_policies.go"
	mkdir -p "$tree/cmd/mirrorlint-oracle"
	strip "$here/driver/cmd/main.go" "$tree/cmd/mirrorlint-oracle/main.go"
}

status=0
for v in "${versions[@]}"; do
	tree="$work/mco-$v"
	echo "== OpenShift $v: MCO source" >&2
	fetch_tree "$v" "$tree"
	install_driver "$tree"
	mod=vendor
	[ -z "${MCO_MODULE_VERSION:-}" ] || mod=mod
	echo "== OpenShift $v: building the driver (-mod=$mod; the first build of a branch takes minutes)" >&2
	(cd "$tree" && GOFLAGS=-mod=$mod go build -trimpath -tags "$tags" -o "$work/driver-$v" ./cmd/mirrorlint-oracle)
	echo "== OpenShift $v: $cases random cases" >&2
	(cd "$repo" && go run ./scripts/mco-oracle -version "$v" -n "$cases" -seed "$seed" \
		-driver "$work/driver-$v" -templates "$tree/templates" -work "$work/cases-$v") || status=1
done
exit $status

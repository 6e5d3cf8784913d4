#!/usr/bin/env bash
# Runs every integration with its real client: the kustomize KRM function and
# `kustomize build | mirrorlint lint -`, the pre-commit hook, the GitHub
# composite action (actionlint on the example workflow, action-validator on
# action.yml, its lint step executed) — and fails, instead of skipping, when
# a client is missing.
#
# Needs: go, git, bash; pre-commit (apt-get install -y pre-commit); node and
# npm (apt-get install -y nodejs npm); kustomize v5.8.2 and actionlint
# v1.7.12, which `make tools` installs into bin/tools.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="$PWD/bin/tools:$PATH"
export MIRRORLINT_REQUIRE_CLIENTS=1

for tool in go git bash pre-commit npx kustomize actionlint; do
  command -v "$tool" >/dev/null || { echo "check-integrations: $tool not found (see the header of $0)" >&2; exit 1; }
done

# The Go tests drive each client and assert on its exit code and output.
go test -count=1 -v ./examples/ ./internal/krm/ ./internal/origin/ ./internal/report/

# The same static checks as plain commands, so a CI log shows their output.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/.github/workflows"
cp examples/github-workflow.yml "$tmp/.github/workflows/mirrorlint.yml"
cp examples/github-matrix-workflow.yml "$tmp/.github/workflows/mirrorlint-fleet.yml"
cp action.yml "$tmp/action.yml"
for f in .github/workflows/*.yml; do cp "$f" "$tmp/.github/workflows/project-${f##*/}"; done
(cd "$tmp" && git init -q && actionlint -no-color)  # actionlint looks for the repository root
npx --yes @action-validator/cli@0.6.0 action.yml
echo "check-integrations: all integrations passed"

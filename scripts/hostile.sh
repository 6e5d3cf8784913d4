#!/bin/sh
# Runs every hostile-tree test under a 2 GB address-space cap, so that an
# input that makes mirrorlint exhaust memory fails here instead of passing
# on a machine with memory to spare. The test binaries are built first,
# without the cap (the compiler needs more).
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
go test -c -o "$tmp/cmd.test" ./cmd/mirrorlint
go test -c -o "$tmp/safefs.test" ./internal/safefs
go test -c -o "$tmp/manifest.test" ./internal/manifest
go test -c -o "$tmp/report.test" ./internal/report
go test -c -o "$tmp/policy.test" ./internal/policy
ulimit -v 2000000
(cd cmd/mirrorlint && "$tmp/cmd.test" -test.run 'Hostile' -test.timeout 5m)
(cd internal/safefs && "$tmp/safefs.test" -test.timeout 5m)
(cd internal/manifest && "$tmp/manifest.test" -test.run 'Hostile|Access|MemoryBudget' -test.timeout 5m)
(cd internal/report && "$tmp/report.test" -test.run 'Forge|Forged|Safe|Control' -test.timeout 5m)
(cd internal/policy && "$tmp/policy.test" -test.run 'Capped|Limit|Refused|Heap' -test.timeout 5m)
echo "hostile suite: ok under a 2 GB address-space cap"

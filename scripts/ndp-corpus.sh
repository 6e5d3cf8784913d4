#!/bin/sh
# ndp-corpus.sh [CORPUS]: runs `mirrorlint diff --format json` on every case of the
# node-disruption-policy corpus (default ../shared/corpus/public/ndp) at the case's release and
# compares the action, the daemon's action list and its drain decision with the expected files,
# which were computed by MCO's daemon code. Prints one line per mismatch and a total; exits 1
# on any mismatch.
set -eu
corpus=${1:-../shared/corpus/public/ndp}
bin=$(mktemp -d)/mirrorlint
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/mirrorlint
total=0 ok=0
for c in "$corpus"/[0-9]*; do
	[ -f "$c/expected/verdict.txt" ] || continue
	total=$((total + 1))
	got=$("$bin" diff --config none --openshift-version "$(cat "$c/openshift-version.txt")" \
		--release-image "$(cat "$c/release-image.txt")" --format json "$c/old/manifests" "$c/new/manifests" 2>/dev/null |
		python3 -c 'import json,sys
d=json.load(sys.stdin)
c=d["clusters"][0]
print(d["action"])
print("\n".join(d.get("actions") or []))
print("Drain calculated for node disruption: %s" % ("true" if c["drain"] else "false"))') || true
	want=$(cat "$c/expected/verdict.txt"; cat "$c/expected/actions.txt")
	if [ "$got" = "$want" ]; then ok=$((ok + 1)); else printf '%s: got %s, want %s\n' "$(basename "$c")" "$(echo $got)" "$(echo $want)"; fi
done
echo "ndp corpus: $ok/$total cases as MCO's daemon decides"
[ "$ok" = "$total" ]

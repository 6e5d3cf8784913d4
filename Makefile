# mirrorlint: build, test, benchmark, fuzz.
# `make test` is the command CI runs (.ci/run) and the README shows.

GO       ?= go
BIN      := bin
TOOLS    := $(CURDIR)/$(BIN)/tools
PKG      := ./...
FUZZTIME ?= 30s
export PATH := $(TOOLS):$(PATH)

KUSTOMIZE_VERSION  := v5.8.2
ACTIONLINT_VERSION := v1.7.12
STATICCHECK_VERSION := v0.8.2
CONFTEST_VERSION   := v0.71.1

.PHONY: all build install test tools conftest test-integration bench fuzz lint vet fmt clean docs oracle dist image

all: build

build:
	$(GO) build -o $(BIN)/mirrorlint ./cmd/mirrorlint

install:
	$(GO) install ./cmd/mirrorlint

# The real clients the integration tests drive (kustomize, actionlint) are
# installed by version into bin/tools; tests that need a missing client skip
# with a message saying so.
tools: $(TOOLS)/kustomize $(TOOLS)/actionlint $(TOOLS)/staticcheck

$(TOOLS)/kustomize:
	GOBIN=$(TOOLS) $(GO) install sigs.k8s.io/kustomize/kustomize/v5@$(KUSTOMIZE_VERSION)

$(TOOLS)/actionlint:
	GOBIN=$(TOOLS) $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

$(TOOLS)/staticcheck:
	GOBIN=$(TOOLS) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# conftest, only for BenchmarkCache10k's comparison (several minutes to
# build, so not part of `make tools`): `make conftest bench`.
conftest: $(TOOLS)/conftest

$(TOOLS)/conftest:
	GOBIN=$(TOOLS) $(GO) install github.com/open-policy-agent/conftest@$(CONFTEST_VERSION)

# Packages that start goroutines (or whose API promises concurrent use)
# also run under the race detector.
# internal/pipeline checks clusters at once; internal/check and internal/mco
# hold what rules share (memos, the plan); the rules themselves are run at
# once on one context by their concurrency test; internal/build runs
# kustomize builds at once, some while the load reads the files; safefs
# lists directories at once; contentcache is one pack for every goroutine.
RACE_PKGS := ./internal/parallel ./internal/safefs ./internal/manifest ./internal/gitrev ./internal/build ./internal/cluster ./internal/contentcache ./lint ./internal/check ./internal/mco ./internal/pipeline

test: tools vet lint
	$(GO) test -count=1 $(PKG)
	$(GO) test -race -count=1 $(RACE_PKGS)
	$(GO) test -race -count=1 -run 'Concurrent' ./internal/rules

# Every integration driven by its real client (kustomize, pre-commit,
# actionlint, action-validator); fails rather than skips when one is missing.
# `make test` runs the same Go tests, skipping what is not installed.
test-integration: tools
	./scripts/check-integrations.sh

# staticcheck, pinned, on top of go vet.
lint: $(TOOLS)/staticcheck
	$(TOOLS)/staticcheck $(PKG)

# gofmt and go vet; vet for darwin and windows too: releases are built
# for them, so their code, tests included, must compile there (the tests
# run on linux only).
vet:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi
	$(GO) vet $(PKG)
	GOOS=darwin $(GO) vet $(PKG)
	GOOS=windows $(GO) vet $(PKG)

# The fidelity harness (scripts/mco-oracle/README.md): the renderer
# against MCO's own code, built from a release branch, on random clusters.
# Needs MCO_SRC (an MCO tree or a git dir with release-4.N branches) or
# MCO_MODULE_VERSION; not part of CI.
ORACLE_VERSIONS ?= 4.19 4.20 4.21
oracle:
	./scripts/mco-oracle/oracle.sh $(ORACLE_VERSIONS)

# Benchmarks report time, allocations and throughput; targets are checked
# here, never by timed unit tests.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKG)

# Short fuzz runs of every fuzz target; seeds live in testdata/fuzz.
fuzz:
	@$(GO) list -f '{{.Dir}} {{.ImportPath}}' $(PKG) | while read dir pkg; do \
	  for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/func //'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

# docs/rules.md is generated from the rules; a test fails when it is stale.
docs:
	$(GO) run ./cmd/mirrorlint rules --config none --format markdown > docs/rules.md
	$(GO) test -count=1 ./internal/archdoc -run TestImportTable -update

# Release archives for every platform, reproducible: two runs on one commit
# give the same dist/checksums.txt (scripts/dist/main.go says how).
# PLATFORMS narrows the list, e.g. PLATFORMS=linux/amd64.
VERSION   ?=
PLATFORMS ?= linux/amd64,linux/arm64,darwin/amd64,darwin/arm64,windows/amd64,windows/arm64
dist:
	@test -n "$(VERSION)" || { echo "make dist VERSION=vX.Y.Z" >&2; exit 2; }
	$(GO) run ./scripts/dist -version "$(VERSION)" -platforms "$(PLATFORMS)" -out dist

# The container image localhost/mirrorlint:VERSION, FROM scratch with the
# dist linux binary of this machine's architecture: no network during the
# build. CONTAINER_ENGINE is docker or podman (any extra global flags it
# needs can be part of it, e.g. "podman --storage-driver vfs").
CONTAINER_ENGINE ?= podman
IMAGE            ?= localhost/mirrorlint
IMAGE_ARCH       ?= $(shell $(GO) env GOARCH)
image:
	@test -n "$(VERSION)" || { echo "make image VERSION=vX.Y.Z [CONTAINER_ENGINE=docker|podman]" >&2; exit 2; }
	$(GO) run ./scripts/dist -version "$(VERSION)" -platforms "linux/$(IMAGE_ARCH)" -binaries-only -out dist
	$(CONTAINER_ENGINE) build --network none -f Containerfile \
	  --build-arg TARGETARCH=$(IMAGE_ARCH) --build-arg VERSION=$(VERSION) \
	  --build-arg REVISION=$$(git rev-parse HEAD 2>/dev/null || echo unknown) \
	  -t $(IMAGE):$(VERSION) .

clean:
	rm -rf $(BIN) dist

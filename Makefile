# PDN Explorer. `make run` and `make test` do all set-up on a fresh machine
# that has Go (and Node, for the wasm tests).

# gonum's assembly kernels round differently from the pure Go that runs in
# the browser; building everything with its noasm tag keeps native results
# bit-identical to the browser's.
export GOFLAGS += -tags=noasm

# Natively the engine's widest products run on AVX2 through Go's
# experimental simd/archsimd (amd64; pdn/internal/kernels), lane by lane in the
# scalar order, so the bits stay the browser's; elsewhere, or without AVX2,
# the same scalar loops as the browser's run.
export GOEXPERIMENT ?= simd

GO          ?= go
WASM_EXEC   := $(shell $(GO) env GOROOT)/lib/wasm
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
PURE        := ./i18n/phrase/... ./experiment/... ./datasets/... ./pdn/internal/... ./internal/... ./xorstate/... ./lessons/...
BIN         := bin

PORT        ?= 8080
WASMFLAGS   := -trimpath -ldflags=-s\ -w

# The worker's hot loops run as WebAssembly SIMD kernels (pdn/internal/kernels/c/kernels.c,
# built by clang for wasm32 and linked by wasm-ld: Debian's clang and lld);
# the worker is then built with the simd128 tag. Without clang the worker
# runs its Go loops: the same bits, about 2.5 times slower on large graphs.
CLANG       ?= clang
KERNELS     := $(BIN)/kernels.wasm
# The same kernels over a shared memory, for a worker whose Go memory is
# shared with its helper threads (web/shared.js; issue 58).
KERNELS_THREADS := $(BIN)/kernels-threads.wasm
HAVE_CLANG  := $(shell command -v $(CLANG) >/dev/null 2>&1 && command -v wasm-ld >/dev/null 2>&1 && echo yes)
ifeq ($(HAVE_CLANG),yes)
WORKERTAGS  := -tags=noasm,simd128
READERTAGS  := -tags=noasm,simd128,reader
else
WORKERTAGS  :=
READERTAGS  := -tags=reader
endif
# The reader of the user's files is the worker's program with its readers
# (the reader tag, web/reader.wasm), fetched when files are opened; the
# engine's (worker.wasm) links none, which keeps a first visit lighter.

# go test's limit for one package's tests (its default is 10 minutes). The
# slowest, cmd/pdn (every claim's runs on each family of graphs), takes a
# few minutes on a quiet 2-core machine, 17 min at a load of 16-22 (two
# CPU-bound jobs and other builds on it) before the claims were checked
# per family, and more than an hour at a load of 17-20 once Table 4 and
# the multiplex figure had every baseline (a clean clone's make test ran
# out of 60m there). Nothing waits on a clock of its own: a wait inside
# a test (a page, a worker, a cluster's jobs) lasts as long as this allows
# (internal/testwait), so it is the one limit to raise on a slower machine.
# One test may wait a sixth of it, at least 15 minutes (testwait.Share): a wait that can never
# hold fails its own test by name, not the whole run on CI's clock.
# The e2e suite, one package, takes 8-14 min here at a load of 6-12 (and
# fewer on a quiet machine): 90m.
TESTTIMEOUT ?= 180m
E2ETIMEOUT  ?= 90m

# Every parser and decoder has a fuzz target (package:target). make test
# runs each for FUZZTIME; make fuzz FUZZTIME=10m runs them longer.
FUZZTIME    ?= 10s
FUZZ        := ./internal/numtext:FuzzParseFloat ./internal/input:FuzzText ./internal/input:FuzzXML ./experiment:FuzzDecode \
               ./datasets:FuzzReadBundle ./datasets:FuzzReadFeatures ./datasets:FuzzReadMUSAE ./datasets:FuzzOpenFiles ./datasets:FuzzEdited \
               ./datasets:FuzzReadOGB ./datasets:FuzzReadGraphML ./datasets:FuzzReadPlain ./datasets:FuzzReadFeather ./datasets:FuzzUnmarshalBinary ./datasets:FuzzPerturbed ./pdn:FuzzBundleTrains \
               ./wasm/protocol:FuzzDecodeCommand ./wasm/protocol:FuzzDecodeEvent \
               ./wasm/protocol:FuzzFloat32Bytes ./app:FuzzLink ./cmd/pdn:FuzzFlags ./cmd/pdn:FuzzMerge

# The tests that run an export's run_pyg.py need torch (Debian's
# python3-torch) and PyTorch Geometric, which is pure Python: PDN_PYG names
# its source, a folder holding torch_geometric/ or a .tar.gz of one (the
# copy beside the peers, when there is one). Without torch they skip.
export PDN_PYG ?= $(abspath $(firstword $(wildcard ../shared/peers/pyg-*.tar.gz)))

.PHONY: kernels run dist test test-native test-wasm test-e2e fuzz lint bench bench-compare bench-browser build clean

## run: build the explorer into dist/ and serve it on 127.0.0.1:$(PORT)
run: dist
	$(GO) run ./wasm/ui serve -dir dist -addr 127.0.0.1:$(PORT)

## dist: the static site, hostable by any file server, at / or under a sub-path
# The page's program is built against a copy of go-app without its server
# half, which linked net/http and crypto/tls into the page (352 kB brotli of
# a first visit): see wasm/site/goapp.go.
BROWSER     := .cache/browser
dist: kernels
	$(GO) run ./wasm/ui goapp -out $(BROWSER)
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) -modfile=$(BROWSER)/browser.mod -o dist/web/app.wasm ./wasm/ui
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) $(WORKERTAGS) -o dist/web/worker.wasm ./wasm/worker
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) $(READERTAGS) -o dist/web/reader.wasm ./wasm/worker
	rm -f dist/web/kernels.wasm dist/web/kernels-threads.wasm
	if [ -f $(KERNELS) ]; then cp $(KERNELS) dist/web/kernels.wasm; fi
	if [ -f $(KERNELS_THREADS) ]; then cp $(KERNELS_THREADS) dist/web/kernels-threads.wasm; fi
	$(GO) run ./wasm/ui build -out dist -wasm-exec $(WASM_EXEC)/wasm_exec.js

## kernels: the worker's WebAssembly SIMD kernels, where clang is installed
# Their C stacks lie in Go's memory (64 kB a helper: pool_simd128.go), where
# an overflow would not trap but write over Go's data: no frame may pass
# 4 kB (the largest, pathfinder1_backward's, is 2 kB), and no call chain
# is deeper than four (pool_helper, claim_and_run, run_call, a kernel).
KERNELSFRAME := -Wframe-larger-than=4096 -Werror=frame-larger-than
kernels:
ifeq ($(HAVE_CLANG),yes)
	@mkdir -p $(BIN)
	$(CLANG) --target=wasm32 -O3 -msimd128 -mmutable-globals -ffp-contract=off -fno-builtin -nostdlib $(KERNELSFRAME) \
	  -Wl,--no-entry -Wl,--export-all -Wl,--export=__stack_pointer -Wl,--import-memory \
	  -o $(KERNELS) pdn/internal/kernels/c/kernels.c
	$(CLANG) --target=wasm32 -O3 -msimd128 -matomics -mbulk-memory -mmutable-globals -ffp-contract=off -fno-builtin -nostdlib $(KERNELSFRAME) \
	  -Wl,--no-entry -Wl,--export-all -Wl,--export=__stack_pointer -Wl,--import-memory -Wl,--shared-memory -Wl,--max-memory=4294967296 \
	  -o $(KERNELS_THREADS) pdn/internal/kernels/c/kernels.c
else
	@rm -f $(KERNELS) $(KERNELS_THREADS)
	@echo "note: no clang and wasm-ld (apt-get install clang lld): the worker runs its Go loops, with the same bits but slower"
endif

## build: the CLI
build:
	$(GO) build -o $(BIN)/pdn ./cmd/pdn

## test: lint; every test natively; the pure packages under GOOS=js; each
## fuzz target for FUZZTIME; the built site end to end in headless Chromium
test: lint test-native test-wasm fuzz test-e2e

# The engine again with every platform path off (the purego tag): every
# test of the engine on the reference loops alone, natively, where it runs
# at a third of Node's time; under Node (test-wasm's pure run) the engine's
# tests that hold bits run (KERNELTESTS), which is what the browser's
# runtime can change: the code is the same.
#
# The two runs go side by side: the native run's last package (the
# command line's, the longest) leaves a core idle that the engine's
# reference run fills. Each prints its own packages' lines; either failing
# fails.
test-native:
	@echo "$(GO) test -timeout $(TESTTIMEOUT) ./... beside $(GO) test -timeout $(TESTTIMEOUT) -tags=noasm,purego ./pdn/ ./pdn/internal/..."
	@set -e; $(GO) test -timeout $(TESTTIMEOUT) -tags=noasm,purego ./pdn/ ./pdn/internal/... & ref=$$!; \
	  status=0; $(GO) test -timeout $(TESTTIMEOUT) ./... || status=$$?; \
	  wait $$ref || status=$$?; exit $$status
	@if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo && grep -qw movbe /proc/cpuinfo; then \
	  echo "GOAMD64=v3: the kernels, whose Go the compiler then fuses, on every path"; \
	  GOAMD64=v3 $(GO) test -timeout $(TESTTIMEOUT) ./pdn/internal/kernels/; \
	else echo "GOAMD64=v3 not run: this processor has not the v3 instructions"; fi

# The engine, the generators and the state table must build and pass in the
# browser's runtime too; Node runs them through go_js_wasm_exec. The engine
# runs again with the worker's SIMD kernels linked (scripts/kernels-exec):
# the kernels change how each sum is computed and nothing else, so there the
# tests that hold bits run (KERNELTESTS: the golden and zoo digests, the
# build's pins, each kernel against the Go loops, runs cut or paced or
# threaded against whole ones), and the kernels' own package whole. A test
# that compares two runs of one binary, or a refusal, reads the same with
# the kernels as without, and in the browser's runtime as natively: the
# native purego run holds it on the reference loops.
KERNELTESTS := Kernel|Golden|Digest|Bit|Pin|ThisBuild|Fused|PCG|DefaultScenario|Threads
# Then again on a shared memory (web/shared.js: Go's module rewritten to
# import it, the kernels built for it), with the products' pieces on the
# kernels' helper threads (Node worker threads), as a worker with threads
# runs: the digests must not move, the helpers must run pieces, and a
# helper that faults must end its batch, not hang it (the kernels' Pool test).
SHAREDTESTS := Kernel|Golden|DefaultScenario|Threads|Pool
test-wasm: kernels
	PATH="$(WASM_EXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test -timeout $(TESTTIMEOUT) $(PURE)
	PATH="$(WASM_EXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test -timeout $(TESTTIMEOUT) -run '$(KERNELTESTS)' ./pdn/
ifeq ($(HAVE_CLANG),yes)
	PDN_KERNELS=$(CURDIR)/$(KERNELS) GOOS=js GOARCH=wasm $(GO) test -timeout $(TESTTIMEOUT) -tags=noasm,simd128 -exec $(CURDIR)/scripts/kernels-exec -run '$(KERNELTESTS)' ./pdn/
	PDN_KERNELS=$(CURDIR)/$(KERNELS) GOOS=js GOARCH=wasm $(GO) test -timeout $(TESTTIMEOUT) -tags=noasm,simd128 -exec $(CURDIR)/scripts/kernels-exec ./pdn/internal/...
	PDN_SHARED=1 PDN_KERNELS=$(CURDIR)/$(KERNELS) GOOS=js GOARCH=wasm $(GO) test -timeout $(TESTTIMEOUT) -tags=noasm,simd128 -exec $(CURDIR)/scripts/kernels-exec -run '$(SHAREDTESTS)' ./pdn/
	PDN_SHARED=1 PDN_KERNELS=$(CURDIR)/$(KERNELS) GOOS=js GOARCH=wasm $(GO) test -timeout $(TESTTIMEOUT) -tags=noasm,simd128 -exec $(CURDIR)/scripts/kernels-exec -run 'Pool' ./pdn/internal/kernels/
endif

## fuzz: each fuzz target for FUZZTIME; a crasher lands in the target's
## testdata/fuzz/ and fails the run
fuzz:
	@set -e; for t in $(FUZZ); do \
	  echo "fuzz $${t#*:} in $${t%%:*} for $(FUZZTIME)"; \
	  GO=$(GO) bash scripts/fuzz-one.sh $${t%%:*} $${t#*:} $(FUZZTIME); \
	done

# Screenshots land in screenshots/ (not committed). The accessibility audit
# runs axe-core (npm, installed once into .cache/, not committed) inside the
# e2e tests' Chromium.
AXE_VERSION := 4.14.1
AXE         := $(CURDIR)/.cache/axe/node_modules/axe-core/axe.min.js
test-e2e: dist $(AXE)
	PDN_E2E_DIST=$(CURDIR)/dist PDN_E2E_SHOTS=$(CURDIR)/screenshots PDN_AXE=$(AXE) $(GO) test -count=1 -v -timeout $(E2ETIMEOUT) -run . ./wasm/e2e/

$(AXE):
	npm install --no-audit --no-fund --silent --prefix $(CURDIR)/.cache/axe axe-core@$(AXE_VERSION)

# .cache/ holds others' code (the page's copy of go-app, axe-core), not ours.
GOFILES      = $(shell find . -path ./.cache -prune -o -name '*.go' -print)
lint:
	@test -z "$$(gofmt -l $(GOFILES))" || { echo "gofmt: not formatted:"; gofmt -l $(GOFILES); exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./app/... ./wasm/ui/... ./wasm/worker/... ./wasm/protocol/...
	GOOS=js GOARCH=wasm $(GO) vet -tags=noasm,simd128 ./pdn/... ./wasm/worker/...
	GOOS=js GOARCH=wasm $(GO) vet -tags=noasm,simd128,reader ./wasm/worker/...
	$(GO) vet -tags=noasm,purego ./pdn/...
	$(GO) mod tidy -diff
	GOBIN=$(CURDIR)/$(BIN) $(GO) install $(STATICCHECK)
	$(BIN)/staticcheck ./...
	GOOS=js GOARCH=wasm $(BIN)/staticcheck -tags=noasm,simd128 ./pdn/... ./wasm/worker/...
	GOOS=js GOARCH=wasm $(BIN)/staticcheck -tags=noasm,simd128,reader ./wasm/worker/...

## bench: Go epoch benchmarks (with the peak tag: the core's FMA peak beside
## the pathfinder's), then the CLI next to the PyTorch peer
bench: build
	@mkdir -p $(BIN)
	{ PDN_VECTORS=$${PDN_VECTORS:-auto} $(GO) test -tags=noasm,peak -run '^$$' -bench . -benchmem ./pdn/ ./pdn/internal/kernels/; echo $$? > $(BIN)/bench.rc; } | tee $(BIN)/bench.txt; exit $$(cat $(BIN)/bench.rc)
	@awk '{ for (i = 2; i <= NF; i++) if ($$i == "GFLOP/s") v[$$1] = $$(i-1) } \
	  END { for (n in v) { if (n ~ /PathfinderGFLOPS/) p = v[n]; if (n ~ /FMAPeak/) f = v[n] } \
	        if (p && f) printf "\npathfinder %.1f GFLOP/s on one core, %.0f%% of its peak %.1f GFLOP/s\n", p, 100 * p / f, f }' $(BIN)/bench.txt
	bash scripts/bench-peer.sh $(BIN)/pdn

## bench-compare: BASE=REV: the engine's epoch benchmarks built at REV and
## from the working tree, run alternately on this machine, compared by
## benchstat; each row's ratio with its spread, a row over 1.05x flagged
bench-compare:
	@test -n "$(BASE)" || { echo "make bench-compare BASE=REV" >&2; exit 2; }
	bash scripts/bench-compare.sh $(BASE)

## bench-browser: the built site in headless Chromium, each lab at 64, 256
## and 500 nodes per class: frame intervals (p50/p95/max, ms) idle and while
## training, and the worker's epochs/s alone and while the page follows it;
## a storm of 200 key presses on the graph lab (keys); a Facebook-sized
## graph opened and trained, alone and in the compare lab; and a first
## visit over links of 100, 10 and 1.6 Mbit/s (layout, live and ready in
## ms, the kB before each); the Facebook-sized graph on one thread and on
## two, in turn (Threads: their epochs/s and ratio, the same loss)
bench-browser: dist
	PDN_E2E_DIST=$(CURDIR)/dist PDN_E2E_SHOTS=$(CURDIR)/screenshots $(GO) test -count=1 -run '^$$' -bench 'Frames|Browser|SweepLab|SweepHeld|FirstVisit|Threads|ClassOnOneLink' -benchtime 1x -timeout 60m ./wasm/e2e/

clean:
	rm -rf $(BIN) dist screenshots

#!/usr/bin/env bash
# bench-compare.sh BASE: the engine's epoch benchmarks built at the commit
# BASE and from the working tree, run alternately on this machine (A B A B
# …, ROUNDS rounds, so that a machine that slows down slows both alike),
# then compared by benchstat (golang.org/x/perf: each row's median at BASE
# and here, their 95% intervals and the test of a difference). Last, each
# row's ratio here/BASE of the medians with the spread of the rounds'
# ratios; a row more than 5% slower than BASE is flagged SLOWER.
#
# Environment: ROUNDS (default 6, the fewest for benchstat's intervals),
# BENCH (a -test.bench pattern, default the epochs of the issue's
# workloads), BENCHTIME (default 20x). The Makefile's GOFLAGS and
# GOEXPERIMENT apply to both builds. A benchmark, not a test: it never
# fails on time.
set -euo pipefail

base=${1:-}
if [ -z "$base" ]; then
	echo "usage: bench-compare.sh REV (make bench-compare BASE=REV)" >&2
	exit 2
fi
rounds=${ROUNDS:-6}
bench=${BENCH:-'^BenchmarkEpoch(PDN|GCN|GAT|WSPDN|WSGCN|WS32GCN)$'}
benchtime=${BENCHTIME:-20x}
root=$(git rev-parse --show-toplevel)

# The revision first, before anything is downloaded or built.
if ! commit=$(git -C "$root" rev-parse --verify --quiet "$base^{commit}"); then
	echo "bench-compare: BASE=$base is not a commit of this repository; give a commit, tag or branch (BASE=HEAD~1, BASE=main)" >&2
	exit 2
fi
short=$(git -C "$root" rev-parse --short "$commit")

# The other side is the working tree as it is: said, and labelled so, when
# it holds changes not committed.
head=head
if changed=$(git -C "$root" status --porcelain --untracked-files=no) && [ -n "$changed" ]; then
	head=worktree
	echo "bench-compare: the working tree has uncommitted changes (git status lists $(printf '%s\n' "$changed" | wc -l)); the '$head' column is the tree as it is, not $(git -C "$root" rev-parse --short HEAD)"
fi
# The Makefile's build settings, where the caller has not set them: the
# browser's bits (noasm) and the native vector kernels (simd).
export GOFLAGS=${GOFLAGS--tags=noasm} GOEXPERIMENT=${GOEXPERIMENT-simd}
go=${GO:-go}

# benchstat at a pinned version, in the repository's cache (not committed).
benchstat="$root/.cache/bin/benchstat"
if [ ! -x "$benchstat" ]; then
	GOBIN="$root/.cache/bin" GOFLAGS= "$go" install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
fi

work=$(mktemp -d)
cleanup() {
	git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

echo "bench-compare: building $short and the working tree" >&2
git -C "$root" worktree add --detach -q "$work/base" "$commit"
(cd "$work/base" && "$go" test -c -o "$work/base.test" ./pdn)
(cd "$root" && "$go" test -c -o "$work/head.test" ./pdn)

# The working tree's engine chooses its vector width as it does outside
# tests (measured, or PDN_VECTORS's); the base ignores the variable.
export PDN_VECTORS=${PDN_VECTORS:-auto}

for r in $(seq "$rounds"); do
	echo "bench-compare: round $r of $rounds" >&2
	for side in base head; do
		"$work/$side.test" -test.run '^$' -test.bench "$bench" -test.count 1 -test.benchtime "$benchtime" \
			>>"$work/$side.txt"
	done
done

"$benchstat" base="$work/base.txt" "$head"="$work/head.txt"

# Each row: the median of the rounds' ns/op at BASE and here, their ratio,
# and the range of the rounds' own ratios (round i here over round i at
# BASE), from the raw lines, as benchstat reads them.
echo
printf '%-28s %12s %12s %8s %18s\n' benchmark "base ns/op" "$head ns/op" ratio "rounds' ratios"
awk '
	FNR == NR && /^Benchmark/ { nb[$1]++; b[$1, nb[$1]] = $3; next }
	/^Benchmark/ { nh[$1]++; h[$1, nh[$1]] = $3 }
	function median(v, k,   i, j, t) {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
	}
	END {
		for (name in nb) {
			k = nb[name] < nh[name] ? nb[name] : nh[name]
			if (k == 0) continue
			lo = 1e9; hi = 0
			for (i = 1; i <= k; i++) {
				vb[i] = b[name, i]; vh[i] = h[name, i]
				q = vh[i] / vb[i]; if (q < lo) lo = q; if (q > hi) hi = q
			}
			mb = median(vb, k); mh = median(vh, k); ratio = mh / mb
			flag = ratio > 1.05 ? "  SLOWER" : ""
			printf "%-28s %12.0f %12.0f %7.2fx %8.2f-%-8.2f%s\n", name, mb, mh, ratio, lo, hi, flag
		}
	}' "$work/base.txt" "$work/head.txt" | sort

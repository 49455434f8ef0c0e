#!/usr/bin/env bash
# Prints the median epoch time of the Go CLI next to the PyTorch peer's, for
# PDN, GCN and MLP on one bundle of the paper's default scenario. The peer
# runs only where python3-torch is installed; speed is compared within one run
# on one machine, as ratios.
set -euo pipefail
pdn=${1:-bin/pdn}
peer=${PEER:-../shared/peers/torch_pdn.py}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$pdn" gen -out "$dir/bundle" -seed 1 >/dev/null

have_peer=0
if [ -f "$peer" ] && /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  have_peer=1
else
  echo "(the peer needs $peer and python3-torch: apt-get install -y python3-torch python3-numpy)"
fi

field() { sed -n "s/.*\"$1\": *\([0-9.]*\).*/\1/p"; }
printf '%-5s %14s %14s %8s %10s %10s\n' model go_ms peer_ms ratio go_acc peer_acc
for m in pdn gcn mlp; do
  # -edge-dropout 0: the peer has the official semantics, without DropEdge.
  g=$("$pdn" train -data "$dir/bundle" -model "$m" -edge-dropout 0 -seed 1 -json -quiet | tail -1)
  gms=$(echo "$g" | field epoch_ms_median); gacc=$(echo "$g" | field test_accuracy)
  pms=-; pacc=-; ratio=-
  if [ "$have_peer" = 1 ]; then
    p=$(/usr/bin/python3 "$peer" "$dir/bundle" --models "$m" --seed 1 | tail -1)
    pms=$(echo "$p" | field epoch_ms_median); pacc=$(echo "$p" | field test_accuracy)
    ratio=$(awk -v a="$gms" -v b="$pms" 'BEGIN { printf "%.2f", a / b }')
  fi
  printf '%-5s %14s %14s %8s %10s %10s\n' "$m" "$gms" "$pms" "$ratio" "$gacc" "$pacc"
done

# One table of ours beside PyTorch Geometric's (../shared/peers/pyg_peer.py)
# on the same graph and split: title, our -data, the bundle PyG reads ("" to
# print ours alone), the epochs, the models.
# PYG_PEER, not PYG: the peer itself reads PYG as the folder of PyG's source.
pyg=${PYG_PEER:-../shared/peers/pyg_peer.py}
have_pyg=0
if [ -f "$pyg" ] && /usr/bin/python3 -c 'import torch, scipy' 2>/dev/null; then have_pyg=1; fi
# go_mb is the CLI's peak memory (with GNU time; - without).
beside_pyg() {
  local title=$1 data=$2 bundle=$3 epochs=$4 models=$5
  echo
  printf '%-8s %14s %14s %8s %10s %10s %8s\n' "$title" go_ms pyg_ms ratio go_acc pyg_acc go_mb
  for m in ${models//,/ }; do
    mb=-
    if [ -x /usr/bin/time ]; then
      g=$(/usr/bin/time -f '%M' -o "$dir/rss" "$pdn" train -data "$data" -model "$m" -edge-dropout 0 -epochs "$epochs" -seed 1 -json -quiet | tail -1)
      mb=$(awk '{ printf "%d", $1 / 1024 }' "$dir/rss")
    else
      g=$("$pdn" train -data "$data" -model "$m" -edge-dropout 0 -epochs "$epochs" -seed 1 -json -quiet | tail -1)
    fi
    gms=$(echo "$g" | field epoch_ms_median); gacc=$(echo "$g" | field test_accuracy)
    pms=-; pacc=-; ratio=-
    if [ -n "$bundle" ]; then
      p=$(/usr/bin/python3 "$pyg" "$bundle" --models "$m" --epochs "$epochs" --seed 1 | tail -1)
      pms=$(echo "$p" | field epoch_ms_median); pacc=$(echo "$p" | field test_accuracy)
      ratio=$(awk -v a="$gms" -v b="$pms" 'BEGIN { printf "%.2f", a / b }')
    fi
    printf '%-8s %14s %14s %8s %10s %10s %8s\n' "$m" "$gms" "$pms" "$ratio" "$gacc" "$pacc" "$mb"
  done
}

# Cora, as the paper's Table 4 reads it (100 labelled nodes per class, seed
# 1, the 11 tie-strength scores as edge features): ours with its sparse
# features, PyG's on the same graph and split written dense.
if [ "$have_pyg" = 1 ]; then
  "$pdn" gen -data cora -dense -seed 1 -out "$dir/cora" >/dev/null
  beside_pyg cora cora "$dir/cora" 200 pdn,gcn,mlp
else
  echo "(Cora against PyTorch Geometric needs $pyg and its set-up; see its README)"
fi

# Appendix E's largest graph (Watts–Strogatz, 4096 nodes, 64 edges per node,
# about 131k edges, F = D = 128, the pathfinder [32]): ours from the Go
# benchmarks, PyTorch Geometric's from ../shared/peers/pyg_runtime.py (its
# k = 64 line: GCN's ms and the shallow PDN's % over it).
runtime_peer=${PYG_RUNTIME:-../shared/peers/pyg_runtime.py}
echo
printf '%-5s %14s %14s %8s\n' ws go_ms pyg_ms ratio
go_ws=$(PDN_VECTORS=${PDN_VECTORS:-auto} GOEXPERIMENT=${GOEXPERIMENT:-simd} go test -run '^$' -bench 'EpochWS' -benchtime 5x ./pdn/ | awk '/BenchmarkEpochWS/ { name = tolower(substr($1, 17)); sub(/-.*/, "", name); printf "%s %.1f\n", name, $3 / 1e6 }')
py_gcn=-; py_pdn=-
if [ -f "$runtime_peer" ] && /usr/bin/python3 -c 'import torch, scipy' 2>/dev/null; then
  line=$(/usr/bin/python3 "$runtime_peer" --sweep k --epochs 7 | grep '^k=64 ')
  py_gcn=$(echo "$line" | sed -n 's/.*gcn \([0-9.]*\) ms.*/\1/p')
  pct=$(echo "$line" | sed -n 's/.*shallow +\([0-9.]*\)%.*/\1/p')
  py_pdn=$(awk -v g="$py_gcn" -v p="$pct" 'BEGIN { printf "%.1f", g * (1 + p / 100) }')
else
  echo "(the Watts–Strogatz row against PyTorch Geometric needs $runtime_peer and its set-up)"
fi
for m in pdn gcn; do
  gms=$(echo "$go_ws" | awk -v m="$m" '$1 == m { print $2 }')
  pms=$py_gcn; [ "$m" = pdn ] && pms=$py_pdn
  ratio=-; [ "$pms" != - ] && ratio=$(awk -v a="$gms" -v b="$pms" 'BEGIN { printf "%.2f", a / b }')
  printf '%-5s %14s %14s %8s\n' "$m" "$gms" "$pms" "$ratio"
done

# Facebook Page-Page (MUSAE names its folder: edges.csv, target.csv,
# features.json; not shipped), else a graph of its counts in its files
# (pdn gen -like facebook): ours with its sparse features, PyG's on the
# same graph and split written dense, 20 epochs each.
title=facebook
if [ -z "${MUSAE:-}" ]; then
  MUSAE="$dir/facebook-like" title=fb-shaped
  "$pdn" gen -like facebook -out "$MUSAE" >/dev/null
fi
bundle=
if [ "$have_pyg" = 1 ]; then
  bundle="$dir/facebook"
  "$pdn" gen -data "$MUSAE" -dense -seed 1 -out "$bundle" >/dev/null
fi
beside_pyg "$title" "$MUSAE" "$bundle" 20 pdn,gcn

# ogbn-arxiv's counts (pdn gen -like ogbn-arxiv: 169,343 nodes, 1,166,243
# edges, 128 dense features, 40 classes, as an OGB folder, which ours reads
# as published), PyG's on the same graph as a bundle; 5 epochs each, as
# PyG's take seconds apiece here.
"$pdn" gen -like ogbn-arxiv -out "$dir/arxiv-like" >/dev/null
bundle=
if [ "$have_pyg" = 1 ]; then
  bundle="$dir/arxiv"
  "$pdn" gen -data "$dir/arxiv-like" -seed 1 -out "$bundle" >/dev/null
fi
beside_pyg arxiv-sh "$dir/arxiv-like" "$bundle" 5 pdn,gcn

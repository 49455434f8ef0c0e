#!/usr/bin/python3
"""Convert a Planetoid data set (ind.NAME.{x,y,tx,ty,allx,ally,graph,test.index},
Yang, Cohen and Salakhutdinov, ICML 2016) into the project's graph bundle with
sparse node features (see the README's "Graph bundles").

    /usr/bin/python3 scripts/planetoid.py SRC_DIR NAME OUT_DIR

Needs Debian's python3-scipy (the files are Python pickles of scipy and numpy
objects). The project commits the output for Cora and Citeseer, so nothing at
run time needs this script or its inputs.

What it does, as PyTorch Geometric's Planetoid loader does:
- nodes are allx's rows, then the test rows (tx) at the ids test.index names;
  Citeseer's test ids skip 15 isolated nodes, which get zero features and the
  label 0 (their one-hot row is empty), as in PyG;
- labels are the one-hot rows' argmax;
- edges are the adjacency lists made undirected, each pair once, self-loops
  dropped;
- splits are Planetoid's public ones: the first 20 per class (x) train, the
  1,000 test ids test, every other node val. The explorer and the CLI draw
  their own split (100 labelled nodes per class by seed) on top.
"""
import json
import os
import pickle
import sys

import numpy as np
import scipy.sparse as sp


def load(src, name, part):
    with open(os.path.join(src, f"ind.{name}.{part}"), "rb") as f:
        return pickle.load(f, encoding="latin1")


def main(src, name, out):
    x, y, tx, ty, allx, ally, graph = (load(src, name, p) for p in ("x", "y", "tx", "ty", "allx", "ally", "graph"))
    with open(os.path.join(src, f"ind.{name}.test.index")) as f:
        test = [int(line) for line in f if line.strip()]
    lo, hi = min(test), max(test)
    n = hi + 1
    # Test rows sit at their ids; ids between lo and hi with no test row
    # (Citeseer's isolated nodes) stay zero.
    txf = sp.lil_matrix((hi - lo + 1, tx.shape[1]))
    tyf = np.zeros((hi - lo + 1, ty.shape[1]))
    txf[np.array(test) - lo, :] = tx
    tyf[np.array(test) - lo, :] = ty
    feats = sp.vstack([allx, txf]).tocsr()
    labels = np.vstack([ally, tyf]).argmax(axis=1)
    assert feats.shape[0] == n == len(labels), (feats.shape, n)
    feats.sort_indices()

    pairs = set()
    for u, nbrs in graph.items():
        for v in nbrs:
            if u != v and u < n and v < n:
                pairs.add((min(u, v), max(u, v)))

    split = ["val"] * n
    for i in range(len(y)):
        split[i] = "train"
    for i in test:
        split[i] = "test"

    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "nodes.csv"), "w") as f:
        f.write("id,label,split\n")
        for i in range(n):
            f.write(f"{i},{labels[i]},{split[i]}\n")
    binary = bool(np.all(feats.data == 1))
    with open(os.path.join(out, "features.csv"), "w") as f:
        f.write("node,feature\n" if binary else "node,feature,value\n")
        for i in range(n):
            row = feats.indices[feats.indptr[i]:feats.indptr[i + 1]]
            vals = feats.data[feats.indptr[i]:feats.indptr[i + 1]]
            for j, v in zip(row, vals):
                f.write(f"{i},{j}\n" if binary else f"{i},{j},{repr(float(v))}\n")
    with open(os.path.join(out, "edges.csv"), "w") as f:
        f.write("source,target\n")
        for u, v in sorted(pairs):
            f.write(f"{u},{v}\n")
    meta = {
        "name": name,
        "source": "Planetoid (Yang, Cohen and Salakhutdinov, ICML 2016), MIT licence",
        "classes": int(ally.shape[1]),
        "features": int(feats.shape[1]),
        "nodes": n,
        "edges": len(pairs),
        "nonzeros": int(feats.nnz),
        "split": "Planetoid's public split: 20 labelled nodes per class train, 1,000 test, the rest val",
    }
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    print(f"{name}: {n} nodes, {len(pairs)} edges, {feats.shape[1]} features ({feats.nnz} non-zero), {meta['classes']} classes")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])

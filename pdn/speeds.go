package pdn

// The speeds of the cost model, fitted to the epochs BenchmarkCost
// measures on one core: every model on the paper's synthetic graph at 64,
// 500 and 1,024 nodes per class, under a wide pathfinder (128, 128) on a
// denser graph, and on a Facebook Page-Page-shaped graph (22,470 nodes,
// 170,823 edges, 4,714 sparse features), each the mean of two or three
// runs. For each place, one weight per kind of work (a gather and an
// exponential against a dense multiply-add) and, per model, ns a unit and
// a fixed cost, chosen so that the largest |log(estimate/real)| over all
// those epochs is least; a model's set-up likewise, over the set-ups of
// 50 ms or more.
//
// In WebAssembly with the worker's SIMD kernels (Node, Chromium's engine),
// every epoch's estimate came within 0.79–1.27 of the real one when
// fitted, and within 0.73–1.32 in a later run (but for PDN's 0.1 ms epoch
// at 64 a class, 2.09). Natively (refitted once GAT's
// head-minor paths, the eight-lane elementwise kernels and APPNP's padded
// narrow propagation had landed, on a processor with AVX-512), within
// 0.60–1.67 of the mean of two runs for every model (GAT 0.71–1.42, APPNP
// 0.70–1.43, DeepWalk 0.74–1.36), and the set-ups of DeepWalk within
// 0.68–1.46 and of ClusterGCN within 0.61–1.64. This machine's speed moves
// under the same code by a fifth within the hour, and up to twofold
// between its slow and fast hours, which no fit can follow: those runs
// were of a slow hour, and a run in a fast one read 0.79–2.25 on the
// synthetic graphs and 0.76–1.08 on the Facebook-shaped one, high, the
// side of refusing. Two are left out of every figure here: DeepWalk's
// regression on the Facebook-shaped graph, which takes a third to a
// quarter of the time per unit that it takes on the synthetic ones (a few
// ms either way), and SGC on that graph, whose propagated features, dense,
// need 1.7 GB, which the browser refuses anyway.
//
// A unit of the same kind weighs differently per model because the models
// spend it in different loops: PDN's dense work runs in the fused,
// vectorised pathfinder, SGC's in one product with three output columns.
// The exponentials' weight came out at the fit's floor: where they matter
// (GAT's softmax, the pathfinder's σ), their model's own speed holds them.
var browserWeights = Work{Dense: 1, Gather: 4.01, Exp: 0.00674}
var browserSpeeds = map[string]Speed{} // each model's file registers its row

var nativeWeights = Work{Dense: 1, Gather: 11.2, Exp: 0.00674}
var nativeSpeeds = map[string]Speed{} // each model's file registers its row

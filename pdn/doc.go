// Package pdn trains Pathfinder Discovery Networks (Rozemberczki et al.,
// WWW 2021) and their baselines (Table 4's: GCN, GAT, GraphSAGE,
// Chebyshev, APPNP, SGC, ClusterGCN, DeepWalk and an MLP) on a
// datasets.Graph. Each kind is a row of experiment.Models and a file here
// that registers its network, cost and speeds.
//
// A graph has N nodes with features X ∈ ℝ^{N×F} and E undirected edges,
// edge e = {u, v} with features z_e ∈ ℝ^D. The pathfinder layer (§3.1) maps
// each edge's features to one weight by a small MLP,
//
//	w_e = σ(W_L · ReLU(… ReLU(W_1 z_e + b_1) …) + b_L),
//
// computed once per undirected edge. The learned graph Ĝ with Ĝ_uv = w_e,
// plus one self-loop of weight 1 per node, is normalised symmetrically
// (PyG's gcn_norm),
//
//	d_i = 1 + Σ_{e∋i} w_e,   Â = D^{-1/2} (Ĝ + I) D^{-1/2},
//
// and both layers of a GCN (Kipf & Welling) pass messages over it:
//
//	logits = Â · drop(ReLU(Â X W_1ᵀ + b_1)) · W_2ᵀ + b_2.
//
// GCN is the same network with every w_e = 1; MLP drops Â altogether. The
// loss is the mean cross-entropy of the training nodes, and Adam (with L2
// weight decay added to the gradient, as torch.optim.Adam) trains the
// pathfinder and the GCN together, full batch.
//
// The variants of §6 swap the pathfinder: a linear neuron with softmax
// attention over its inputs, w_e = σ(Σ_i softmax(β)_i z_ei); EdgeConv, whose
// inputs are learned similarities σ(h_u·h_v) of node embeddings on the
// existing edges; and the multi-scale PDN, Ĝ = Σ_i P_i Â^i with
// P = softmax(α), applied as in Algorithm 1 without forming a power of Â.
// The baselines share the same harness: each is a network that maps the
// graph to logits and back. GraphSAGE and Chebyshev are polynomial
// convolutions y = Σ_k T_k(x)·W_kᵀ + b: T_0 = x and T_1 the mean over the
// neighbours (SAGEConv), or the Chebyshev recurrence T_1 = L̂x,
// T_k = 2L̂T_{k−1} − T_{k−2} with L̂ = −D^{-1/2} A D^{-1/2} (ChebConv).
// A node embedding learned without labels (DeepWalk's) is classified as
// the paper's Appendix D does, by ℓ1-regularised multinomial logistic
// regression on the training nodes, min ‖W‖₁ + C Σ −log softmax(Wx_i+b)_{y_i}
// with C = 1 (scikit-learn's), fitted by FISTA in its own steps, not Adam.
//
// Every backward pass is written by hand and checked against finite
// differences in the tests. The kernels are plain loops over flat slices:
// they beat gonum's pure-Go paths under GOOS=js, and they sum in a fixed
// order, so the same seeds give the same bits natively and in the browser.
// Once warm, an epoch allocates nothing.
//
// A model over a learned graph (experiment.FromPDN) is GCN, SGC or APPNP
// with Â = norm(w*), w* the weights a PDN of the same rows ends with,
// frozen: the PDN trains first, as the trainer's set-up. A Snapshot's
// homophily figures are the input graph's edge homophily,
// |{e : y_u = y_v}| / E, and the learned graph's, Σ_{y_u = y_v} w_e / Σ w_e.
//
// A Trainer runs one epoch per Step and reads a Snapshot (accuracy, loss,
// learned weights) on demand; the CLI and the browser's worker both drive it
// that way. The package knows nothing of the browser.
package pdn

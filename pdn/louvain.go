package pdn

import (
	"math"
	"math/rand/v2"
	"slices"

	"pdnexplorer/datasets"
)

// louvain returns the communities gonum's community.Modularize finds in g's
// edges (each of weight 1) at resolution 1 with random source src, the same
// communities in the same order, each listing the same nodes in the same
// order (TestLouvainIsGonums holds it to that).
//
// Why by hand: gonum keeps a reduced graph's edge weights in a map keyed by
// node pair, and its local moving step looks up the weight from the node
// it moves to every member of every community next to it. In a sweep those
// look-ups were 60% of ClusterGCN's time (26 s of a rep's 41). Here every
// level keeps its weights beside its adjacency lists and the weights from
// the node being moved sit in a dense array, so a look-up is an index; the
// algorithm, its random draws, its order of nodes, candidates and members,
// and its arithmetic are gonum's. With unit weights every weight and sum is
// an integer, exact in float64, so the modularity gains are gonum's bits.
//
// Louvain (Blondel et al. 2008): each node moves to the neighbouring
// community of greatest modularity gain
//
//	ΔQ = 2 (k_{a,C} − γ k_a Σ_C / 2m − (k_{a,A} − a_aa − γ k_a (Σ_A − k_a) / 2m)) / 2m
//
// (A its own community, C the other, k_{a,C} its weight into C, Σ_C the
// sum of C's degrees) while any move gains more than 1e−15; then each
// community becomes a node of the next level, until a level moves nothing.
func louvain(g *datasets.Graph, src rand.Source) [][]int {
	lv := louvainBase(g)
	rnd := rand.New(src)
	for {
		m := newLouvainMover(lv)
		if m == nil || m.moveAll(rnd.IntN) {
			break
		}
		lv = lv.reduce(m.comms)
	}
	var out [][]int
	for _, c := range lv.communities() {
		comm := make([]int, len(c))
		for i, v := range c {
			comm[i] = int(v)
		}
		out = append(out, comm)
	}
	return out
}

// louvainLevel is one level of the hierarchy: gonum's ReducedUndirected.
type louvainLevel struct {
	adj    [][]int32   // each node's neighbours, in gonum's order
	w      [][]float64 // w[u][k] is the weight of the edge u–adj[u][k]
	self   []float64   // each node's self weight (twice the weight inside it)
	comms  [][]int32   // the level's division into communities
	parent *louvainLevel
}

// louvainBase is the first level: g's nodes, each its own community, each
// with its neighbours in the order datasets.Undirected lists them (a
// repeated edge twice, a self-loop not at all; each of weight 1).
func louvainBase(g *datasets.Graph) *louvainLevel {
	lv := &louvainLevel{adj: make([][]int32, g.N), w: make([][]float64, g.N), self: make([]float64, g.N), comms: make([][]int32, g.N)}
	for e := range g.Src {
		s, d := g.Src[e], g.Dst[e]
		if s != d {
			lv.adj[s] = append(lv.adj[s], d)
			lv.adj[d] = append(lv.adj[d], s)
		}
	}
	for u := range lv.adj {
		lv.w[u] = ones(len(lv.adj[u]))
		lv.comms[u] = []int32{int32(u)}
	}
	return lv
}

// communities returns the level's communities as lists of the first
// level's nodes (gonum's Communities).
func (lv *louvainLevel) communities() [][]int32 {
	if lv.parent == nil {
		out := make([][]int32, len(lv.comms))
		for i, c := range lv.comms {
			out[i] = slices.Clone(c)
		}
		return out
	}
	sub := lv.parent.communities()
	out := make([][]int32, len(lv.comms))
	for i, c := range lv.comms {
		for _, v := range c {
			out[i] = append(out[i], sub[v]...)
		}
	}
	return out
}

// reduce returns the next level, each of comms a node (gonum's
// reduceUndirected): empty communities are dropped, the last taking each
// one's place; a node's self weight sums its members' and twice the edges
// among them; the weight between two sums the edges across, added up from
// the side of the lower-numbered community.
func (lv *louvainLevel) reduce(comms [][]int32) *louvainLevel {
	for i := 0; i < len(comms); {
		if len(comms[i]) == 0 {
			last := len(comms) - 1
			comms[i], comms[last] = comms[last], nil
			comms = comms[:last]
		} else {
			i++
		}
	}
	lv.comms = comms
	nc := len(comms)
	r := &louvainLevel{adj: make([][]int32, nc), w: make([][]float64, nc), self: make([]float64, nc), comms: make([][]int32, nc), parent: lv}
	of := make([]int32, len(lv.adj))
	for i, c := range comms {
		r.comms[i] = []int32{int32(i)}
		for _, v := range c {
			of[v] = int32(i)
		}
	}
	wTo := make([]float64, len(lv.adj)) // from the member at hand
	acc := make([]float64, nc)          // to each higher community
	inOut := make([]bool, nc)
	lower := make([][]louvainPair, nc) // the weights from lower communities
	for c, members := range comms {
		var out []int32
		for i, u := range members {
			for k, v := range lv.adj[u] {
				wTo[v] = lv.w[u][k]
			}
			r.self[c] += lv.self[u]
			for _, v := range members[i+1:] {
				r.self[c] += float64(2 * wTo[v])
			}
			for k, v := range lv.adj[u] {
				wTo[v] = 0
				d := of[v]
				if d != int32(c) && !inOut[d] {
					inOut[d] = true
					out = append(out, d)
				}
				if int32(c) < d {
					acc[d] += lv.w[u][k]
				}
			}
		}
		for _, p := range lower[c] {
			acc[p.c] = p.w
		}
		w := make([]float64, len(out))
		for k, d := range out {
			inOut[d] = false
			w[k] = acc[d]
			if int32(c) < d {
				lower[d] = append(lower[d], louvainPair{int32(c), acc[d]})
			}
		}
		for k := range out {
			acc[out[k]] = 0
		}
		lower[c] = nil
		r.adj[c], r.w[c] = out, w
	}
	return r
}

type louvainPair struct {
	c int32
	w float64
}

// louvainMover is gonum's undirectedLocalMover: one level's moving step.
type louvainMover struct {
	lv      *louvainLevel
	nodes   []int32
	k       []float64 // each node's weighted degree, its self weight included
	m2      float64
	comms   [][]int32
	member  []int32
	moved   bool
	changed bool
	wTo     []float64 // the weights from the node being moved; zero elsewhere
	seen    []bool
	cand    []int32
}

// newLouvainMover returns the level's mover, or nil if it has no weight.
func newLouvainMover(lv *louvainLevel) *louvainMover {
	n := len(lv.adj)
	m := &louvainMover{lv: lv, nodes: make([]int32, n), k: make([]float64, n), comms: lv.comms,
		member: make([]int32, n), wTo: make([]float64, n), seen: make([]bool, len(lv.comms))}
	for u := range lv.adj {
		m.nodes[u] = int32(u)
		w := lv.self[u]
		for _, x := range lv.w[u] {
			w += x
		}
		m.k[u] = w
		m.m2 += w
	}
	if m.m2 == 0 {
		return nil
	}
	for i, c := range m.comms {
		for _, u := range c {
			m.member[u] = int32(i)
		}
	}
	return m
}

// moveAll moves nodes, in an order shuffled afresh each pass, until a pass
// moves none; it reports whether no node moved at all (gonum's
// localMovingHeuristic).
func (m *louvainMover) moveAll(rnd func(int) int) (done bool) {
	for {
		m.moved = false
		for i := range m.nodes[:len(m.nodes)-1] {
			j := i + rnd(len(m.nodes)-i)
			m.nodes[i], m.nodes[j] = m.nodes[j], m.nodes[i]
		}
		for _, n := range m.nodes {
			dq, dst, src, at := m.deltaQ(n)
			if dq <= 1e-15 {
				continue
			}
			m.move(dst, src, at)
		}
		if !m.moved {
			return !m.changed
		}
	}
}

// move moves the node at comms[src][at] to community dst, the last member
// of src taking its place.
func (m *louvainMover) move(dst, src, at int32) {
	m.moved, m.changed = true, true
	sc := m.comms[src]
	n := sc[at]
	m.member[n] = dst
	m.comms[dst] = append(m.comms[dst], n)
	last := len(sc) - 1
	sc[at] = sc[last]
	m.comms[src] = sc[:last]
}

// deltaQ returns the greatest gain of moving node id to a neighbouring
// community, that community, and where id is in its own.
func (m *louvainMover) deltaQ(id int32) (dq float64, dst, src, at int32) {
	lv := m.lv
	aaa, ka, m2 := lv.self[id], m.k[id], m.m2
	for k, v := range lv.adj[id] {
		m.wTo[v] = lv.w[id][k]
	}
	m.wTo[id] = aaa
	m.cand = m.cand[:0]
	for _, v := range lv.adj[id] {
		m.candidate(m.member[v])
	}
	m.candidate(m.member[id])
	slices.Sort(m.cand)
	var remove float64
	add := math.Inf(-1)
	dst, src, at = -1, -1, -1
	for _, i := range m.cand {
		m.seen[i] = false
		var kaC, sigmaC float64
		removal := false
		for j, u := range m.comms[i] {
			if u == id {
				src, at, removal = i, int32(j), true
			}
			kaC += m.wTo[u]
			sigmaC += m.k[u]
		}
		if removal {
			remove = kaC - aaa - float64(ka*(sigmaC-ka))/m2
		} else if d := kaC - float64(ka*sigmaC)/m2; d > add {
			add, dst = d, i
		}
	}
	for _, v := range lv.adj[id] {
		m.wTo[v] = 0
	}
	m.wTo[id] = 0
	return 2 * (add - remove) / m2, dst, src, at
}

func (m *louvainMover) candidate(c int32) {
	if !m.seen[c] {
		m.seen[c] = true
		m.cand = append(m.cand, c)
	}
}

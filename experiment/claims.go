package experiment

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/tiestrength"
)

// Claim is one finding the explorer states, in a lab's caption, a tour
// step, a preset or the README, as data: the sentence, where the paper
// shows it, the runs it reads, the check over their figures and how often
// it must hold over seeds. `pdn claims` trains every claim's runs over its
// seeds and a test runs it on every change; the page shows each claim of
// its lab with the verdict of the run on screen.
//
// A claim reads the runs of the state its Link decodes to (a lab at its
// defaults, or a preset), with the seed and init-seed rows both set to s
// for each seed s in 1..Seeds. It holds when its Check holds in at least
// Need of those seeds (and, where Most is set, in at most Most of them:
// a claim that training finds a thing only sometimes).
type Claim struct {
	ID string
	// Text is the finding as the page states it, a catalogue key.
	Text string
	// Paper says where the paper shows it and what it found there.
	Paper string
	// Differs says where and why our runs differ from the paper, "" where
	// they agree; the page shows it beside the verdict.
	Differs string
	// Link is the state whose runs the claim reads.
	Link string
	// Figure is the id of the figure of the claim's lab that shows what
	// the claim reads: the lab states the claim's verdict on that figure,
	// and a tour's question on the claim points at it.
	Figure string
	// Seeds, Need and Most: the claim's rate (see Claim).
	Seeds, Need, Most int
	// TestSeeds is how many of the seeds the test on every change runs
	// (all of them where it is 0); a row that sets it says why.
	TestSeeds int
	// Check reads the runs' figures, by run name, and says whether the
	// finding holds in them, with the numbers it read.
	Check func(runs map[string]Figures) Verdict
	// On are the other families of graphs the claim is checked on
	// (Checks): where the finding holds there too, and where the page
	// states instead that it does not.
	On []On
	// OnResults says Check reads only each run's test accuracy, which a
	// run trained to its end on a lab's pool keeps as its Result (and a
	// link's results row carries): a lab whose pool trains the claim's
	// runs decides it on their results (PoolCheck) and states it on its
	// card (ClaimsShownBy). A test holds every row that sets it to
	// checks that results alone decide.
	OnResults bool
}

// Figures are the numbers of one trained run that claims read, as the page
// shows them and the CLI computes them.
type Figures struct {
	Epoch, Epochs  int
	TestAcc        float64
	WIntra, WInter float64   // mean weight on intra- and inter-class edges (NaN: none)
	InputNames     []string  // the names of the linear PDN's inputs
	Inputs         []float64 // its attention over them
	Hops           []float64 // the multi-scale PDN's weight per power of Â
	XOR, XORFound  bool      // on the XOR graph: whether the weights follow XOR
	DegreeMeans    []float64 // mean weight by the receiving node's degree, lowest degrees first
	// InputHomophily and LearnedHomophily: the input graph's edge
	// homophily and the share of the run's edge weight on same-class
	// edges (NaN for a model without edge weights).
	InputHomophily, LearnedHomophily float64
	// IntraDeciles and InterDeciles are the 0th, 10th, …, 100th
	// percentiles of the learned weight on intra- and inter-class edges
	// (nil: no weights, or no edges of the kind); Saturated is the share of
	// all edges weighing within 0.01 of 0 or of 1 (NaN: no weights). Read
	// them through WeightReading (weights.go).
	IntraDeciles, InterDeciles []float64
	Saturated                  float64
	// EdgeSeparation is Figure 4's number: the 10-nearest-neighbour
	// agreement of edge kind among the model's hidden edge
	// representations, on a sample of edges with as many of each kind
	// (about 0.5 where the kinds mix, 1 where they separate; NaN for a
	// model without edge representations). It is read in the
	// representations themselves, which the t-SNE only draws
	// (lessons.Separation).
	EdgeSeparation float64
	// LayerWithin and LayerWeights are, on a multiplex graph, each layer's
	// share of edges within classes and the run's mean learned weight on
	// its edges (NaN for a model without edge weights), LayerNames their
	// names; nil on another graph (lessons.Layers).
	LayerWithin, LayerWeights []float64
	LayerNames                []string
}

// Trained reports whether the run has trained all of its epochs.
func (f Figures) Trained() bool { return f.Epochs > 0 && f.Epoch >= f.Epochs }

// Verdict is what a claim's check found in one set of runs.
type Verdict struct {
	// Decided is false while a run the claim reads has not trained all of
	// its epochs (or is missing); Holds is then false too.
	Decided, Holds bool
	// Numbers are the figures the check read, as a message.
	Numbers phrase.Text
}

// verdict is a decided verdict.
func verdict(holds bool, numbers phrase.Text) Verdict {
	return Verdict{Decided: true, Holds: holds, Numbers: numbers}
}

// Judge checks c against runs: undecided while any run it names is missing
// or short of its epochs.
func (c Claim) Judge(runs map[string]Figures) Verdict {
	for _, name := range c.RunNames() {
		if f, ok := runs[name]; !ok || !f.Trained() {
			return Verdict{}
		}
	}
	return c.Check(runs)
}

// Lab is the name of the lab whose runs the claim reads.
func (c Claim) Lab() string { return c.read().state.View.Lab }

// State is the state the claim reads at seed s: its Link with the seed and
// init-seed rows set to s.
func (c Claim) State(s uint64) Experiment {
	return c.read().state.atSeed(s)
}

// claimLink is what a claim's link says, read once: the page judges every
// claim its lab states on each render of the lab (the card, the lines
// beside the figures), where decoding the links again took a fifth of the
// page's thread while the XOR lab's four runs trained.
type claimLink struct {
	state      Experiment // at seed 1
	runNames   []string
	labDefault bool
}

// claimLinks holds each claim's claimLink by its memoKey.
var claimLinks sync.Map

// memoKey is what the claim's facts worked out once (its link's state,
// its checks, whether a lab's pool decides it) are kept by: every field
// they read but Check, so that a claim changed in one (a test's copy) is
// worked out anew.
func (c Claim) memoKey() string {
	var buf [256]byte
	b := append(buf[:0], c.ID...)
	b = append(append(b, 0), c.Link...)
	b = strconv.AppendBool(append(b, 0), c.OnResults)
	for _, n := range []int{c.Seeds, c.Need, c.Most, c.TestSeeds} {
		b = strconv.AppendInt(append(b, 0), int64(n), 10)
	}
	for _, o := range c.On {
		b = append(append(append(append(b, 0), o.Family...), 0), o.Differs...)
		b = strconv.AppendInt(append(strconv.AppendInt(append(b, 0), int64(o.Seeds), 10), 0), int64(o.Need), 10)
	}
	return string(b)
}

// read is what c's link says (claimLink), decoded the first time c is
// asked.
func (c Claim) read() *claimLink {
	key := c.memoKey()
	if v, ok := claimLinks.Load(key); ok {
		return v.(*claimLink)
	}
	e, err := Decode(c.Link)
	if err != nil {
		panic("experiment: claim " + c.ID + ": " + err.Error())
	}
	e.Data.Seed, e.Train.Seed = 1, 1
	r := &claimLink{state: e, runNames: RunNamesOf(e)}
	start := ForLab(e.View.Lab)
	start.Data.Seed, start.Train.Seed = 1, 1
	r.labDefault = e.EncodeRun() == start.EncodeRun() && slices.Equal(r.runNames, RunNamesOf(start))
	v, _ := claimLinks.LoadOrStore(key, r)
	return v.(*claimLink)
}

// atSeed is e with its seed and init-seed rows both s, sharing nothing
// with e: the one copy of a state kept once and handed out (a claim's, a
// check's).
func (e Experiment) atSeed(s uint64) Experiment {
	e = e.Clone()
	e.Data.Seed, e.Train.Seed = s, s
	return e
}

// Clone is e sharing nothing with e: its lists copied.
func (e Experiment) Clone() Experiment {
	e.Model.EdgeHidden = slices.Clone(e.Model.EdgeHidden)
	e.View.Models = slices.Clone(e.View.Models)
	return e
}

// Runs are the runs the claim reads at seed s.
func (c Claim) Runs(s uint64) []Run { return RunsOf(c.State(s)) }

// RunsOf are the runs the lab of e makes of it.
func RunsOf(e Experiment) []Run {
	l, _ := LabNamed(e.View.Lab)
	return l.Runs(e)
}

// LabDefault reports whether the claim reads its lab as it opens, rather
// than a preset of it: the same rows and the same runs (the compare lab's
// models).
func (c Claim) LabDefault() bool { return c.read().labDefault }

// RunNamesOf are the names of the runs the lab of e makes of it.
func RunNamesOf(e Experiment) []string {
	var out []string
	for _, r := range RunsOf(e) {
		out = append(out, r.Name)
	}
	return out
}

// RunNames are the names of the runs the claim reads.
func (c Claim) RunNames() []string { return slices.Clone(c.read().runNames) }

// Rate says the claim's rate in words: "in every seed of 1–3", "in at
// least 1 and at most 9 of seeds 1–10".
func (c Claim) Rate() phrase.Text {
	switch {
	case c.Need == c.Seeds:
		return phrase.New("in every seed of 1–%d", c.Seeds)
	case c.Most > 0:
		return phrase.New("in at least %d and at most %d of seeds 1–%d", c.Need, c.Most, c.Seeds)
	}
	return phrase.New("in at least %d of seeds 1–%d", c.Need, c.Seeds)
}

// Allows reports whether held runs of seeds in 1..n (n ≤ Seeds) are within
// the claim's rate: no more misses than the rate allows over all Seeds,
// and, with Most, no more hits.
func (c Claim) Allows(held, n int) bool {
	if n-held > c.Seeds-c.Need {
		return false
	}
	return c.Most == 0 || held <= c.Most
}

// ClaimsOf are the claims whose runs a lab trains, in the table's order.
func ClaimsOf(lab string) []Claim {
	var out []Claim
	for _, c := range Claims {
		if c.Lab() == lab {
			out = append(out, c)
		}
	}
	return out
}

// ClaimNamed returns the claim called id.
func ClaimNamed(id string) (Claim, bool) {
	return rowNamed(Claims, func(c Claim) string { return c.ID }, id)
}

// Claims are the findings the explorer states. Each row's thresholds were
// set from runs of `pdn claims` with a margin, and its rate is what those
// runs showed, not what the paper hoped for.
var Claims = slices.DeleteFunc([]Claim{
	{ID: "inter-fades", Link: "lab=graph", Figure: "graph", Seeds: 3, Need: 3,
		Text:  "Where the edge features tell the classes apart (the paper's generator), the pathfinder weighs inter-class edges down: their mean weight ends below a quarter of the intra-class edges'.",
		Paper: "§5.3 and Figure 5: the pathfinder learns to drop inter-class edges.",
		Check: func(r map[string]Figures) Verdict {
			f := r["run"]
			return verdict(4*f.WInter <= f.WIntra, phrase.New("intra %.3f, inter %.3f", f.WIntra, f.WInter))
		},
		On: []On{{Family: "scale-free"},
			{Family: "multiplex", Seeds: 5, Need: 4, Differs: "On a generated multiplex graph the pathfinder weighs layers, not single edges: an inter-class edge in a layer that carries the classes looks like that layer's other edges, so inter-class edges end only 3.4 to 4.0 times lighter than intra-class ones (about 0.13 against 0.50 over seeds 1 to 5), at or short of the quarter."},
			{Family: "cora", Differs: "On Cora the pathfinder does not weigh inter-class edges down to a quarter: its 11 tie-strength scores tell the classes apart little there, and edges within and between classes end with close mean weights (PyTorch Geometric's PDNConv, on the raw scores: 0.58 and 0.58)."},
			{Family: "citeseer", Differs: "On Citeseer the pathfinder does not weigh inter-class edges down: the tie-strength scores tell the classes apart little there either."},
			{Family: "facebook", Seeds: 2, Need: 2, Differs: "On Facebook Page-Page the pathfinder weighs inter-class edges down only partly: their mean weight ends well above a quarter of the intra-class edges' (the scaled tie-strength scores tell its classes apart somewhat)."},
			{Family: "heterophilic", Differs: "On a heterophilic graph (Q = 4P) the pathfinder weighs inter-class edges up, not down: most of a node's neighbours are of other classes, and their features still tell its class."},
			{Family: "misleading", Differs: "Where the node features alone separate the classes and most edges join different ones, the pathfinder weighs inter-class edges up rather than dropping them."}}},
	{ID: "pdn-beats-gcn", OnResults: true, Link: "lab=compare&models=pdn,gcn", Figure: "test-curves", Seeds: 3, Need: 3,
		Text:  "On the paper's default graph PDN reaches at least 0.93 test accuracy and GCN at most 0.70.",
		Paper: "Figure 3 at the default point (Appendix A): PDN about 0.95, GCN about 0.65.",
		Check: func(r map[string]Figures) Verdict {
			p, g := r[PDN].TestAcc, r[GCN].TestAcc
			return verdict(p >= 0.93 && g <= 0.70, accuracies(PDN, p, GCN, g))
		}},
	{ID: "sigma-d-1", OnResults: true, Link: "lab=compare&models=pdn,gcn&sigma-d=1", Figure: "test-curves", Seeds: 5, Need: 4,
		Text:  "When σD = 1 the edge features say nothing of the classes, and PDN ends within 0.04 of GCN.",
		Paper: "Figure 3, σD panel: at σD = 1 PDN falls to GCN's accuracy.",
		Check: func(r map[string]Figures) Verdict {
			p, g := r[PDN].TestAcc, r[GCN].TestAcc
			return verdict(math.Abs(p-g) <= 0.04, accuracies(PDN, p, GCN, g))
		}},
	{ID: "q-high", OnResults: true, Link: "lab=compare&models=pdn,gcn&per-class=128&q=0.0625", Figure: "test-curves", Seeds: 5, Need: 5,
		Text:    "With many inter-class edges (Q = 2⁻⁴, 128 nodes a class) PDN does not pull away from GCN: the two end within 0.1 of each other, either way round.",
		Paper:   "Figure 3, Q panel: the paper finds PDN far above GCN as Q grows.",
		Differs: "Here PDN is about level with GCN (ahead in some seeds, behind in others): its pathfinder weighs the inter-class edges up, not down, and with 384 nodes it overfits them.",
		Check: func(r map[string]Figures) Verdict {
			p, g := r[PDN].TestAcc, r[GCN].TestAcc
			return verdict(math.Abs(p-g) < 0.1, accuracies(PDN, p, GCN, g))
		}},
	{ID: "xor-hidden", Link: "lab=xor", Figure: "surfaces", Seeds: 10, Need: 9, TestSeeds: 3,
		Text:  "A pathfinder with a hidden layer of 16 neurons learns XOR: the edges in exactly one layer weigh at least three times the others.",
		Paper: "§4.1.1: a pathfinder with a hidden layer can learn XOR.",
		Check: func(r map[string]Figures) Verdict {
			return verdict(r["pdn-16"].XORFound, foundXOR(r["pdn-16"].XORFound))
		}},
	{ID: "xor-linear", Link: "lab=xor", Figure: "surfaces", Seeds: 10, Need: 10, TestSeeds: 3,
		Text:  "A pathfinder without a hidden layer cannot learn XOR.",
		Paper: "§4.1.1, the XOR proposition.",
		Check: func(r map[string]Figures) Verdict {
			return verdict(!r["pdn-linear"].XORFound, foundXOR(r["pdn-linear"].XORFound))
		}},
	{ID: "xor-two", Link: "lab=xor", Figure: "table3", Seeds: 10, Need: 1, Most: 9, TestSeeds: 10,
		Text:  "Two hidden neurons are enough for XOR (Table 3 sets them by hand), but training finds them only from some initialisations.",
		Paper: "Table 3: a 2-neuron pathfinder that computes XOR, its weights set by hand.",
		Check: func(r map[string]Figures) Verdict {
			return verdict(r["pdn-2"].XORFound, foundXOR(r["pdn-2"].XORFound))
		}},
	{ID: "degree-gat", Link: "lab=degree", Figure: "degree", Seeds: 3, Need: 3,
		Text:  "GAT's mean edge weight falls with the receiving node's degree, to under a quarter from the lowest degrees to the highest; PDN's stays above half.",
		Paper: "§4.2: attention normalised over neighbours shrinks as degree grows; PDN's weights do not.",
		Check: func(r map[string]Figures) Verdict {
			g, p := fall(r[GAT].DegreeMeans), fall(r[PDN].DegreeMeans)
			return verdict(g <= 0.25 && p >= 0.5, phrase.New("highest over lowest degrees: GAT %.2f, PDN %.2f", g, p))
		},
		On: []On{
			{Family: "cora", Seeds: 3, Need: 2, Differs: "On Cora PDN's weights are not level with degree either: in most seeds they fall with it nearly as GAT's do (its tie-strength inputs include the degree product); in some they rise."},
			{Family: "citeseer", Seeds: 3, Need: 2, Differs: "On Citeseer too PDN's weights are not level with degree: in most seeds they fall with it nearly as GAT's do."}}},
	{ID: "fig4-edge-kinds", Link: "lab=degree&data=synthetic", Figure: "edges", Seeds: 10, Need: 10, TestSeeds: 3,
		Text:  "PDN's hidden edge representations tell intra- from inter-class edges apart, GAT's do not: on a sample with as many edges of each kind, at least 0.7 of an edge's 10 nearest neighbours are of its kind among PDN's, at most 0.6 among GAT's (0.5 is chance).",
		Paper: "Figure 4 (§5.1): the t-SNE of PDN's hidden edge representations separates intra- from inter-class edges; GAT's does not.",
		Check: func(r map[string]Figures) Verdict {
			p, g := r[PDN].EdgeSeparation, r[GAT].EdgeSeparation
			return verdict(p >= 0.7 && g <= 0.6, phrase.New("10-NN agreement of edge kind: %s %.3f, %s %.3f", PDN, p, GAT, g))
		},
		// Measured over seeds 1–10 (docs/benchmarks.md): PDN 0.74–0.79 on
		// the generator's graph, GAT 0.51–0.56; the raw edge features 0.52.
		// The test on every change runs 3 of them.
		On: []On{{Family: "scale-free"}, {Family: "heterophilic"},
			{Family: "multiplex", Differs: "On a generated multiplex graph an edge's features are only the layers that hold it, so PDN's hidden representations of one layer's edges look alike whatever their kind: its agreement is about 0.58 to 0.66, above GAT's (about 0.51 to 0.56) but under 0.7."},
			{Family: "misleading", Differs: "Where the node features alone separate the classes and most edges join different ones, GAT's attention logits tell the kinds of edge apart nearly as well as PDN's hidden layer (about 0.7 each): the logits read node features that carry the classes."},
			{Family: "cora", Differs: "On Cora neither model's edge representations separate the kinds (PDN about 0.54, GAT about 0.59): the tie-strength scores tell the classes apart little, and the pathfinder's hidden layer keeps no more than they tell."},
			{Family: "citeseer", Differs: "On Citeseer neither model's edge representations separate the kinds (PDN about 0.51, GAT about 0.58)."}}},
	{ID: "multiplex-pdn-leads", Link: "lab=multiplex", Figure: "test-curves", Seeds: 5, Need: 4,
		Text:  "On a multiplex graph whose layers carry the classes unevenly, PDN, which weighs each layer, ends at least 0.05 above GCN over the union of the layers, and no lower than 0.02 under GCN over its best layer alone.",
		Paper: "§5.2, the multiplex figure: PDN leads every multiplex baseline on IMDB (0.589) and ACM (0.736); a GCN over the union of the layers is one of them.",
		Check: func(r map[string]Figures) Verdict {
			p, u := r[PDN].TestAcc, r[GCN].TestAcc
			best, bestName := math.Inf(-1), ""
			for name, f := range r {
				if layer, ok := strings.CutPrefix(name, GCN+"-"); ok && f.TestAcc > best {
					best, bestName = f.TestAcc, layer
				}
			}
			return verdict(p >= u+0.05 && p >= best-0.02, phrase.New("test accuracy: %s %.3f, %s over the union %.3f, %s over layer %s alone %.3f", PDN, p, GCN, u, GCN, bestName, best))
		}},
	{ID: "multiplex-layer-weights", Link: "lab=multiplex", Figure: "layer-weights", Seeds: 5, Need: 4,
		Text:  "The pathfinder weighs every layer that carries the classes (most of its edges within them) above every layer that joins nodes at random or across classes.",
		Paper: "§5.2: the pathfinder learns one weight for each edge from the layers that hold it; the paper reports the accuracy it gives, not the weights.",
		Check: func(r map[string]Figures) Verdict {
			f := r[PDN]
			return verdict(layersRanked(f.LayerWithin, f.LayerWeights), phrase.New("mean learned weight by layer (its share of edges within classes): %s", layerList(f.LayerNames, f.LayerWithin, f.LayerWeights)))
		}},
	{ID: "fig8-degree-product", Link: "lab=attention", Figure: "attention", Seeds: 5, Need: 4,
		Text:  "On Cora and on Facebook Page-Page the linear PDN attends least to the unnormalised degree product of the 11 tie-strength scores.",
		Paper: "Figure 8: the unnormalised scores (degree product, common neighbours) are attended to least.",
		Check: func(r map[string]Figures) Verdict {
			f := r["linear"]
			i := slices.Index(f.InputNames, "degree-product")
			if i < 0 {
				return verdict(false, phrase.New("no degree product among the inputs"))
			}
			low := lowestOther(f.Inputs, i)
			return verdict(f.Inputs[i] < low, phrase.New("degree product %.3f; the lowest of the others %.3f", f.Inputs[i], low))
		},
		On: []On{{Family: "facebook", Seeds: 2, Need: 2}}},
	{ID: "fig8-paper-text", Link: "lab=attention", Figure: "attention", Seeds: 5, Need: 4,
		Text:  "On Cora the linear PDN gives the degree product and common neighbours less than an even share (1/11) of its attention and association strength more than the median score, as the paper says; min overlap it does not single out: it stays at or under the median.",
		Paper: "§6.2 after Figure 8: unnormalised scores (degree product, common neighbours) receive low attention; on most datasets normalised ones that ignore the shared neighbours' degrees (association strength, min overlap) relatively high.",
		Differs: "Min overlap is not high on Cora here: about seventh of the 11 scores, near an even share. " +
			"Figure 8 is read on the scores as the pathfinder reads them everywhere, scaled (log1p of the unbounded ones, then each standardised over the graph's edges): fed raw, only the degree product, in the thousands, is starved and the other ten sit at an even share, so the attention measures the scores' units, not what they say.",
		Check: func(r map[string]Figures) Verdict {
			return figure8Parts(r["linear"])
		},
		On: []On{{Family: "facebook", Seeds: 2, Need: 2, Differs: "On Facebook Page-Page the paper's text holds whole: min overlap is high there too (0.102 against the median 0.090 at seed 1), beside the degree product and common neighbours under an even share (0.059, 0.072 against 0.091) and association strength the most attended (0.165)."}}},
	{ID: "fig7-first-hop", Link: "lab=attention", Figure: "hops", Seeds: 5, Need: 5,
		Text:  "The multi-scale PDN weights the first hop most.",
		Paper: "Figure 7: the model learns to prioritise messages from the first-order neighbourhood.",
		Check: func(r map[string]Figures) Verdict {
			h := r["multiscale"].Hops
			if len(h) == 0 {
				return verdict(false, phrase.New("no hop weights"))
			}
			return verdict(slices.Index(h, slices.Max(h)) == 0, phrase.New("hop weights %s", formatList(h)))
		},
		On: []On{{Family: "citeseer"}, {Family: "generator"}, {Family: "facebook", Seeds: 2, Need: 2}}},
	{ID: "bag-of-words-recipe", OnResults: true, Link: "lab=compare&models=pdn,gcn&data=cora", Figure: "test-curves", Seeds: 10, Need: 10,
		Text:  "With bag-of-words node features (Cora, and Facebook Page-Page too) the explorer starts from weight decay 0.005, dropout 0.9 and self-loops that weigh the mean of each node's learned edge weights: PDN then ends within 0.02 of GCN, at 0.83 or more.",
		Paper: "Table 4: PDN 0.868 and GCN 0.861 on Cora.",
		Differs: "At the synthetic graphs' dropout of 0.5 PDN ends about 0.82 on Cora, three points under GCN: over a few hundred labelled nodes its pathfinder overfits. " +
			"The paper's PDN lead does not reproduce here; PyTorch Geometric on the same splits agrees with ours within half a point.",
		Check: func(r map[string]Figures) Verdict {
			p, g := r[PDN].TestAcc, r[GCN].TestAcc
			return verdict(p >= 0.83 && p >= g-0.02, accuracies(PDN, p, GCN, g))
		},
		On: []On{{Family: "facebook", Seeds: 2, Need: 2},
			{Family: "citeseer", Seeds: 3, Need: 3, Differs: "On Citeseer PDN ends under 0.83, as GCN does: Citeseer is the harder graph for every model here (both near 0.72)."}}},
	{ID: "structure-homophily", Link: "lab=structure", Figure: "homophily-curves", Seeds: 3, Need: 3,
		Text:  "Where the edge features tell the classes apart (the paper's generator, a multiplex graph's layers), PDN's learned graph is far more homophilous than its input, by 0.25 or more, while GCN's is the input's own.",
		Paper: "Beyond the paper: the homophily of a learned structure, as OpenGSL measures it. The paper shows the inter-class edges fade (Figure 5).",
		Check: func(r map[string]Figures) Verdict {
			in, p, g := r[PDN].InputHomophily, r[PDN].LearnedHomophily, r[GCN].LearnedHomophily
			return verdict(p >= in+0.25 && math.Abs(g-in) < 1e-9, homophilies(in, PDN, p, GCN, g))
		},
		On: []On{{Family: "scale-free"}, {Family: "multiplex"},
			{Family: "cora", Differs: "On Cora PDN's learned graph is about as homophilous as its input: with little class information in its edge features, it keeps the input's structure."},
			{Family: "citeseer", Differs: "On Citeseer PDN's learned graph is about as homophilous as its input."},
			{Family: "facebook", Seeds: 2, Need: 2, Differs: "On Facebook Page-Page PDN's learned graph is only a little more homophilous than its input."}}},
	{ID: "structure-heterophily", Link: "lab=structure&p=0.005&q=0.02", Figure: "homophily-curves", Seeds: 3, Need: 3,
		Text:  "On a heterophilic graph (Q = 4P) PDN's learned graph is less homophilous than its input, yet PDN is the most accurate of PDN, GCN and GAT: homophily and accuracy part ways, as OpenGSL found.",
		Paper: "Beyond the paper: its generator never sets Q above P. OpenGSL finds no significant correlation between a learned structure's homophily and the task's accuracy.",
		Check: func(r map[string]Figures) Verdict {
			in, p := r[PDN].InputHomophily, r[PDN].LearnedHomophily
			pa, ga, ta := r[PDN].TestAcc, r[GCN].TestAcc, r[GAT].TestAcc
			return verdict(p < in && pa > ga && pa > ta, phrase.New("%s; %s, %s %.3f", homophilies(in, PDN, p, GCN, r[GCN].LearnedHomophily), accuracies(PDN, pa, GCN, ga), GAT, ta))
		},
	},
	{ID: "structure-add-inter", OnResults: true, Link: "lab=structure&perturb=add-inter&perturb-rate=0.4", Figure: "test-curves", Seeds: 3, Need: 3,
		Text:  "With inter-class edges added, 0.4 of the default graph's edge count, PDN still reaches 0.90 test accuracy or more, while GCN and GAT fall to 0.60 or less.",
		Paper: "Beyond the paper: GSLB's robustness to added edges, here by an attacker who knows the classes.",
		Check: func(r map[string]Figures) Verdict {
			p, g, t := r[PDN].TestAcc, r[GCN].TestAcc, r[GAT].TestAcc
			return verdict(p >= 0.9 && g <= 0.6 && t <= 0.6, phrase.New("%s, %s %.3f", accuracies(PDN, p, GCN, g), GAT, t))
		}},
	{ID: "structure-transfer", OnResults: true, Link: "lab=compare&models=gcn,sgc,appnp&graph-from=pdn", Figure: "test-curves", Seeds: 3, Need: 3,
		Text:  "Given PDN's learned graph, frozen, GCN, SGC and APPNP each reach 0.85 test accuracy or more on the default graph.",
		Paper: "Beyond the paper: OpenGSL's generalisability of a learned structure to other models.",
		Check: func(r map[string]Figures) Verdict {
			g, s, a := r[GCN].TestAcc, r[SGC].TestAcc, r[APPNP].TestAcc
			return verdict(min(g, s, a) >= 0.85, phrase.New("test accuracy: %s %.3f, %s %.3f, %s %.3f", GCN, g, SGC, s, APPNP, a))
		}},
	{ID: "induction-carries", OnResults: true, Link: "lab=compare&models=pdn,gcn&graph-from=pdn&pathfinder-seed=99", Figure: "test-curves", Seeds: 3, Need: 3,
		Text:  "A pathfinder trained on one of the generator's graphs, frozen and applied to another it never saw (drawn at another seed), gives GCN a graph on which it ends within 0.06 of a PDN trained there: the learned aggregation carries from graph to graph.",
		Paper: "§1: the model learns its graph inductively, allowing transfer of learned graph aggregation from one graph to another; stated, never shown in the paper.",
		Check: func(r map[string]Figures) Verdict {
			p, g := r[PDN].TestAcc, r[GCN].TestAcc
			return verdict(g >= p-0.06, phrase.New("test accuracy: %s trained here %.3f, %s over the pathfinder of seed 99 %.3f", PDN, p, GCN, g))
		},
		On: []On{{Family: "scale-free"}, {Family: "multiplex"}, {Family: "heterophilic"}, {Family: "misleading"}}},
	{ID: "induction-size", OnResults: true, Link: "lab=compare&models=pdn,gcn&graph-from=pdn&pathfinder-seed=99&pathfinder-rows=per-class%3D128", Figure: "test-curves", Seeds: 3, Need: 3,
		Text:  "A pathfinder learned on a graph of the generator's rows a quarter the size (128 nodes a class), frozen and applied to this one, gives GCN a graph on which it ends within 0.1 of a PDN trained here: induction carries across sizes, with some loss.",
		Paper: "§1: the model learns its graph inductively, allowing transfer of learned graph aggregation from one graph to another; stated, never shown in the paper.",
		Check: func(r map[string]Figures) Verdict {
			p, g := r[PDN].TestAcc, r[GCN].TestAcc
			return verdict(g >= p-0.1, phrase.New("test accuracy: %s trained here %.3f, %s over the pathfinder of a graph of 128 nodes a class %.3f", PDN, p, GCN, g))
		}},
	{ID: "induction-stops", OnResults: true, Link: "lab=compare&models=pdn,gcn&graph-from=pdn&pathfinder-seed=99&pathfinder-rows=sigma-d%3D0.5", Figure: "test-curves", Seeds: 3, Need: 3,
		Text:  "Induction stops where the edge features mean another thing: a pathfinder learned where inter-class edges' features spread less than intra-class ones (σD = 0.5) weighs this graph's inter-class edges up, and GCN over its graph ends at least 0.2 below a PDN trained here (so does one learned where most edges join classes, Q = 4P).",
		Paper: "§1 states the transfer without its limits; the pathfinder maps edge features to weights, and carries only where they mean what they meant where it learned.",
		Check: func(r map[string]Figures) Verdict {
			p, g := r[PDN].TestAcc, r[GCN].TestAcc
			return verdict(g <= p-0.2, phrase.New("test accuracy: %s trained here %.3f, %s over the pathfinder of a graph of σD = 0.5 %.3f", PDN, p, GCN, g))
		}},
	{ID: "structure-transfer-input", OnResults: true, Link: "lab=compare&models=gcn,sgc,appnp", Figure: "test-curves", Seeds: 3, Need: 3,
		Text:  "Over the default graph as it is, GCN, SGC and APPNP each end at 0.75 test accuracy or less.",
		Paper: "Figure 3 at the default point: GCN about 0.65, the other baselines near it.",
		Check: func(r map[string]Figures) Verdict {
			g, s, a := r[GCN].TestAcc, r[SGC].TestAcc, r[APPNP].TestAcc
			return verdict(max(g, s, a) <= 0.75, phrase.New("test accuracy: %s %.3f, %s %.3f, %s %.3f", GCN, g, SGC, s, APPNP, a))
		}},
	{ID: "same-weights", Link: "lab=graph&data=cora", Figure: "histogram", Seeds: 3, Need: 3,
		Text:  "On the citation graphs the 11 tie-strength scores tell the classes apart little: the pathfinder's median weight on inter-class edges ends within a factor of 2 of the intra-class edges'.",
		Paper: "§5.3 reads the learned weights on the synthetic graphs only; on the real graphs it reports accuracy.",
		Check: func(r map[string]Figures) Verdict {
			w := r["run"].LearnedWeights()
			little := w.Kind == WeightsSame || w.Kind == WeightsSaturated || (w.Kind == WeightsDown || w.Kind == WeightsUp) && w.Factor < 2
			return verdict(little, phrase.New("median weight: intra %.3f, inter %.3f", w.MedianIntra, w.MedianInter))
		},
		On: []On{{Family: "citeseer"},
			{Family: "facebook", Seeds: 2, Need: 1, Differs: "On Facebook Page-Page the scaled tie-strength scores tell the classes apart somewhat, more in some seeds than others: inter-class edges end about twice lighter than intra-class ones in some (median 0.079 against 0.169 at seed 2) and within a factor of 2 in others (0.084 against 0.117 at seed 1)."},
			{Family: "generator", Differs: "On the generator's graphs the edge features do tell the classes apart: inter-class edges end over twice lighter than intra-class ones, most often over ten times."},
			{Family: "multiplex", Differs: "On a generated multiplex graph whose layers carry the classes unevenly, inter-class edges end about ten times lighter than intra-class ones (median 0.02 against 0.22)."}}},
	{ID: "misleading-mlp", OnResults: true, Link: "lab=compare&models=pdn,mlp&q=0.015&sigma-f=0.5&node-features=64", Figure: "test-curves", Seeds: 5, Need: 4,
		Text:  "Where the node features alone separate the classes and most edges join different ones, PDN ends at least 0.02 under an MLP that ignores the graph: its pathfinder does not learn to drop the misleading edges.",
		Paper: "§3: the pathfinder learns which edges serve the task; the paper never draws a graph whose edges mislead.",
		Check: func(r map[string]Figures) Verdict {
			p, m := r[PDN].TestAcc, r[MLP].TestAcc
			return verdict(m-p >= 0.02, accuracies(PDN, p, MLP, m))
		}},
}, func(c Claim) bool { return withheldLink(c.Link) })

// homophilies says the input's homophily and two runs' learned ones.
func homophilies(in float64, a string, x float64, b string, y float64) phrase.Text {
	return phrase.New("homophily: input %.3f, %s learned %.3f, %s %.3f", in, a, x, b, y)
}

// accuracies says two runs' test accuracies.
func accuracies(a string, x float64, b string, y float64) phrase.Text {
	return phrase.New("test accuracy: %s %.3f, %s %.3f", a, x, b, y)
}

// foundXOR says whether a run's weights follow XOR.
func foundXOR(found bool) phrase.Text {
	if found {
		return phrase.New("found XOR")
	}
	return phrase.New("did not find XOR")
}

// fall is the mean weight of the highest-degree bin over the lowest's
// (NaN without two bins).
func fall(means []float64) float64 {
	if len(means) < 2 || means[0] == 0 {
		return math.NaN()
	}
	return means[len(means)-1] / means[0]
}

// lowestOther is the smallest of xs but xs[skip].
func lowestOther(xs []float64, skip int) float64 {
	low := math.Inf(1)
	for i, x := range xs {
		if i != skip {
			low = min(low, x)
		}
	}
	return low
}

// figure8Parts checks the four scores Figure 8's text names against the
// linear PDN's attention f.Inputs: the low ones (tiestrength.PaperLow)
// under an even share, association strength above the median score, and
// min overlap, which the paper has high, at or under it.
func figure8Parts(f Figures) Verdict {
	at := func(name string) float64 {
		if i := slices.Index(f.InputNames, name); i >= 0 && i < len(f.Inputs) {
			return f.Inputs[i]
		}
		return math.NaN()
	}
	dp, cn := at(tiestrength.PaperLow[0]), at(tiestrength.PaperLow[1])
	as, mo := at(tiestrength.PaperHigh[0]), at(tiestrength.PaperHigh[1])
	if math.IsNaN(dp) || math.IsNaN(cn) || math.IsNaN(as) || math.IsNaN(mo) {
		return verdict(false, phrase.New("no degree product among the inputs")) // a graph without the scores
	}
	even, med := 1/float64(len(f.Inputs)), median(f.Inputs)
	holds := dp < even && cn < even && as > med && mo <= med
	return verdict(holds, phrase.New("degree product %.3f, common neighbours %.3f (an even share %.3f); association strength %.3f, min overlap %.3f (the median %.3f)", dp, cn, even, as, mo, med))
}

// median is the middle of xs (NaN for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// formatList writes xs to three decimals, separated by commas.
func formatList(xs []float64) string {
	var b []byte
	for i, x := range xs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendFloat(b, x, 'f', 3, 64)
	}
	return string(b)
}

// Package pyg takes a run of the explorer to PyTorch Geometric: the graph
// as a bundle, the trained weights named as PyG's modules name them, and a
// script that builds the same architecture from PyG's layers, loads the
// weights, trains it again from the run's seed and prints test accuracy.
//
// An export is a folder (or a zip of one):
//
//	run_pyg.py     the script, with the run's model and hyperparameters in it
//	weights.json   {"model", "epoch", "test_accuracy", "parameters": [{"name", "shape", "values"}…]}
//	graph/         the bundle the run trained on (nodes.csv, edges.csv, meta.json[, features.csv])
//	README.txt     how to run it
//
// The architectures map one to one: the PDN's pathfinder MLP is a
// torch.nn.Sequential (pathfinder.0 the first linear layer), its GCN two
// GCNConv layers whose symmetric normalisation with one self-loop of weight
// 1 is the engine's; GAT is GATConv, SGC SGConv, GraphSAGE SAGEConv (mean
// aggregator), Chebyshev ChebConv (K = pdn.ChebTerms, PyG's defaults),
// APPNP two linear layers and PyG's APPNP propagation. Weights are row-major, out×in as torch.nn.Linear
// stores them, and written in the shortest form that reads back to the
// same float64 bits, so loading them in PyTorch (in float64) gives the
// explorer's predictions.
//
// Both the CLI (pdn train -export) and the browser's worker write exports
// through this package.
package pyg

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strings"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/pdn"
)

// script is run_pyg.py with runPlaceholder where the run's JSON goes. JSON
// cannot hold three quotes in a row, so Python's raw triple-quoted string
// takes it as it is. (One placeholder needs no text/template, which would
// weigh on the worker's binary.)
//
//go:embed run_pyg.py
var script string

const runPlaceholder = "{{.}}"

// Names of an export's files.
const (
	ScriptFile  = "run_pyg.py"
	WeightsFile = "weights.json"
	GraphFolder = "graph"
	ReadmeFile  = "README.txt"
)

// Run is what an export holds of a run: its experiment, its trained
// weights and where they stood when exported.
type Run struct {
	Exp          experiment.Experiment
	Epoch        int
	TestAccuracy float64
	Params       []pdn.Parameter
	// GraphWeight is the weight each edge carries in the graph the model
	// propagates over, nil for 1: PDN's learned graph for a model over it
	// (experiment.FromPDN), which weights.json carries.
	GraphWeight []float64
}

// Trained is what an export reads of a trainer (a *pdn.Trainer).
type Trained interface {
	Parameters() ([]pdn.Parameter, error)
	Experiment() experiment.Experiment
	Epoch() int
	EvaluateInto(*pdn.Snapshot)
	GraphWeights() []float64
}

// RunOf reads the trainer's run as it stands.
func RunOf(t Trained) (Run, error) {
	ps, err := t.Parameters()
	if err != nil {
		return Run{}, err
	}
	var s pdn.Snapshot
	t.EvaluateInto(&s)
	return Run{Exp: t.Experiment(), Epoch: t.Epoch(), TestAccuracy: s.TestAcc, Params: ps, GraphWeight: t.GraphWeights()}, nil
}

// settings is the script's RUN: every hyperparameter the architecture and
// its training need, by the script's names.
type settings struct {
	Model         string      `json:"model"`
	Hidden        int         `json:"hidden"`
	EdgeHidden    []int       `json:"edge_hidden"`
	EdgeInit      string      `json:"edge_init"`
	SelfLoop      string      `json:"self_loop"` // mean: each self-loop weighs the mean of the node's learned weights
	Dropout       float64     `json:"dropout"`
	EdgeDrop      float64     `json:"edge_drop"`
	LR            float64     `json:"lr"`
	WeightDecay   float64     `json:"weight_decay"`
	Epochs        int         `json:"epochs"`
	Seed          uint64      `json:"seed"`
	Restarts      int         `json:"restarts"`
	RestartEpochs int         `json:"restart_epochs"`
	GATHeads      int         `json:"gat_heads"`
	GATHeadDim    int         `json:"gat_head_features"`
	SGCHops       int         `json:"sgc_hops"`
	APPNPSteps    int         `json:"appnp_steps"`
	APPNPTeleport float64     `json:"appnp_teleport"`
	ChebTerms     int         `json:"cheb_terms"`
	GraphFrom     string      `json:"graph_from"`    // pdn: the model propagates over weights.json's graph_weight
	TestAccuracy  numtext.Num `json:"test_accuracy"` // what the explorer showed for the exported weights
	Epoch         int         `json:"exported_epoch"`
	State         string      `json:"state"` // the explorer's link to the run
	// Ranges hold the script's numeric arguments to the explorer's rows
	// (argumentRows): a value the explorer refuses, the script refuses.
	Ranges map[string][2]float64 `json:"ranges"`
	// Labels is the explorer's rule for a bundle's labels, which the
	// script reads a bundle by: written in from datasets, never copied by
	// hand, so the two cannot drift.
	Labels labelRule `json:"labels"`
	// Bundle is the explorer's rule for the rest of a bundle (meta.json's
	// counts, their names and ranges), from datasets as Labels is.
	Bundle datasets.BundleRules `json:"bundle"`
}

// labelRule is how the explorer reads a bundle's label (datasets'
// IsNoClass): a cell that is one of Missing (pandas' missing values), or
// the number NoClass, is a node without a class; any other is a whole
// number below MaxClasses.
type labelRule struct {
	Missing    []string `json:"missing"`
	NoClass    int      `json:"no_class"`
	MaxClasses int      `json:"max_classes"`
}

// labels is the explorer's label rule, from datasets.
func labels() labelRule {
	return labelRule{Missing: datasets.MissingValues(), NoClass: datasets.NoClass, MaxClasses: datasets.MaxClasses}
}

// argumentRows are the rows of the state table whose ranges the script's
// arguments take, by the script's name for them (run_pyg.py --seed is the
// seed of the weights, the explorer's init-seed).
var argumentRows = map[string]string{"epochs": "epochs", "seed": "init-seed", "lr": "lr", "weight_decay": "weight-decay"}

// argumentRanges are the ranges of argumentRows, [min, max] each.
func argumentRanges() map[string][2]float64 {
	out := map[string][2]float64{}
	for arg, row := range argumentRows {
		p, ok := experiment.Lookup(row)
		if !ok {
			panic("pyg: no row " + row + " in the state table")
		}
		out[arg] = [2]float64{p.Min, p.Max}
	}
	return out
}

func settingsOf(r Run) settings {
	m, tr := r.Exp.Model, r.Exp.Train
	edgeHidden := m.EdgeHidden
	if edgeHidden == nil {
		edgeHidden = []int{}
	}
	selfLoop := m.SelfLoop
	if selfLoop == "" {
		selfLoop = experiment.SelfLoopOne
	}
	return settings{Model: m.Kind, Hidden: m.Hidden, EdgeHidden: edgeHidden, EdgeInit: m.EdgeInit, SelfLoop: selfLoop,
		Dropout: m.Dropout, EdgeDrop: m.EdgeDrop, LR: tr.LR, WeightDecay: tr.WeightDecay, Epochs: tr.Epochs, Seed: tr.Seed,
		Restarts: m.Restarts, RestartEpochs: m.RestartEpochs,
		GATHeads: pdn.GATHeads, GATHeadDim: pdn.GATHeadDim, SGCHops: pdn.SGCHops, APPNPSteps: pdn.APPNPSteps, APPNPTeleport: pdn.APPNPTeleport, ChebTerms: pdn.ChebTerms,
		GraphFrom:    graphFrom(r),
		TestAccuracy: numtext.Num(math.Round(r.TestAccuracy*1e4) / 1e4), Epoch: r.Epoch, State: r.Exp.EncodeRun(),
		Ranges: argumentRanges(), Labels: labels(), Bundle: datasets.Rules()}
}

// graphFrom is the settings' graph_from: pdn where the run carries PDN's
// learned graph, else input.
func graphFrom(r Run) string {
	if r.GraphWeight != nil {
		return experiment.FromPDN
	}
	return experiment.FromInput
}

// Script is run_pyg.py for the run.
func Script(r Run) ([]byte, error) {
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetEscapeHTML(false) // the state is a link, readable as it is
	enc.SetIndent("", "  ")
	if err := enc.Encode(settingsOf(r)); err != nil {
		return nil, err
	}
	return []byte(strings.Replace(script, runPlaceholder, strings.TrimSpace(js.String()), 1)), nil
}

// Weights is weights.json: the trained arrays by name, each value in the
// shortest form that reads back to its float64 bits.
func Weights(r Run) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"model\": %q,\n  \"epoch\": %d,\n  \"test_accuracy\": %s,\n", r.Exp.Model.Kind, r.Epoch, jsonNumber(r.TestAccuracy))
	if r.GraphWeight != nil { // PDN's learned graph, one weight per edge of edges.csv
		b.WriteString("  \"graph_weight\": [")
		for k, v := range r.GraphWeight {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonNumber(v))
		}
		b.WriteString("],\n")
	}
	b.WriteString("  \"parameters\": [")
	for i, p := range r.Params {
		if i > 0 {
			b.WriteByte(',')
		}
		shape, _ := json.Marshal(p.Shape)
		fmt.Fprintf(&b, "\n    {\"name\": %q, \"shape\": %s, \"values\": [", p.Name, shape)
		for k, v := range p.Values {
			if k > 0 {
				b.WriteByte(',')
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, phrase.Errorf("parameter %s: value %d is %v; a diverged run has no weights to export", p.Name, k, v)
			}
			b.WriteString(jsonNumber(v))
		}
		b.WriteString("]}")
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes(), nil
}

// jsonNumber writes v for JSON: the shortest float64 form, null for NaN
// (a run without test nodes).
func jsonNumber(v float64) string {
	b, _ := numtext.Num(v).MarshalJSON() // it never fails
	return string(b)
}

// readme says what the export holds and how to run it.
func readme(r Run) string {
	return strings.Join([]string{
		"A PDN Explorer run (" + r.Exp.Model.Kind + ", " + fmt.Sprint(r.Epoch) + " epochs), for PyTorch Geometric.",
		"",
		"  " + ScriptFile + "    builds the model with PyTorch Geometric's layers, loads " + WeightsFile + ",",
		"                 trains it again from the run's seed and prints test accuracy",
		"  " + WeightsFile + "  the trained weights, named as the script's modules name them",
		"  " + GraphFolder + "/         the graph as a bundle (nodes.csv, edges.csv, meta.json)",
		"",
		"Run:  python3 " + ScriptFile + "          (needs torch and torch_geometric 2.3 or later:",
		"      pip install torch torch_geometric, or PYTHONPATH=DIR where DIR holds torch_geometric/)",
		"It trains in float64, the explorer's precision (--float32 for float32), says how long it",
		"expects to take before it starts, and what its first epochs took once they have run.",
		"The last line it prints is one JSON object with test_accuracy; --help lists its arguments.",
		"",
	}, "\n")
}

// file is one of the export's files but the bundle.
type file struct {
	name string
	data []byte
	mode fs.FileMode
}

// files are the export's files but the bundle, in the order they are
// written; the script is executable.
func files(r Run) ([]file, error) {
	s, err := Script(r)
	if err != nil {
		return nil, err
	}
	w, err := Weights(r)
	if err != nil {
		return nil, err
	}
	return []file{{ScriptFile, s, 0o755}, {WeightsFile, w, 0o644}, {ReadmeFile, []byte(readme(r)), 0o644}}, nil
}

// WriteFiles writes the export of r on g, each file to the writer create
// opens by its path in the export's folder (with /) and permissions: a
// folder's are created by the one writer of output folders
// (internal/outdir), which puts them in place together once all are whole.
func WriteFiles(g *datasets.Graph, r Run, create func(name string, perm fs.FileMode) (io.WriteCloser, error)) error {
	extra, err := files(r)
	if err != nil {
		return err
	}
	err = datasets.WriteBundle(g, func(name string) (io.WriteCloser, error) { return create(GraphFolder+"/"+name, 0o644) })
	if err != nil {
		return err
	}
	for _, f := range extra {
		w, err := create(f.name, f.mode)
		if err != nil {
			return err
		}
		_, err = w.Write(f.data)
		if err := errors.Join(err, w.Close()); err != nil {
			return err
		}
	}
	return nil
}

// WriteZip writes the export of r on g as a zip archive of one folder
// called name.
func WriteZip(w io.Writer, name string, g *datasets.Graph, r Run) error {
	fs, err := files(r)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	for _, f := range fs {
		h := &zip.FileHeader{Name: name + "/" + f.name, Method: zip.Deflate, Modified: datasets.ZipTime()}
		h.SetMode(f.mode)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.data); err != nil {
			return err
		}
	}
	if err := datasets.WriteBundleInZip(zw, name+"/"+GraphFolder, g); err != nil {
		return err
	}
	return zw.Close()
}

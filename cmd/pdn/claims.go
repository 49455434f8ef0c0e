package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/lessons"
)

// claimsJob is a parsed `pdn claims`.
type claimsJob struct {
	only   []experiment.Claim
	seeds  int  // at most this many seeds a claim (0: each claim's own)
	test   bool // each claim's TestSeeds
	with   string
	asJSON bool
	// families: the families checked (all where -family is not given);
	// folders: the folder each Folder family is read from.
	families []string
	folders  map[string]string
}

func parseClaims(args []string, stderr io.Writer) (runner, error) {
	fs := flag.NewFlagSet("claims", flag.ContinueOnError)
	var j claimsJob
	var only string
	fs.StringVar(&only, "only", "", "the claims to check, by id, separated by commas (default all)")
	numtext.IntVar(fs, &j.seeds, "seeds", 0, 0, 100, "check each claim over at most this many of its seeds (0: all of them); fewer seeds than a claim's own may not decide its rate")
	fs.BoolVar(&j.test, "test", false, "check each claim over the seeds its row gives the test on every change")
	fs.StringVar(&j.with, "with", "", "rows to set in every claim's state, as a link's query (dropout=0.9): which claims would a new default break?")
	fs.BoolVar(&j.asJSON, "json", false, "print one JSON object as the last line of stdout")
	var families string
	fs.StringVar(&families, "family", "", "check the claims on these families of graphs only, separated by commas, some of "+strings.Join(experiment.FamilyNames(), ", ")+" (default all)")
	var folder string
	fs.StringVar(&folder, "folder", "", "NAME=DIR: the folder a family with no generator is read from ("+folderFamilies()+"); without it, that family's checks are listed as not run")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	j.folders = map[string]string{}
	if flagSet(fs, "folder") {
		if err := addFolder(j.folders, folder); err != nil {
			return nil, usageError{fmt.Errorf("flag -folder: %w", err)}
		}
	}
	var err error
	if j.families, err = parseFamilies(families, flagSet(fs, "family")); err != nil {
		return nil, err
	}
	if j.test && flagSet(fs, "seeds") {
		// Both say over which seeds: -seeds would cut the test's own and
		// print "holds" on fewer seeds than its rate reads.
		return nil, usageError{errors.New("flags -seeds and -test: both choose the seeds a claim is checked over (-test its row's, for the test on every change); give one")}
	}
	if j.only, err = parseOnly(only, flagSet(fs, "only")); err != nil {
		return nil, err
	}
	if err := checkWith(j.with, j.only); err != nil {
		return nil, usageError{fmt.Errorf("flag -with: %w", err)}
	}
	if err := checksLeft(j.only, j.families); err != nil {
		return nil, err
	}
	return j.run, nil
}

// checksLeft refuses -only and -family that leave no check to run: a run
// that checks nothing would print nothing and say every claim holds.
func checksLeft(only []experiment.Claim, families []string) error {
	stated := map[string][]string{}
	for _, k := range experiment.ChecksOf(only) {
		if slices.Contains(families, k.Family.Name) {
			return nil
		}
		stated[k.Claim.ID] = append(stated[k.Claim.ID], k.Family.Name)
	}
	var says []string
	for _, id := range slices.Sorted(maps.Keys(stated)) {
		says = append(says, fmt.Sprintf("%s on %s", id, strings.Join(stated[id], ", ")))
	}
	return usageError{fmt.Errorf("flags -only and -family: no claim is stated for family %s; the claims given are stated as %s", strings.Join(families, ", "), strings.Join(says, "; "))}
}

// parseOnly reads -only: claim ids separated by commas, each once; every
// claim where the flag is not given.
func parseOnly(only string, given bool) ([]experiment.Claim, error) {
	if !given {
		return experiment.Claims, nil
	}
	var out []experiment.Claim
	for _, id := range strings.Split(only, ",") {
		id = strings.TrimSpace(id)
		c, ok := experiment.ClaimNamed(id)
		switch {
		case id == "":
			return nil, usageError{fmt.Errorf("flag -only: an empty id in %s; want claim ids separated by commas, some of %s", quoteArg(only), strings.Join(claimIDs(), ", "))}
		case !ok:
			return nil, usageError{fmt.Errorf("flag -only: no claim %s; want some of %s", quoteArg(id), strings.Join(claimIDs(), ", "))}
		case slices.ContainsFunc(out, func(o experiment.Claim) bool { return o.ID == id }):
			return nil, usageError{fmt.Errorf("flag -only: %s is named twice; name each claim once", id)}
		}
		out = append(out, c)
	}
	return out, nil
}

// checkWith checks -with against every claim it would change: each row
// the engine reads, once, in its range, and read by the lab of each
// claim's state (experiment.Reader: the compare lab's runs take their
// models from its models row, not model=). A row a claim does not read
// would change nothing there, and the verdict would say nothing of it.
//
// The rule holds for the claim's own rows too, and so does the rule of
// rows in conflict (experiment.Conflicts): a row -with changes can
// leave a row the claim's state sets unread (data=cora under q-high, whose
// state sets per-class and q, which cora does not read), and the claim
// would then check a state other than the one it states.
func checkWith(query string, claims []experiment.Claim) error {
	if _, err := withRows(experiment.Default(), query); err != nil {
		return err
	}
	with := withNames(query)
	for _, k := range experiment.ChecksOf(claims) {
		c := k.Claim
		before := k.State(1)
		e, _ := withRows(before, query)
		if cs := e.Conflicts(); len(cs) > 0 {
			// The rows rule's conflicts, on the claim's own rows too
			// (epochs=30 under the XOR lab's 40 epochs of each restart).
			return fmt.Errorf("claim %s's state with %s: %w", c.ID, shorten(query), cs[0].Err)
		}
		r := claimReader(e)
		for _, u := range r.Unread(e, func(name string) bool { return slices.Contains(with, name) }) {
			return fmt.Errorf("%s: claim %s reads the %s lab's runs, and %s; leave it out, or check with -only the claims that read it", u.Row, c.ID, e.View.Lab, u.Why)
		}
		own := claimRows(before, with)
		wasRead := map[string]bool{}
		for _, row := range own {
			wasRead[row] = true
		}
		for _, u := range claimReader(before).Unread(before, func(name string) bool { return slices.Contains(own, name) }) {
			wasRead[u.Row] = false
		}
		lost := claimReader(e).Unread(e, func(name string) bool { return wasRead[name] })
		if len(lost) > 0 {
			var rows []string
			for _, u := range lost {
				rows = append(rows, u.Row)
			}
			return fmt.Errorf("%s: claim %s's own state sets %s, which its state with %s does not read (%s: %s); leave it out for this claim, or check with -only the claims it suits",
				shorten(query), c.ID, andList(rows), shorten(query), lost[0].Row, lost[0].Why)
		}
	}
	return nil
}

// claimReader is the reader of a claim's state e, as pdn claims reads it:
// its lab's, as a command (asCommand), with seed s of the claim's rate as
// the data and weight seed.
func claimReader(e experiment.Experiment) experiment.Reader {
	r := asCommand(experiment.ReaderOf(e))
	r.Sets = maps.Clone(r.Sets)
	if r.Sets == nil {
		r.Sets = map[string]phrase.Text{}
	}
	for _, row := range []string{"seed", "init-seed"} { // experiment.Claim.State
		r.Sets[row] = phrase.New("seed s of the claim's rate trains with data and weight seed s")
	}
	return r
}

// claimRows are the engine's rows a claim's state e sets (where it differs
// from the table's defaults), but those -with names and the seeds.
func claimRows(e experiment.Experiment, with []string) []string {
	base := experiment.Default()
	var out []string
	for _, p := range experiment.Params {
		if p.Group != experiment.GroupView && p.Name != "seed" && p.Name != "init-seed" && !slices.Contains(with, p.Name) && p.Get(&e) != p.Get(&base) {
			out = append(out, p.Name)
		}
	}
	return out
}

// andList joins names as a sentence does: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// parseFamilies reads -family: family names separated by commas, each
// once; every family where the flag is not given.
func parseFamilies(list string, given bool) ([]string, error) {
	if !given {
		return experiment.FamilyNames(), nil
	}
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		_, ok := experiment.FamilyNamed(name)
		switch {
		case !ok:
			return nil, usageError{fmt.Errorf("flag -family: no family %s; want some of %s, separated by commas", quoteArg(name), strings.Join(experiment.FamilyNames(), ", "))}
		case slices.Contains(out, name):
			return nil, usageError{fmt.Errorf("flag -family: %s is named twice; name each family once", name)}
		}
		out = append(out, name)
	}
	return out, nil
}

// addFolder reads -folder: NAME=DIR, NAME a family read from a folder.
// The folder is read when a check needs it, and one that is not the
// family's kind of graph is refused then, naming it.
func addFolder(folders map[string]string, kv string) error {
	name, dir, ok := strings.Cut(kv, "=")
	f, known := experiment.FamilyNamed(name)
	switch {
	case !ok || dir == "":
		return fmt.Errorf("%s is not NAME=DIR; want %s", quoteArg(kv), folderFamilies())
	case !known || f.Folder == "":
		return fmt.Errorf("%s is not a family read from a folder; want %s", quoteArg(name), folderFamilies())
	}
	folders[name] = dir
	return nil
}

// folderFamilies names the families read from a folder, and what each
// folder holds.
func folderFamilies() string {
	var out []string
	for _, f := range experiment.Families {
		if f.Folder != "" {
			out = append(out, f.Name+": "+f.Folder)
		}
	}
	return strings.Join(out, "; ")
}

// withNames are the rows -with names.
func withNames(query string) []string {
	var out []string
	for _, kv := range strings.Split(query, "&") {
		if k, _, _ := strings.Cut(kv, "="); kv != "" {
			if p, ok := experiment.LinkRow(k); ok {
				k = p.Name // graph= is data=, as a link reads it
			}
			out = append(out, k)
		}
	}
	return out
}

func claimIDs() []string {
	var out []string
	for _, c := range experiment.Claims {
		out = append(out, c.ID)
	}
	return out
}

// withRows sets the rows of query (name=value&…, escaped as a link's) in
// e: rows the engine reads, each once (the last of two would win without a
// word), each value the state table takes. It is the command line's strict
// reading of a link's rows: pdn claims' -with, and the state a shard file
// holds.
func withRows(e experiment.Experiment, query string) (experiment.Experiment, error) {
	var seen []string
	for _, kv := range strings.Split(query, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		k, errK := url.PathUnescape(k)
		v, errV := url.PathUnescape(v)
		if errK != nil || errV != nil {
			return e, fmt.Errorf("%s is not a row as a link writes it (a %% must start an escape like %%2C)", quoteArg(kv))
		}
		p, ok := experiment.LinkRow(k)
		switch {
		case !ok || p.Group == experiment.GroupView:
			return e, fmt.Errorf("%s is not a row the engine reads", quoteArg(k))
		case slices.Contains(seen, p.Name):
			return e, fmt.Errorf("%s: given twice; give each row once", p.Name)
		}
		seen = append(seen, p.Name)
		if err := p.Set(&e, v); err != nil {
			return e, err // it names the row, the value and the range
		}
	}
	return e, nil
}

// claimResult is one claim's outcome on one family over its seeds.
type claimResult struct {
	ID      string `json:"id"`
	Text    string `json:"text"`
	Paper   string `json:"paper"`
	Differs string `json:"differs,omitempty"`
	// Family is the family of graphs checked, Stated "holds" where the
	// page states the finding there, "differs" where it states instead
	// FamilyDiffers; a seed's "holds" is then whether the finding held.
	Family        string `json:"family"`
	FamilyLabel   string `json:"family_label"`
	Stated        string `json:"stated"`
	FamilyDiffers string `json:"family_differs,omitempty"`
	Link          string `json:"link"`
	Rate          string `json:"rate"`
	Seeds         int    `json:"seeds"`
	Held          int    `json:"held"`
	// AsStated counts the seeds that agree with what the page states on
	// the family; Holds is whether they are within the rate.
	AsStated int  `json:"as_stated"`
	Holds    bool `json:"holds"`
	// NotRun says why the check was not run (its family's folder was not
	// given); it neither holds nor fails.
	NotRun string `json:"not_run,omitempty"`
	// Partial says -seeds cut the seeds the claim's rate reads: "holds"
	// then means no more misses so far than the rate allows.
	Partial bool         `json:"partial,omitempty"`
	PerSeed []seedResult `json:"per_seed"`
}

type seedResult struct {
	Seed    int    `json:"seed"`
	Holds   bool   `json:"holds"`
	Numbers string `json:"numbers"`
}

func (j claimsJob) run(stdout, stderr io.Writer) error {
	tr := newRunCache(j.folders)
	var results []claimResult
	var failed []string
	for _, k := range experiment.ChecksOf(j.only) {
		if !slices.Contains(j.families, k.Family.Name) {
			continue
		}
		res, err := j.check(k, tr, stderr)
		if err != nil {
			return err
		}
		if !res.Holds && res.NotRun == "" {
			failed = append(failed, res.ID+" on "+res.Family)
		}
		results = append(results, res)
		printClaim(stdout, res)
	}
	if j.asJSON {
		b, err := json.Marshal(map[string]any{"claims": results, "all_hold": len(failed) == 0, "with": j.with})
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(b))
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d checks do not hold at their rate: %s", len(failed), len(results), strings.Join(failed, ", "))
	}
	return nil
}

// check trains the runs of one claim on one family over its seeds and
// judges each seed as the page states the claim there.
func (j claimsJob) check(k experiment.Checked, tr *runCache, stderr io.Writer) (claimResult, error) {
	c := k.Claim
	n := k.Seeds
	if j.test && k.TestSeeds > 0 {
		n = k.TestSeeds
	}
	all := n
	if j.seeds > 0 {
		n = min(n, j.seeds)
	}
	stated := "holds"
	if !k.Stated() {
		stated = "differs"
	}
	res := claimResult{ID: c.ID, Text: c.Text, Paper: c.Paper, Differs: c.Differs,
		Family: k.Family.Name, FamilyLabel: k.Family.Label, Stated: stated, FamilyDiffers: k.Differs,
		Link: k.State(1).EncodeShort(), Rate: k.Rate().String(), Seeds: n, Partial: n < all}
	if k.Family.Folder != "" && j.folders[k.Family.Name] == "" {
		res.NotRun = fmt.Sprintf("give -folder %s=DIR, %s", k.Family.Name, k.Family.Folder)
		return res, nil
	}
	states := make([]experiment.Experiment, n)
	for s := range n {
		e, err := withRows(k.State(uint64(s+1)), j.with)
		if err != nil {
			return res, usageError{err}
		}
		states[s] = e
	}
	figs, err := tr.figures(k.Family.Name, states, stderr)
	if err != nil {
		return res, err
	}
	for s, f := range figs {
		v := c.Judge(f)
		res.PerSeed = append(res.PerSeed, seedResult{Seed: s + 1, Holds: v.Holds, Numbers: v.Numbers.String()})
		if v.Holds {
			res.Held++
		}
		if k.AsStated(v) {
			res.AsStated++
		}
	}
	res.Holds = k.Allows(res.AsStated, n)
	return res, nil
}

// printClaim prints one line per claim and family: whether what the page
// states there holds at its rate, how often the finding held, ours at the
// first seed and the paper's figure (every seed's numbers are in -json).
func printClaim(w io.Writer, r claimResult) {
	if r.NotRun != "" {
		fmt.Fprintf(w, "%-22s %-12s not run: %s\n", r.ID, r.Family, r.NotRun)
		return
	}
	mark := "holds"
	if r.Stated == "differs" {
		mark = "differs"
	}
	switch {
	case !r.Holds:
		mark = "DOES NOT HOLD"
		if r.Stated == "differs" {
			mark = "DOES NOT DIFFER" // the page says it fails here, and it held
		}
	case r.Partial:
		mark += " so far" // -seeds cut the seeds its rate reads
	}
	first := ""
	if len(r.PerSeed) > 0 {
		first = r.PerSeed[0].Numbers
	}
	want := r.Rate
	if r.Stated == "differs" {
		want = "to fail " + want
	}
	fmt.Fprintf(w, "%-22s %-12s %-15s held in %d of %d seeds (wanted %s) · ours, seed 1: %s · paper: %s\n", r.ID, r.Family, mark, r.Held, r.Seeds, want, first, r.Paper)
}

// runCache trains each distinct run once, however many claims read it:
// the XOR lab's runs serve three claims.
type runCache struct {
	mu      sync.Mutex
	folders map[string]string // a Folder family's folder, by the family's name
	graphs  map[string]*datasets.Graph
	runs    map[string]experiment.Figures
}

func newRunCache(folders map[string]string) *runCache {
	return &runCache{folders: folders, graphs: map[string]*datasets.Graph{}, runs: map[string]experiment.Figures{}}
}

// figures trains the runs of each state (two at a time) and returns their
// figures by run name, a map per state.
func (rc *runCache) figures(family string, states []experiment.Experiment, stderr io.Writer) ([]map[string]experiment.Figures, error) {
	out := make([]map[string]experiment.Figures, len(states))
	type job struct {
		state int
		run   experiment.Run
	}
	var jobs []job
	for i, e := range states {
		out[i] = map[string]experiment.Figures{}
		for _, r := range experiment.RunsOf(e) {
			jobs = append(jobs, job{i, r})
		}
	}
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for k, jb := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			f, err := rc.train(family, jb.run.Exp)
			if err != nil {
				errs[k] = fmt.Errorf("run %s of %s: %w", jb.run.Name, states[jb.state].EncodeShort(), err)
				return
			}
			rc.mu.Lock()
			out[jb.state][jb.run.Name] = f
			rc.mu.Unlock()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(stderr, "trained %d runs\n", len(jobs))
	return out, nil
}

// train trains e, a run on a graph of family, to its end, once.
func (rc *runCache) train(family string, e experiment.Experiment) (experiment.Figures, error) {
	key := family + " " + e.EncodeRun()
	rc.mu.Lock()
	f, ok := rc.runs[key]
	rc.mu.Unlock()
	if ok {
		return f, nil
	}
	g, err := rc.graph(family, e.Data)
	if err != nil {
		return f, err
	}
	t, err := lessons.TrainAll(g, e)
	if err != nil {
		return f, err
	}
	f = lessons.FiguresOf(g, t)
	rc.mu.Lock()
	rc.runs[key] = f
	rc.mu.Unlock()
	return f, nil
}

// graph is the graph of d, a graph of family: drawn or shipped, or read
// from the family's folder where d is one's own files.
func (rc *runCache) graph(family string, d experiment.Data) (*datasets.Graph, error) {
	key := family + " " + experiment.Experiment{Data: d}.EncodeRun()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if g, ok := rc.graphs[key]; ok {
		return g, nil
	}
	var g *datasets.Graph
	var err error
	if d.Graph == experiment.GraphLocal {
		g, err = rc.folderGraph(family, d)
	} else {
		g, err = datasets.Build(d)
	}
	if err != nil {
		return nil, err
	}
	rc.graphs[key] = g
	return g, nil
}

// folderGraph reads the graph of d from family's folder, as pdn train
// -data DIR reads it (the folder's split, or one drawn with d's seed where
// it has none), and refuses a folder whose features call for another
// recipe than the family's: its runs would not be the family's.
func (rc *runCache) folderGraph(family string, d experiment.Data) (*datasets.Graph, error) {
	f, _ := experiment.FamilyNamed(family)
	dir := rc.folders[family]
	base, err := readGraph(dir, d, false, nil)
	if err != nil {
		return nil, err
	}
	if got := base.Recipe(); got != f.Recipe {
		return nil, usageError{fmt.Errorf("flag -folder: %s's features call for the %s recipe; the %s family's graph (%s) calls for %s", quotePath(dir), got, family, f.Folder, f.Recipe)}
	}
	g, err := datasets.Make(d, datasets.Given(base))
	if err != nil {
		return nil, usageError{err}
	}
	return g, nil
}

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/outdir"
)

// A shard is part i of n of a sweep's or table4's runs: the runs whose
// place in the whole job's order is i−1 modulo n. Every run keeps the
// seeds it has in the whole job, so the shards' results are the whole
// job's, bit for bit, and round robin spreads each model's runs (whose
// costs differ tenfold) evenly over the shards. The zero shard is the
// whole job.
type shard struct{ i, n int }

// maxShards bounds -shard's n: more shards than a cluster has nodes.
const maxShards = 100000

func (s shard) whole() bool { return s.n == 0 }

// holds reports whether the run at place k of the whole job is this shard's.
func (s shard) holds(k int) bool { return s.whole() || k%s.n == s.i-1 }

func (s shard) String() string {
	if s.whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.i, s.n)
}

// Set reads -shard i/n, 1 ≤ i ≤ n.
func (s *shard) Set(v string) error {
	a, b, ok := strings.Cut(v, "/")
	i, errI := numtext.ParseInt(strings.TrimSpace(a))
	n, errN := numtext.ParseInt(strings.TrimSpace(b))
	if !ok || errI != nil || errN != nil || n < 1 || n > maxShards || i < 1 || i > n {
		return fmt.Errorf("want i/n, the i-th of n parts, 1 ≤ i ≤ n ≤ %d (as 2/8)", maxShards)
	}
	*s = shard{i, n}
	return nil
}

// shardFlag registers -shard on fs.
func shardFlag(fs *flag.FlagSet, s *shard) {
	fs.Var(s, "shard", "run only part i of n of the runs (i/n, 1-based), the same runs with the same seeds as in the whole job, "+
		"into a shard file in -out; pdn merge joins the n parts into the files one machine writes")
}

// shardFile is what one shard writes: the job it is a part of, its part,
// and the accuracy of each of its runs by the run's place in the job's
// order (null for a run with no result: diverged, or no edges to train on).
type shardFile struct {
	Command string          `json:"command"` // sweep or table4
	Job     json.RawMessage `json:"job"`
	Shard   [2]int          `json:"shard"` // i, n
	Seconds float64         `json:"seconds"`
	Runs    []shardRun      `json:"runs"`
}

type shardRun struct {
	At  int          `json:"at"`
	Acc *numtext.Num `json:"acc"` // JSON has no NaN; -0 is read as 0, as every number
	// PyG is the run's PyG peer (table4 -pyg), on the runs of a model
	// with one: a shard carries the PyG column as it carries ours.
	PyG *shardPyG `json:"pyg,omitempty"`
}

// shardPyG is a run's PyG figure in a shard file: its accuracy (null
// where none), or why the run failed or was not made.
type shardPyG struct {
	Acc    *numtext.Num `json:"acc"`
	Failed string       `json:"failed,omitempty"`
	Costly string       `json:"costly,omitempty"`
}

// shardName is the file a shard of the job whose JSON is job writes:
// scenario4-1a2b3c4d.shard-2-of-8.json, named by the job's digest too, so
// that shards of two jobs in one folder (another -reps, another graph)
// never overwrite each other.
func shardName(stem string, job []byte, s shard) string {
	return fmt.Sprintf("%s-%s.shard-%d-of-%d.json", stem, jobDigest(job)[:8], s.i, s.n)
}

// jobDigest is the digest of a job's JSON as canonical JSON: the same job
// reformatted (pretty-printed, its keys in another order) is the same.
func jobDigest(job []byte) string {
	sum := sha256.Sum256(canonicalJSON(job))
	return hex.EncodeToString(sum[:])
}

// canonicalJSON is JSON text with its objects' keys sorted and no spaces,
// as encoding/json writes a map; the text itself if it is not JSON.
func canonicalJSON(b []byte) []byte {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return b
	}
	out, _ := json.Marshal(v)
	return out
}

// shardPart is the part of the writer shard s of the job writes: its
// file's name without .json, so that the shards of one job, written into
// one folder at once, lock only their own file.
func shardPart(stem string, job any, s shard) string {
	jb, _ := json.Marshal(job)
	return strings.TrimSuffix(shardName(stem, jb, s), ".json")
}

// shardNameRE matches the files shardName makes.
var shardNameRE = regexp.MustCompile(`\.shard-[0-9]+-of-[0-9]+\.json$`)

// writeShard writes a shard's runs (acc by place, NaN where none; pyg
// their PyG figures by place, nil without -pyg) as stem's shard file in
// out, and says so.
func writeShard(w *outdir.Run, stem, command string, job any, s shard, seconds float64, acc map[int]float64, pyg map[int]*shardPyG, stdout io.Writer) error {
	jb, err := json.Marshal(job)
	if err != nil {
		return err
	}
	f := shardFile{Command: command, Job: jb, Shard: [2]int{s.i, s.n}, Seconds: seconds}
	for _, at := range slices.Sorted(maps.Keys(acc)) {
		r := shardRun{At: at, Acc: numOrNull(acc[at]), PyG: pyg[at]}
		f.Runs = append(f.Runs, r)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	name := shardName(stem, jb, s)
	if err := w.WriteFile(strings.TrimSuffix(name, ".json"), name, append(b, '\n'), 0o644); err != nil {
		return err
	}
	path := w.Path(name)
	fmt.Fprintf(stdout, "%s, shard %s: %d runs in %.1f s, written to %s; pdn merge joins the %d shards\n", stem, s, len(f.Runs), seconds, path, s.n)
	return nil
}

// numOrNull is x as a shard file holds it: null for NaN, which JSON lacks.
func numOrNull(x float64) *numtext.Num {
	if math.IsNaN(x) {
		return nil
	}
	return (*numtext.Num)(&x)
}

// shardJob is the shards of one job, read back.
type shardJob struct {
	command string
	job     json.RawMessage
	n       int
	files   map[int]string // shard i's file
	seconds float64
	acc     map[int]float64   // by place; NaN where a run had no result
	pyg     map[int]*shardPyG // by place: the PyG figures of a table4 -pyg job
	sweep   experiment.Sweep
	table4  table4Job
	size    int // the job's runs
	// unread are the files beside the shards that look like shards but
	// were not read, each with why: named where shards are missing.
	unread []string
}

// readShards reads every shard file in dirs (or named directly), each
// checked as pdn writes it (readShard), and groups them by job, in the
// order first found. It refuses a job whose shards disagree on n, a shard
// given twice and a run given by two shards.
func readShards(dirs []string) ([]*shardJob, error) {
	var jobs []*shardJob
	paths, unread, err := shardPaths(dirs)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, j := range jobs {
			j.unread = unread
		}
	}()
	for _, path := range paths {
		f, err := readShard(path)
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(jobs, func(j *shardJob) bool { return j.command == f.command && string(j.job) == string(f.job) })
		if i < 0 {
			jobs = append(jobs, &shardJob{command: f.command, job: f.job, n: f.n, files: map[int]string{}, acc: map[int]float64{}, pyg: map[int]*shardPyG{}, sweep: f.sweep, table4: f.table4, size: f.size})
			i = len(jobs) - 1
		}
		if err := jobs[i].add(f); err != nil {
			return nil, err
		}
	}
	if len(jobs) == 0 {
		return nil, usageError{fmt.Errorf("no shard files (*.shard-I-of-N.json) in %s%s", strings.Join(quoteArgs(dirs), ", "), zipsIn(dirs))}
	}
	return jobs, nil
}

// zipsIn says which of dirs hold zip archives, where no shard file was
// found: shards zipped to be carried off a cluster, to unzip first.
func zipsIn(dirs []string) string {
	var zips []string
	for _, d := range dirs {
		fsys, err := input.Folder(d)
		if err != nil {
			continue
		}
		entries, _ := input.Entries(fsys, ".")
		for _, e := range entries {
			if !e.Dir && strings.EqualFold(filepath.Ext(e.Name), ".zip") {
				zips = append(zips, quotePath(filepath.Join(d, e.Name)))
			}
		}
	}
	if len(zips) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s is a zip archive: pdn merge reads folders of shard files; unzip it, and give the folder)", strings.Join(zips, ", "))
}

// maxShardBytes bounds a shard file: a job of millions of runs.
const maxShardBytes = 1 << 30

// shardPaths is every shard file in dirs, and each path that is a file.
// What each path is, is known before it is read (input.Path): a pipe, a
// device or a loop of links, given or in a folder, is refused by name.
func shardPaths(dirs []string) (paths, unread []string, err error) {
	for _, d := range dirs {
		info, err := input.Path(d)
		if err != nil {
			return nil, nil, usageError{err}
		}
		if !info.IsDir() {
			paths = append(paths, d)
			continue
		}
		fsys, err := input.Folder(d)
		if err != nil {
			return nil, nil, usageError{err}
		}
		entries, _ := input.Entries(fsys, ".")
		for _, e := range entries {
			switch why := notAShard(e.Name); {
			case e.Dir:
			case shardNameRE.MatchString(e.Name):
				paths = append(paths, filepath.Join(d, e.Name))
			case why != "":
				unread = append(unread, fmt.Sprintf("%s (not read: %s)", quotePath(filepath.Join(d, e.Name)), why))
			}
		}
	}
	return paths, unread, nil
}

// shardLike is a file's name that says it holds a shard, but not as
// merge reads one: compressed, or its .json ending changed.
var shardLike = regexp.MustCompile(`\.shard-[0-9]+-of-[0-9]+(\.json)?(\.[A-Za-z0-9]+)*$`)

// notAShard says why a file that looks like a shard is not read as one
// ("" where it does not look like one): merge reads the .json files pdn
// writes, and a compressed one is to be unpacked first.
func notAShard(name string) string {
	if !shardLike.MatchString(name) || shardNameRE.MatchString(name) {
		return ""
	}
	ext := strings.ToLower(filepath.Ext(name))
	if c, ok := compressedKinds[ext]; ok {
		return fmt.Sprintf("it is compressed (%s): unpack it (%s) and merge again", c[0], c[1])
	}
	return "merge reads shard files named *.shard-I-of-N.json, as pdn writes them; give it that name"
}

// compressedKinds are the endings of compressed files: the format, and
// the tool that unpacks it.
var compressedKinds = map[string][2]string{".gz": {"gzip", "gunzip"}, ".bz2": {"bzip2", "bunzip2"}, ".xz": {"xz", "unxz"},
	".zst": {"zstd", "unzstd"}, ".zip": {"zip", "unzip"}, ".lz4": {"lz4", "unlz4"}, ".7z": {"7z", "7z x"}}

// add takes one shard file's runs into the job.
func (j *shardJob) add(f *shardRead) error {
	switch {
	case f.n != j.n:
		return usageError{fmt.Errorf("%s: shard %d/%d of a job split in %d", f.path, f.i, f.n, j.n)}
	case j.files[f.i] != "":
		return usageError{fmt.Errorf("%s: shard %d/%d again (it is also %s)", f.path, f.i, f.n, j.files[f.i])}
	}
	j.files[f.i] = f.path
	j.seconds += f.seconds
	for at, acc := range f.acc {
		if _, twice := j.acc[at]; twice {
			return usageError{fmt.Errorf("%s: run %d is given by another shard too", f.path, at)}
		}
		j.acc[at] = acc
	}
	maps.Copy(j.pyg, f.pyg)
	return nil
}

// complete checks the job has all n shards and all its runs; others are
// the other jobs found beside it, named where they hold a missing shard.
func (j *shardJob) complete(others []*shardJob) error {
	what, size := "table4", j.size
	if j.command == "sweep" {
		what = fmt.Sprintf("scenario %d", j.sweep.Scenario.Number)
	}
	var missing []string
	for i := 1; i <= j.n; i++ {
		if j.files[i] == "" {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		unread := ""
		if len(j.unread) > 0 {
			unread = "; beside them: " + strings.Join(j.unread, ", ")
		}
		return usageError{fmt.Errorf("%s: shards %s of %d are missing%s%s", what, strings.Join(missing, ", "), j.n, j.elsewhere(missing, others), unread)}
	}
	if len(j.acc) != size {
		return usageError{fmt.Errorf("%s: the shards hold %d runs, the job has %d", what, len(j.acc), size)}
	}
	return nil
}

// elsewhere says which of the missing shards are there as another job's,
// and how that job differs: shards of a -reps 1 job beside a -reps 2 one.
func (j *shardJob) elsewhere(missing []string, others []*shardJob) string {
	var out []string
	for _, o := range others {
		if o == j || o.command != j.command || o.n != j.n {
			continue
		}
		for _, m := range missing {
			i, _ := numtext.ParseInt(m)
			if f := o.files[i]; f != "" {
				out = append(out, fmt.Sprintf("%s is shard %d, but of another job (%s)", f, i, jobDiff(j.job, o.job)))
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return ": " + strings.Join(out, "; ")
}

// jobDiff names the settings in which two jobs' JSON differ, each with
// both values: "lr 0.02, not 0.01", "graph mydata: other contents …".
// a is the job being merged, b the other.
func jobDiff(a, b []byte) string {
	var x, y map[string]any
	json.Unmarshal(a, &x)
	json.Unmarshal(b, &y)
	var diffs []string
	for _, k := range unionKeys(x, y) {
		xv, yv := x[k], y[k]
		if fmt.Sprint(xv) == fmt.Sprint(yv) {
			continue
		}
		switch k {
		case "state":
			xs, _ := xv.(string)
			ys, _ := yv.(string)
			diffs = append(diffs, stateDiff(xs, ys)...)
		case "digests":
			diffs = append(diffs, digestDiff(x["graphs"], xv, yv)...)
		case "pyg": // how the PyG column was made: the parts that differ
			xm, _ := xv.(map[string]any)
			ym, _ := yv.(map[string]any)
			if xm == nil || ym == nil {
				diffs = append(diffs, fmt.Sprintf("pyg %s, not %s", pygText(ym), pygText(xm)))
				continue
			}
			for _, part := range unionKeys(xm, ym) {
				if fmt.Sprint(xm[part]) != fmt.Sprint(ym[part]) {
					diffs = append(diffs, fmt.Sprintf("pyg's %s %s, not %s", part, short(settingText(ym[part])), short(settingText(xm[part]))))
				}
			}
		case "trained": // by graph, each model's rows: the rows that differ
			xs, ys := strings.Fields(strings.Join(strList(xv), " ")), strings.Fields(strings.Join(strList(yv), " "))
			for i := range min(len(xs), len(ys)) {
				for _, d := range stateDiff(xs[i], ys[i]) {
					if !slices.Contains(diffs, "trained at "+d) {
						diffs = append(diffs, "trained at "+d)
					}
				}
			}
		default:
			diffs = append(diffs, fmt.Sprintf("%s %s, not %s", k, short(settingText(yv)), short(settingText(xv))))
		}
	}
	if len(diffs) == 0 {
		return "the same settings written differently"
	}
	return strings.Join(diffs, "; ")
}

// unionKeys are the keys of x and y, sorted.
func unionKeys(x, y map[string]any) []string {
	keys := slices.Collect(maps.Keys(x))
	for k := range y {
		if _, ok := x[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// stateDiff names the rows in which two states (as a link's query holds
// them) differ: "lr 0.02, not 0.01", "epochs (the default), not 5".
func stateDiff(a, b string) []string {
	x, errX := url.ParseQuery(a)
	y, errY := url.ParseQuery(b)
	if errX != nil || errY != nil {
		return []string{fmt.Sprintf("state %s, not %s", short(b), short(a))}
	}
	value := func(q url.Values, k string) string {
		if v, ok := q[k]; ok {
			return strings.Join(v, ",")
		}
		return "(the default)"
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keysOf(x, y))) {
		if xv, yv := value(x, k), value(y, k); xv != yv {
			out = append(out, fmt.Sprintf("%s %s, not %s", k, short(yv), short(xv)))
		}
	}
	return out
}

func keysOf(qs ...url.Values) map[string]bool {
	keys := map[string]bool{}
	for _, q := range qs {
		for k := range q {
			keys[k] = true
		}
	}
	return keys
}

// digestDiff names the graphs whose contents differ between two jobs of
// the same graph names: two folders of one name, or a folder changed
// between the shards.
func digestDiff(graphs, a, b any) []string {
	names, _ := graphs.([]any)
	xs, _ := a.([]any)
	ys, _ := b.([]any)
	var out []string
	for i := range max(len(xs), len(ys)) {
		var x, y string
		if i < len(xs) {
			x, _ = xs[i].(string)
		}
		if i < len(ys) {
			y, _ = ys[i].(string)
		}
		if x == y {
			continue
		}
		name := fmt.Sprintf("graph %d", i+1)
		if i < len(names) {
			name = fmt.Sprintf("graph %s", experiment.Quote(fmt.Sprint(names[i])))
		}
		out = append(out, fmt.Sprintf("%s holds other contents (digest %s…, not %s…): two graphs of one name, or a folder changed between the shards", name, head(y, 8), head(x, 8)))
	}
	return out
}

func head(s string, n int) string { return s[:min(n, len(s))] }

// pygText says how a PyG column was made, as a job's pyg holds it:
// "none" without -pyg.
func pygText(m map[string]any) string {
	if m == nil {
		return "none (a run without -pyg)"
	}
	return fmt.Sprintf("%s in %s, %s thread(s) a run", settingText(m["versions"]), settingText(m["precision"]), settingText(m["threads"]))
}

// settingText is a setting's JSON value as text: a list as a, b, c.
func settingText(v any) string {
	if l, ok := v.([]any); ok {
		parts := make([]string, len(l))
		for i, e := range l {
			parts[i] = fmt.Sprint(e)
		}
		return strings.Join(parts, ",")
	}
	if v == nil {
		return "(none)"
	}
	return fmt.Sprint(v)
}

// short cuts a setting's text for a message.
func short(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = quotePath(a)
	}
	return out
}

func parseMerge(args []string, stderr io.Writer) (runner, error) {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	out := new(string)
	outFlag(fs, out, "out", "directory for the joined files (required): scenarioK.csv and .svg, table4.csv and .svg", true)
	asJSON := fs.Bool("json", false, "print each job's JSON summary as the last lines of stdout")
	var force bool
	forceFlag(fs, &force, "-out")
	if err := parseWithArgs(fs, args, stderr); err != nil {
		return nil, err
	}
	dirs := fs.Args()
	if len(dirs) == 0 {
		return nil, usageError{errors.New("merge: no shard folders; want pdn merge -out DIR SHARD_DIR…")}
	}
	for _, d := range dirs {
		if _, err := input.Path(d); errors.Is(err, os.ErrNotExist) {
			return nil, usageError{fmt.Errorf("merge: %s: no such shard folder or file; a missing shard would be merged as if it were not part of the run", quotePath(d))}
		} else if err != nil {
			return nil, usageError{fmt.Errorf("merge: %w", err)}
		}
	}
	return func(stdout, stderr io.Writer) error {
		// Every shard file and every job is checked before a file is
		// written or a line printed: a refusal leaves stdout empty.
		jobs, err := readShards(dirs)
		if err != nil {
			return err
		}
		// The job with the most shards is checked first: a missing
		// shard is named from the run most of the files are of, whatever
		// the order the files' names (their jobs' digests) sort in.
		byShards := slices.Clone(jobs)
		slices.SortStableFunc(byShards, func(a, b *shardJob) int { return len(b.files) - len(a.files) })
		for _, j := range byShards {
			if err := j.complete(jobs); err != nil {
				return err
			}
		}
		parts, err := mergeParts(jobs)
		if err != nil {
			return err
		}
		var tables bytes.Buffer
		if err := writeMerged(outSpec{flag: "out", dir: *out, force: force, parts: parts, inputs: inputDirs("", dirs...)}, jobs, *asJSON, &tables, stderr); err != nil {
			return err
		}
		_, err = io.Copy(stdout, &tables)
		return err
	}, nil
}

// writeMerged writes the jobs' joined files, printing their tables to
// tables, and commits them.
func writeMerged(spec outSpec, jobs []*shardJob, asJSON bool, tables io.Writer, stderr io.Writer) (err error) {
	w, err := openOut(spec, stderr)
	if err != nil {
		return err
	}
	defer finishOut(w, &err)
	for _, j := range jobs {
		if j.command == "sweep" {
			err = mergeSweep(w, j, asJSON, tables)
		} else {
			err = mergeTable4(w, j, asJSON, tables)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// mergeParts are the parts of the writer the jobs' joined files make
// (scenarioK, table4), refusing two jobs that would write the same files.
func mergeParts(jobs []*shardJob) ([]string, error) {
	var parts []string
	first := map[string]*shardJob{}
	for _, j := range jobs {
		part := "table4"
		if j.command == "sweep" {
			part = fmt.Sprintf("scenario%d", j.sweep.Scenario.Number)
		}
		o := first[part]
		if o != nil && o.whole() && j.whole() {
			return nil, usageError{fmt.Errorf("merge: %s and %s are shards of two %s jobs (%s), which would both be written as %s.csv: merge each into its own folder, naming its shard files",
				quotePath(o.anyFile()), quotePath(j.anyFile()), j.command, jobDiff(o.job, j.job), part)}
		}
		if o == nil {
			first[part] = j
			parts = append(parts, part)
		}
	}
	return parts, nil
}

// whole reports whether the job has a file for each of its shards; one
// that has not is refused by its merge, naming what is missing.
func (j *shardJob) whole() bool { return len(j.files) == j.n }

// anyFile is one of the job's shard files, the lowest shard's.
func (j *shardJob) anyFile() string {
	for i := 1; i <= j.n; i++ {
		if f := j.files[i]; f != "" {
			return f
		}
	}
	return ""
}

// strList is a JSON array of strings as Unmarshal gives it, nil for any
// other value.
func strList(v any) []string {
	xs, _ := v.([]any)
	var out []string
	for _, x := range xs {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

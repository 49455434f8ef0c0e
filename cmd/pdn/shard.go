package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
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
	At  int      `json:"at"`
	Acc *float64 `json:"acc"` // JSON has no NaN
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

// shardNameRE matches the files shardName makes.
var shardNameRE = regexp.MustCompile(`\.shard-[0-9]+-of-[0-9]+\.json$`)

// writeShard writes a shard's runs (acc by place, NaN where none) as
// stem's shard file in out, and says so.
func writeShard(out, stem, command string, job any, s shard, seconds float64, acc map[int]float64, stdout io.Writer) error {
	jb, err := json.Marshal(job)
	if err != nil {
		return err
	}
	f := shardFile{Command: command, Job: jb, Shard: [2]int{s.i, s.n}, Seconds: seconds}
	for _, at := range slices.Sorted(maps.Keys(acc)) {
		r := shardRun{At: at}
		if x := acc[at]; !math.IsNaN(x) {
			r.Acc = &x
		}
		f.Runs = append(f.Runs, r)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(out, shardName(stem, jb, s))
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s, shard %s: %d runs in %.1f s, written to %s; pdn merge joins the %d shards\n", stem, s, len(f.Runs), seconds, path, s.n)
	return nil
}

// shardJob is the shards of one job, read back.
type shardJob struct {
	command string
	job     json.RawMessage
	n       int
	files   map[int]string // shard i's file
	seconds float64
	acc     map[int]float64 // by place; NaN where a run had no result
}

// readShards reads every shard file in dirs (or named directly) and
// groups them by job, in the order first found. It refuses a file that is
// not a shard file, a job whose shards disagree on n, a shard given twice
// and a run given by two shards.
func readShards(dirs []string) ([]*shardJob, error) {
	var jobs []*shardJob
	paths, err := shardPaths(dirs)
	if err != nil {
		return nil, err
	}
	for _, path := range paths {
		b, err := input.TextOfPath(path, maxShardBytes)
		if err != nil {
			return nil, usageError{err}
		}
		var f shardFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, usageError{fmt.Errorf("%s: not a shard file of pdn sweep or pdn table4: %v", path, err)}
		}
		if f.Command != "sweep" && f.Command != "table4" {
			return nil, usageError{fmt.Errorf("%s: not a shard file of pdn sweep or pdn table4 (its command is %s)", path, experiment.Quote(f.Command))}
		}
		job := canonicalJSON(f.Job)
		i := slices.IndexFunc(jobs, func(j *shardJob) bool { return j.command == f.Command && string(j.job) == string(job) })
		if i < 0 {
			jobs = append(jobs, &shardJob{command: f.Command, job: job, n: f.Shard[1], files: map[int]string{}, acc: map[int]float64{}})
			i = len(jobs) - 1
		}
		if err := jobs[i].add(path, f); err != nil {
			return nil, err
		}
	}
	if len(jobs) == 0 {
		return nil, usageError{fmt.Errorf("no shard files (*.shard-I-of-N.json) in %s", strings.Join(quoteArgs(dirs), ", "))}
	}
	return jobs, nil
}

// maxShardBytes bounds a shard file: a job of millions of runs.
const maxShardBytes = 1 << 30

// shardPaths is every shard file in dirs, and each path that is a file.
// What each path is, is known before it is read (input.Path): a pipe, a
// device or a loop of links, given or in a folder, is refused by name.
func shardPaths(dirs []string) ([]string, error) {
	var paths []string
	for _, d := range dirs {
		info, err := input.Path(d)
		if err != nil {
			return nil, usageError{err}
		}
		if !info.IsDir() {
			paths = append(paths, d)
			continue
		}
		fsys, err := input.Folder(d)
		if err != nil {
			return nil, usageError{err}
		}
		entries, _ := input.Entries(fsys, ".")
		for _, e := range entries {
			if !e.Dir && shardNameRE.MatchString(e.Name) {
				paths = append(paths, filepath.Join(d, e.Name))
			}
		}
	}
	return paths, nil
}

// add takes one shard file's runs into the job.
func (j *shardJob) add(path string, f shardFile) error {
	i, n := f.Shard[0], f.Shard[1]
	switch {
	case n != j.n || i < 1 || i > n:
		return usageError{fmt.Errorf("%s: shard %d/%d of a job split in %d", path, i, n, j.n)}
	case j.files[i] != "":
		return usageError{fmt.Errorf("%s: shard %d/%d again (it is also %s)", path, i, n, j.files[i])}
	}
	j.files[i] = path
	j.seconds += f.Seconds
	for _, r := range f.Runs {
		if _, twice := j.acc[r.At]; twice || r.At%n != i-1 {
			return usageError{fmt.Errorf("%s: run %d is not shard %d/%d's, or given twice", path, r.At, i, n)}
		}
		j.acc[r.At] = math.NaN()
		if r.Acc != nil {
			if a := *r.Acc; !(a >= 0 && a <= 1) {
				return usageError{fmt.Errorf("%s: run %d's accuracy %v is outside [0, 1]: the file was changed after pdn wrote it", path, r.At, a)}
			}
			j.acc[r.At] = *r.Acc
		}
	}
	return nil
}

// complete checks the job has all n shards and size runs; others are the
// other jobs found beside it, named where they hold a missing shard.
func (j *shardJob) complete(what string, size int, others []*shardJob) error {
	var missing []string
	for i := 1; i <= j.n; i++ {
		if j.files[i] == "" {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return usageError{fmt.Errorf("%s: shards %s of %d are missing%s", what, strings.Join(missing, ", "), j.n, j.elsewhere(missing, others))}
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

// jobDiff names the settings in which two jobs' JSON differ: "reps 2, not 1".
func jobDiff(a, b []byte) string {
	var x, y map[string]any
	json.Unmarshal(a, &x)
	json.Unmarshal(b, &y)
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(x)) {
		if fmt.Sprint(x[k]) != fmt.Sprint(y[k]) {
			diffs = append(diffs, fmt.Sprintf("%s %s, not %s", k, short(fmt.Sprint(y[k])), short(fmt.Sprint(x[k]))))
		}
	}
	if len(diffs) == 0 {
		return "the same settings written differently"
	}
	return strings.Join(diffs, "; ")
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
	out := fs.String("out", "", "directory for the joined files (required): scenarioK.csv and .svg, table4.csv and .svg")
	asJSON := fs.Bool("json", false, "print each job's JSON summary as the last lines of stdout")
	if err := parseWithArgs(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := outDir("out", *out); err != nil {
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
		jobs, err := readShards(dirs)
		if err != nil {
			return err
		}
		for _, j := range jobs {
			var err error
			if j.command == "sweep" {
				err = mergeSweep(j, jobs, *out, *asJSON, stdout)
			} else {
				err = mergeTable4(j, jobs, *out, *asJSON, stdout)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}, nil
}

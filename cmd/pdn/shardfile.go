package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/input"
)

// A shard file is read back only as pdn writes it (writeShard): readShard
// is the one place it is checked, every field, before merge reads a value
// of it or prints a line. Its text is UTF-8 (input's one decoder); its JSON
// gives each key once, the keys pdn writes and no other (the fields of
// shardFile, sweepJob, table4Job and shardRun, by their JSON names), each
// of its type; its state is decoded by the state table as pdn claims reads
// -with (withRows: a row once, known, in its range, in decimal); its shard,
// seconds, job and runs are in their ranges; and its name, where it says
// a shard, is the one pdn gives the shard it holds. A file changed by hand
// is refused naming itself, the field, the line and the column: never
// merged, and never blamed on the files beside it.

// shardRead is one shard file, checked.
type shardRead struct {
	path    string
	command string          // sweep or table4
	job     json.RawMessage // canonical: a job's shards hold the same
	i, n    int
	seconds float64
	acc     map[int]float64   // by place; NaN where a run had no result
	pyg     map[int]*shardPyG // by place: a table4 -pyg job's PyG figures
	sweep   experiment.Sweep
	table4  table4Job
	size    int // the runs of the whole job
}

// maxShardSeconds bounds a shard's seconds: thirty years of training, far
// above any run, well below a sum that is no longer finite.
const maxShardSeconds = 1e9

// shardKeys are the keys pdn writes in a shard file, by the object that
// holds them ("job sweep", "job table4", "runs[]" for each run, "job.pyg"
// and "runs[].pyg" for -pyg's): the JSON names of the types it writes.
var shardKeys = map[string][]string{
	"":                   jsonNames(shardFile{}),
	"job sweep":          jsonNames(sweepJob{}),
	"job table4":         jsonNames(table4Job{}),
	"job.pyg":            jsonNames(pygSetting{}),
	"job.out_of_reach[]": jsonNames(table4Refusal{}),
	"runs[]":             jsonNames(shardRun{}),
	"runs[].pyg":         jsonNames(shardPyG{}),
}

// optionalKeys are the keys pdn may leave out (omitempty), by the object
// that holds them: the others are refused when missing.
var optionalKeys = map[string][]string{
	"job table4": omitted(table4Job{}),
	"runs[]":     omitted(shardRun{}),
	"runs[].pyg": omitted(shardPyG{}),
}

// jsonNames are the JSON names of a struct's fields.
func jsonNames(v any) []string {
	t := reflect.TypeOf(v)
	var out []string
	for i := range t.NumField() {
		if !t.Field(i).IsExported() { // pdn's own, never written
			continue
		}
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// omitted are the JSON names of a struct's fields that encoding/json
// leaves out when empty.
func omitted(v any) []string {
	t := reflect.TypeOf(v)
	var out []string
	for i := range t.NumField() {
		if name, opts, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); strings.Contains(opts, "omitempty") {
			out = append(out, name)
		}
	}
	return out
}

// shardFileIn is a shard file as its fields are typed, every job's fields
// in one: a value of the wrong type is found at its line and column.
type shardFileIn struct {
	Command string `json:"command"`
	Job     struct {
		Scenario     int             `json:"scenario"`
		Graphs       []string        `json:"graphs"`
		Digests      []string        `json:"digests"`
		Columns      []string        `json:"columns"`
		Models       []string        `json:"models"`
		Reps         int             `json:"reps"`
		State        string          `json:"state"`
		Validation   int             `json:"validation"`
		RowNormalise bool            `json:"row_normalise"`
		KeptSplit    []string        `json:"kept_split"`
		Trained      []string        `json:"trained"`
		PyG          *pygSetting     `json:"pyg"`
		OutOfReach   []table4Refusal `json:"out_of_reach"`
	} `json:"job"`
	Shard   []int      `json:"shard"`
	Seconds float64    `json:"seconds"`
	Runs    []shardRun `json:"runs"`
}

// readShard reads and checks the shard file at path.
func readShard(path string) (*shardRead, error) {
	raw, err := input.ReadPath(path, maxShardBytes)
	if err != nil {
		return nil, usageError{err}
	}
	if bytes.HasPrefix(raw, []byte("PK\x03\x04")) || bytes.HasPrefix(raw, []byte("PK\x05\x06")) {
		return nil, usageError{fmt.Errorf("%s: is a zip archive; pdn merge reads folders of shard files (or shard files named one by one): unzip it, and give the folder", quotePath(path))}
	}
	t, err := input.NewText(path, bytes.NewReader(raw))
	if err != nil {
		return nil, usageError{err}
	}
	b, err := t.All()
	if err != nil {
		return nil, usageError{err}
	}
	c := shardChecker{path: path, b: b}
	return c.read()
}

// shardChecker checks one shard file's text b.
type shardChecker struct {
	path    string
	b       []byte
	keys    map[string]jsonKey // by field path: job.state, runs[2].acc
	objects map[string]int     // where each object or list begins, by field path
}

// fail is a refusal of the file at byte offset off ("" field for the file
// as a whole), saying what is wrong.
func (c *shardChecker) fail(off int, field, format string, args ...any) error {
	at := input.Shown(c.path)
	if off >= 0 {
		line, col := input.LineCol(c.b, off)
		at = fmt.Sprintf("%s:%d:%d", at, line, col)
	}
	if field != "" {
		at += ": field " + field
	}
	return usageError{fmt.Errorf("%s: %s", at, fmt.Sprintf(format, args...))}
}

// failAt is fail at the key of field, or where its object begins (a run's,
// which has no key), or of the file where it has neither.
func (c *shardChecker) failAt(field, format string, args ...any) error {
	off := -1
	if k, ok := c.keys[field]; ok {
		off = k.Off
	} else if o, ok := c.objects[field]; ok {
		off = o
	}
	return c.fail(off, field, format, args...)
}

// changed ends a refusal of a value pdn never writes.
const changed = "the file was changed after pdn wrote it; merge the shard files as pdn wrote them, or run the shard again"

func (c *shardChecker) read() (*shardRead, error) {
	var whole any
	var se *json.SyntaxError
	if err := json.Unmarshal(c.b, &whole); errors.As(err, &se) {
		return nil, c.typeError(err) // a value of the wrong type is found below, by its field
	}
	keys, objects, twice := input.Keys(c.b)
	if twice != nil {
		line, col := input.LineCol(c.b, twice.First.Off)
		return nil, c.fail(twice.Again.Off, twice.Again.Field(), "given twice in one object (first at %d:%d); a JSON reader keeps one of the two without a word: %s", line, col, changed)
	}
	c.keys, c.objects = map[string]jsonKey{}, objects
	for _, k := range keys {
		c.keys[k.Field()] = k
	}
	var f shardFileIn
	if err := json.Unmarshal(c.b, &f); err != nil {
		return nil, c.typeError(err)
	}
	if f.Command != "sweep" && f.Command != "table4" {
		return nil, usageError{fmt.Errorf("%s: not a shard file of pdn sweep or pdn table4 (its command is %s)", input.Shown(c.path), experiment.Quote(f.Command))}
	}
	if err := c.keysAsWritten(keys, f); err != nil {
		return nil, err
	}
	s := &shardRead{path: c.path, command: f.Command, seconds: f.Seconds, acc: map[int]float64{}}
	if err := c.part(s, f); err != nil {
		return nil, err
	}
	if err := c.job(s, f); err != nil {
		return nil, err
	}
	if err := c.runs(s, f); err != nil {
		return nil, err
	}
	return s, c.name(s)
}

// typeError locates a value of the wrong type (or JSON that is not).
func (c *shardChecker) typeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field, off := c.wrongType(te)
		return c.fail(off, field, "holds %s, want %s: %s", valueWord(te.Value), typeWord(te.Type), changed)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return c.fail(int(se.Offset), "", "not JSON as pdn writes it (%s): %s", se.Error(), changed)
	}
	return c.fail(-1, "", "not a shard file of pdn sweep or pdn table4 (%v)", err)
}

// wrongType finds the key whose value encoding/json refused: its field
// path with its list indices (encoding/json gives runs.acc for
// runs[3].acc) and its offset, the first key of that path, in the file's
// order, whose value is of the kind refused. Where none is found (a
// value in a list, which has no key), encoding/json's own path and
// offset.
func (c *shardChecker) wrongType(te *json.UnmarshalTypeError) (string, int) {
	kind, _, _ := strings.Cut(te.Value, " ")
	var best *jsonKey
	for _, k := range c.keys {
		if indexRE.ReplaceAllString(k.Field(), "") != te.Field || jsonKind(c.b, k.Off) != kind {
			continue
		}
		if best == nil || k.Off < best.Off {
			best = &k
		}
	}
	if best == nil {
		return te.Field, int(te.Offset)
	}
	return best.Field(), best.Off
}

// indexRE is a list index in a field path: runs[3].acc's [3].
var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

// jsonKind is the kind of the value of the key at off in b, as
// encoding/json names it in an UnmarshalTypeError: "string", "number",
// "bool", "array", "object" or "null".
func jsonKind(b []byte, off int) string {
	i := off
	if i < len(b) && b[i] == '"' { // the key itself
		for i++; i < len(b) && b[i] != '"'; i++ {
			if b[i] == '\\' {
				i++
			}
		}
		i++
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r' || b[i] == ':') {
		i++
	}
	if i >= len(b) {
		return ""
	}
	switch b[i] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// valueWord says what a JSON value is, from encoding/json's word for it
// ("string", "number 1.5").
func valueWord(v string) string {
	kind, text, _ := strings.Cut(v, " ")
	switch kind {
	case "string":
		return "text in quotes"
	case "number":
		if text != "" {
			return "the number " + text
		}
		return "a number"
	case "bool":
		return "true or false"
	case "array":
		return "a list"
	case "object":
		return "an object"
	}
	return v
}

// typeWord says what a Go type holds, as a message wants it.
func typeWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number within ±1.8e308 (a float64)"
	case reflect.String:
		return "text in quotes"
	case reflect.Slice, reflect.Array:
		return "a list ([…])"
	case reflect.Pointer:
		return typeWord(t.Elem()) + " or null"
	}
	return "an object ({…})"
}

// keysAsWritten refuses a key pdn does not write and a key it writes that
// is missing.
func (c *shardChecker) keysAsWritten(keys []jsonKey, f shardFileIn) error {
	holder := func(parent string) string {
		switch {
		case parent == "job":
			return "job " + f.Command
		case strings.HasPrefix(parent, "runs[") && strings.HasSuffix(parent, "].pyg"):
			return "runs[].pyg"
		case strings.HasPrefix(parent, "runs["):
			return "runs[]"
		case strings.HasPrefix(parent, "job.out_of_reach["):
			return "job.out_of_reach[]"
		}
		return parent
	}
	for _, k := range keys {
		if want, ok := shardKeys[holder(k.Parent)]; !ok || !slices.Contains(want, k.Name) {
			return c.fail(k.Off, k.Field(), "not a field pdn writes in a %s shard: %s", f.Command, changed)
		}
	}
	need := map[string]string{"": "", "job": "job " + f.Command}
	if f.Job.PyG != nil {
		need["job.pyg"] = "job.pyg"
	}
	for i := range f.Job.OutOfReach {
		need[fmt.Sprintf("job.out_of_reach[%d]", i)] = "job.out_of_reach[]"
	}
	for i, r := range f.Runs {
		need[fmt.Sprintf("runs[%d]", i)] = "runs[]"
		if r.PyG != nil {
			need[fmt.Sprintf("runs[%d].pyg", i)] = "runs[].pyg"
		}
	}
	for _, parent := range slices.Sorted(maps.Keys(need)) {
		for _, name := range shardKeys[need[parent]] {
			field := input.JoinField(parent, name)
			if _, ok := c.keys[field]; !ok && !slices.Contains(optionalKeys[need[parent]], name) {
				return c.failAt(parent, "lacks %s, which pdn writes: %s", experiment.Quote(name), changed)
			}
		}
	}
	return nil
}

// part checks the shard's i/n and seconds.
func (c *shardChecker) part(s *shardRead, f shardFileIn) error {
	if len(f.Shard) != 2 || f.Shard[1] < 1 || f.Shard[1] > maxShards || f.Shard[0] < 1 || f.Shard[0] > f.Shard[1] {
		shown, _ := json.Marshal(f.Shard)
		return c.failAt("shard", "%s is not a shard [i, n] with 1 ≤ i ≤ n ≤ %d: %s", shown, maxShards, changed)
	}
	s.i, s.n = f.Shard[0], f.Shard[1]
	if !(f.Seconds >= 0 && f.Seconds <= maxShardSeconds) {
		return c.failAt("seconds", "%v is outside [0, %.0f], the seconds a shard took: %s", f.Seconds, maxShardSeconds, changed)
	}
	return nil
}

// job checks the job the shard is a part of, as its command writes it.
func (c *shardChecker) job(s *shardRead, f shardFileIn) error {
	j := f.Job
	var raw struct {
		Job json.RawMessage `json:"job"`
	}
	json.Unmarshal(c.b, &raw)
	s.job = canonicalJSON(raw.Job)
	base, err := withRows(experiment.Default(), j.State)
	if err != nil {
		return c.failAt("job.state", "%v: %s", err, changed)
	}
	if _, err := parseModels(strings.Join(j.Models, ",")); err != nil {
		return c.failAt("job.models", "%v: %s", strings.TrimPrefix(err.Error(), "flag -models: "), changed)
	}
	if j.Reps < 1 || j.Reps > 1000 {
		return c.failAt("job.reps", "%d is outside [1, 1000]: %s", j.Reps, changed)
	}
	if s.command == "sweep" {
		sc, err := experiment.PaperScenario(j.Scenario)
		if err != nil {
			return c.failAt("job.scenario", "%v: %s", err, changed)
		}
		s.sweep = experiment.Sweep{Scenario: sc, Models: j.Models, Reps: j.Reps, Base: base}
		s.size = s.sweep.Size()
		return nil
	}
	if err := table4Graphs(j.Graphs, j.Digests); err != nil {
		return c.failAt("job.graphs", "%v: %s", err, changed)
	}
	if j.Validation < 0 || j.Validation > 1000000 {
		return c.failAt("job.validation", "%d is outside [0, 1000000]: %s", j.Validation, changed)
	}
	if err := table4Columns(j.Graphs, j.Columns); err != nil {
		return c.failAt("job.columns", "%v: %s", err, changed)
	}
	if err := pygSettingChecks(j.PyG); err != nil {
		return c.failAt("job.pyg", "%v: %s", err, changed)
	}
	if err := table4OutOfReach(j.Graphs, j.Models, j.OutOfReach); err != nil {
		return c.failAt("job.out_of_reach", "%v: %s", err, changed)
	}
	s.table4 = table4Job{Graphs: j.Graphs, Digests: j.Digests, Columns: j.Columns, Models: j.Models, Reps: j.Reps, State: j.State, Validation: j.Validation, RowNormalise: j.RowNormalise, KeptSplit: j.KeptSplit, Trained: j.Trained, PyG: j.PyG, OutOfReach: j.OutOfReach}
	s.size = s.table4.size()
	return nil
}

// pygSettingChecks checks a table4 shard's PyG setting, nil without -pyg.
func pygSettingChecks(p *pygSetting) error {
	switch {
	case p == nil:
		return nil
	case p.Precision != "float32" && p.Precision != "float64":
		return fmt.Errorf("precision %s is neither float32 nor float64", experiment.Quote(p.Precision))
	case p.Threads < 1 || p.Threads > maxWorkers:
		return fmt.Errorf("threads %d is outside [1, %d]", p.Threads, maxWorkers)
	}
	return plainText("versions", p.Versions, maxNoteBytes)
}

// maxNoteBytes bounds a text a shard file carries to be printed: a PyG
// run's message, the versions a column was made with.
const maxNoteBytes = 4096

// plainText refuses a text to be printed that is empty, longer than max
// bytes or holds a control character (a terminal's escape, a line end):
// pdn writes none.
func plainText(field, v string, max int) error {
	switch {
	case v == "":
		return fmt.Errorf("%s is empty", field)
	case len(v) > max:
		return fmt.Errorf("%s is %d bytes, above the %d pdn writes", field, len(v), max)
	case strings.ContainsFunc(v, unicode.IsControl):
		return fmt.Errorf("%s holds a control character, which pdn never writes", field)
	}
	return nil
}

// table4Columns checks a table4 shard's columns of the paper's Table 4:
// none, or one a graph, each "" or a column the paper has.
func table4Columns(graphs, columns []string) error {
	if columns == nil {
		return nil
	}
	if len(columns) != len(graphs) {
		return fmt.Errorf("%d graphs and %d columns (job.columns), one a graph", len(graphs), len(columns))
	}
	for _, c := range columns {
		if _, ok := datasets.Table4[c]; c != "" && !ok {
			return fmt.Errorf("column %s is not one of the paper's Table 4", experiment.Quote(c))
		}
	}
	return nil
}

// table4OutOfReach checks a table4 shard's cells out of reach: each of a
// graph and a model of the job, once, with a reason of one printable line.
func table4OutOfReach(graphs, models []string, cells []table4Refusal) error {
	seen := map[[2]string]bool{}
	for _, c := range cells {
		switch {
		case !slices.Contains(graphs, c.Graph):
			return fmt.Errorf("graph %s is not one of the job's", experiment.Quote(c.Graph))
		case !slices.Contains(models, c.Model):
			return fmt.Errorf("model %s is not one of the job's", experiment.Quote(c.Model))
		case seen[[2]string{c.Graph, c.Model}]:
			return fmt.Errorf("%s on %s is listed twice", experiment.Quote(c.Model), experiment.Quote(c.Graph))
		case c.Why == "" || len(c.Why) > 1000 || printable(c.Why) != c.Why || strings.ContainsAny(c.Why, "\r\n"):
			return fmt.Errorf("the reason %s on %s is out of reach is not one printable line of at most 1000 bytes", experiment.Quote(c.Model), experiment.Quote(c.Graph))
		}
		seen[[2]string{c.Graph, c.Model}] = true
	}
	return nil
}

// digestRE is a graph's digest as a table4 shard names it: SHA-256 in hex.
var digestRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// table4Graphs checks a table4 shard's graphs: named, each once, each
// with its contents' digest.
func table4Graphs(graphs, digests []string) error {
	if len(graphs) == 0 {
		return errors.New("no graphs")
	}
	for i, g := range graphs {
		if g == "" || slices.Contains(graphs[:i], g) {
			return fmt.Errorf("graph %s is empty or named twice", experiment.Quote(g))
		}
	}
	if len(digests) != len(graphs) {
		return fmt.Errorf("%d graphs and %d digests (job.digests), one a graph", len(graphs), len(digests))
	}
	for _, d := range digests {
		if !digestRE.MatchString(d) {
			return fmt.Errorf("digest %s is not a SHA-256 in hex", experiment.Quote(d))
		}
	}
	return nil
}

// runs checks the shard's runs: each the shard's, within the job, once,
// its accuracy in [0, 1] or null.
func (c *shardChecker) runs(s *shardRead, f shardFileIn) error {
	for k, r := range f.Runs {
		field := fmt.Sprintf("runs[%d]", k)
		switch _, twice := s.acc[r.At]; {
		case r.At < 0 || r.At >= s.size:
			return c.failAt(field+".at", "run %d is not one of the job's %d: %s", r.At, s.size, changed)
		case r.At%s.n != s.i-1:
			return c.failAt(field+".at", "run %d is not shard %d/%d's (its runs are those whose place is %d modulo %d): %s", r.At, s.i, s.n, s.i-1, s.n, changed)
		case twice:
			return c.failAt(field+".at", "run %d is given twice: %s", r.At, changed)
		}
		s.acc[r.At] = math.NaN()
		if r.Acc != nil {
			if a := *r.Acc; !(a >= 0 && a <= 1) {
				return c.failAt(field+".acc", "run %d's accuracy %v is outside [0, 1]: %s", r.At, a, changed)
			}
			s.acc[r.At] = float64(*r.Acc)
		}
		if err := c.runPyG(s, field, r); err != nil {
			return err
		}
	}
	return nil
}

// runPyG checks run r's PyG figure: there on each run of a model with a
// peer in a -pyg job and on no other; an accuracy in [0, 1], or null with
// one reason why (table4 calls the peer after every run of ours, and a PyG
// run without a result fails with its message or is costed out).
func (c *shardChecker) runPyG(s *shardRead, field string, r shardRun) error {
	want := s.command == "table4" && s.table4.PyG != nil && hasPeer(s.table4.Models[r.At%len(s.table4.Models)])
	p := r.PyG
	switch {
	case want && p == nil:
		return c.failAt(field, "lacks %s, which pdn writes on each run of a model with a PyG peer in a -pyg job: %s", experiment.Quote("pyg"), changed)
	case !want && p != nil:
		return c.failAt(field+".pyg", "run %d has no PyG peer in this job: %s", r.At, changed)
	case p == nil:
		return nil
	case p.Acc != nil && !(*p.Acc >= 0 && *p.Acc <= 1):
		return c.failAt(field+".pyg.acc", "run %d's PyG accuracy %v is outside [0, 1]: %s", r.At, float64(*p.Acc), changed)
	case p.Acc != nil && p.Failed+p.Costly != "", p.Failed != "" && p.Costly != "":
		return c.failAt(field+".pyg", "run %d's PyG figure gives both a result and why there is none: %s", r.At, changed)
	case p.Acc == nil && p.Failed+p.Costly == "":
		return c.failAt(field+".pyg", "run %d's PyG figure gives neither a result nor why there is none (pdn writes one of them: \"failed\" or \"costly\"): %s", r.At, changed)
	}
	for name, v := range map[string]string{"failed": p.Failed, "costly": p.Costly} {
		if err := plainText(name, v, maxNoteBytes); v != "" && err != nil {
			return c.failAt(field+".pyg."+name, "%v: %s", err, changed)
		}
	}
	if s.pyg == nil {
		s.pyg = map[int]*shardPyG{}
	}
	s.pyg[r.At] = p
	return nil
}

// shardFileRE is a file's name that says which shard it holds, and
// pdnNameRE one that says, as pdn names it, of which job too.
var (
	shardFileRE = regexp.MustCompile(`\.shard-([0-9]+)-of-([0-9]+)\.json$`)
	pdnNameRE   = regexp.MustCompile(`^(scenario[0-9]+|table4)-[0-9a-f]{8}\.shard-[0-9]+-of-[0-9]+\.json$`)
)

// name checks the file's name agrees with the shard the file holds: the
// shard its name says (b.shard-7-of-9.json), and where the name is pdn's
// whole form, the job too. A file renamed, or edited to hold another
// shard, is not taken by its contents without a word.
func (c *shardChecker) name(s *shardRead) error {
	stem := "table4"
	if s.command == "sweep" {
		stem = fmt.Sprintf("scenario%d", s.sweep.Scenario.Number)
	}
	want := shardName(stem, s.job, shard{s.i, s.n})
	base := filepath.Base(c.path)
	m := shardFileRE.FindStringSubmatch(base)
	switch {
	case base == want || m == nil:
		return nil // pdn's name, or a file named by hand and given by its path
	case m[1] == fmt.Sprint(s.i) && m[2] == fmt.Sprint(s.n) && !pdnNameRE.MatchString(base):
		return nil // renamed, saying its shard still
	}
	return usageError{fmt.Errorf("%s: its name is not the one pdn gives the shard it holds, shard %d/%d of a %s job (%s): a file renamed or changed by hand; give the shard files as pdn wrote them", quotePath(c.path), s.i, s.n, s.command, want)}
}

// jsonKey is one key of an object in a JSON text: the object's field path
// (parent: "" for the top, "job", "runs[2]"), the key, and its byte offset.
// jsonKey is a key of the file's JSON, with its field path.
type jsonKey = input.Key

package outdir

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"pdnexplorer/internal/input"
)

// Options say what a run writes and reads.
type Options struct {
	// Flag names the folder in messages: "out", "export".
	Flag string
	// Command is the run's command line, recorded in its locks and the
	// manifest and named by a second run that finds them taken.
	Command string
	// Parts are what the run writes: each file belongs to one, a part's
	// files replace its earlier ones whole, and the run locks its parts.
	Parts []string
	// Force writes beside files the writer did not write, and over those
	// of the names the run writes.
	Force bool
	// Inputs are what the run reads: the folder must be none of them, and
	// lie in none, and hold none.
	Inputs []Input
	// Exclusive says, when set, what the run's files make of the folder
	// ("a graph bundle"): a thing that is the folder's alone, which a
	// reader opens as the whole folder. Such a run is refused where the
	// folder holds another part's files, and a run of another part is
	// refused where it holds such a run's files (without Force both).
	Exclusive string
	// Stderr hears an interruption; os.Stderr if nil.
	Stderr io.Writer
}

// RefusedError is a folder the run must not write into: the caller's to
// change (another folder, -force). Its message names the flag.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

// A Run writes one run's files into a folder: Create and WriteFile stage
// them, Commit puts them in place together, Abort (or a signal) drops them.
type Run struct {
	dir, meta, flag string
	id              string
	opt             Options
	me              holder
	stage           string // where the run's files wait: meta/runs/ID/new
	locks           []*lock

	mu     sync.Mutex // held by Commit, Abort and the signal's handler
	files  map[string]*staged
	order  []string
	done   bool // committed or aborted
	sigs   chan os.Signal
	stderr io.Writer
}

// staged is one of the run's files.
type staged struct {
	part    string
	sum     string
	size    int64
	modTime int64
	closed  bool
}

var partName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$`)

// Open begins a run that writes into dir (made if need be). It refuses,
// before any work, a dir that is a file, overlaps an input, or holds
// files the writer did not write (without Force); it finishes a commit
// an earlier run left cut short, and fails at once when another run is
// writing one of the same parts, naming it. Until Commit or Abort,
// SIGINT and SIGTERM drop the run's files, say so and end the process.
func Open(dir string, opt Options) (*Run, error) {
	if opt.Flag == "" {
		opt.Flag = "out"
	}
	if err := CheckFolder(opt.Flag, dir); err != nil {
		return nil, err
	}
	if err := checkInputs(opt.Flag, dir, opt.Inputs); err != nil {
		return nil, err
	}
	if len(opt.Parts) == 0 {
		return nil, errors.New("outdir: a run writes at least one part")
	}
	for _, p := range opt.Parts {
		if !partName.MatchString(p) {
			return nil, fmt.Errorf("outdir: part %q: want letters, digits, '.', '_' and '-'", p)
		}
	}
	r := &Run{dir: dir, meta: filepath.Join(dir, Meta), flag: opt.Flag, opt: opt, id: newID(), files: map[string]*staged{}, stderr: opt.Stderr}
	if r.stderr == nil {
		r.stderr = os.Stderr
	}
	host, _ := os.Hostname()
	r.me = holder{PID: os.Getpid(), Host: host, Command: opt.Command, Started: time.Now().UTC().Truncate(time.Second)}
	r.stage = metaPath(r.meta, "runs", r.id, "new")
	r.holdSignals()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.open(); err != nil {
		r.dropLocked()
		return nil, err
	}
	return r, nil
}

// CheckFolder refuses dir as the folder a flag (flagName: "out",
// "export") names to write into, unless it is a folder or nothing is there
// yet: empty text, a file, a named pipe, a device, a socket, a loop of
// links or a link to nothing, each said by what it is (internal/input's
// words for kinds of files). Open checks it first; a command checks it as
// it reads its flags, before any work.
func CheckFolder(flagName, dir string) error {
	if dir == "" {
		return &RefusedError{Msg: fmt.Sprintf("flag -%s: a folder is required", flagName)}
	}
	what, isDir, there := input.What(dir)
	if there && !isDir {
		return &RefusedError{Msg: fmt.Sprintf("flag -%s: %s is %s; want a directory to write into (one that is not there yet is made)", flagName, quote(dir), what)}
	}
	return nil
}

// open does Open's work on the file system, r.mu held.
func (r *Run) open() error {
	if err := os.MkdirAll(metaPath(r.meta, "locks"), 0o755); err != nil {
		return r.cannot(err)
	}
	if err := os.MkdirAll(metaPath(r.meta, "runs"), 0o755); err != nil {
		return r.cannot(err)
	}
	// The run's own lock first: a later Open that finds its folder without
	// it knows the run is dead. It is made and taken under the folder's
	// lock, which recoverRuns holds as it judges runs, so no other run
	// finds the file between its making and its taking and takes it for a
	// dead run's (32 tasks of a SLURM array into one folder did).
	fl, err := lockFolder(r.meta)
	if err != nil {
		return r.cannot(err)
	}
	l, err := tryLockFile(metaPath(r.meta, "runs", r.id+".lock"), r.me)
	fl.release()
	if err != nil {
		return r.cannot(err)
	}
	r.locks = append(r.locks, l)
	for _, p := range r.opt.Parts {
		l, err := tryLockFile(metaPath(r.meta, "locks", p+".lock"), r.me)
		var busy *busyError
		if errors.As(err, &busy) {
			return &RefusedError{Msg: fmt.Sprintf("flag -%s: %s is being written by another run: %s, which writes %s too; wait for it to end, or write to another folder",
				r.flag, quote(r.dir), readHolder(busy.path), describePart(p))}
		}
		if err != nil {
			return r.cannot(err)
		}
		r.locks = append(r.locks, l)
	}
	m, release, err := r.settled()
	if err != nil {
		return err
	}
	defer release()
	if r.opt.Force {
		return nil
	}
	if err := r.exclusive(m); err != nil {
		return err
	}
	others, err := foreign(r.dir, m)
	if err != nil {
		return r.cannot(err)
	}
	if len(others) > 0 {
		return &RefusedError{Msg: r.refusal(others)}
	}
	return nil
}

// exclusive refuses a run whose parts would share the folder with an
// exclusive part's files (Options.Exclusive): the folder holds a graph
// bundle, say, and the run writes figures, or the other way round. A
// part shares the folder with its own earlier files, which it replaces.
func (r *Run) exclusive(m Manifest) error {
	for _, name := range slices.Sorted(maps.Keys(m.Files)) {
		e := m.Files[name]
		if slices.Contains(r.opt.Parts, e.Part) {
			continue
		}
		by := ""
		if run, ok := m.Runs[e.Run]; ok && run.Command != "" {
			by = ", written by " + run.Command
		}
		switch {
		case e.Holds != "":
			return &RefusedError{Msg: fmt.Sprintf("flag -%s: %s holds %s (%s%s), which is the folder's alone: a reader opens the whole folder as it, and files beside it would spoil it; choose another folder (or add -force to write beside it)",
				r.flag, quote(r.dir), e.Holds, quote(name), by)}
		case r.opt.Exclusive != "":
			return &RefusedError{Msg: fmt.Sprintf("flag -%s: %s holds another command's outputs (%s%s), and %s is the folder's alone: a reader opens the whole folder as it; choose another folder (or add -force to write beside them)",
				r.flag, quote(r.dir), quote(name), by, r.opt.Exclusive)}
		}
	}
	return nil
}

// describePart names a part for a message.
func describePart(p string) string { return quote(p) }

// refusal names a few of the files the writer did not write.
func (r *Run) refusal(others []Foreign) string {
	const shown = 3
	var names []string
	for _, f := range others[:min(shown, len(others))] {
		n := quote(f.Name)
		if f.Changed {
			n += " (changed since pdn wrote it)"
		}
		names = append(names, n)
	}
	list := strings.Join(names, ", ")
	if more := len(others) - shown; more > 0 {
		list += fmt.Sprintf(" and %d more", more)
		if len(others) >= maxForeign {
			list += "+"
		}
	}
	them := "them"
	if len(others) == 1 {
		them = "it"
	}
	return fmt.Sprintf("flag -%s: %s holds %s, which pdn did not write: choose a new or empty folder, or add -force to write beside %s (over any of the same names)",
		r.flag, quote(r.dir), list, them)
}

// cannot is a failure of the file system, naming the folder.
func (r *Run) cannot(err error) error {
	return fmt.Errorf("%s: cannot write there: %w", quote(r.dir), err)
}

// Dir is the folder the run writes into.
func (r *Run) Dir() string { return r.dir }

// Path is where the file name will be once the run is committed.
func (r *Run) Path(name string) string { return filepath.Join(r.dir, filepath.FromSlash(name)) }

// Create stages the file name (a path in the folder, with /) of part
// with the permissions perm; it is put in place by Commit. Closing it
// syncs it and takes its SHA-256.
func (r *Run) Create(part, name string, perm fs.FileMode) (io.WriteCloser, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return nil, errors.New("outdir: the run is over")
	}
	if !slices.Contains(r.opt.Parts, part) {
		return nil, fmt.Errorf("outdir: %s is not one of the run's parts %v", part, r.opt.Parts)
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	if _, twice := r.files[name]; twice {
		return nil, fmt.Errorf("outdir: %s is written twice", name)
	}
	p := filepath.Join(r.stage, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, r.cannot(err)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return nil, r.cannot(err)
	}
	s := &staged{part: part}
	r.files[name] = s
	r.order = append(r.order, name)
	return &stagedFile{f: f, h: sha256.New(), s: s, r: r, name: name}, nil
}

// WriteFile stages the file name of part holding data.
func (r *Run) WriteFile(part, name string, data []byte, perm fs.FileMode) error {
	w, err := r.Create(part, name, perm)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return errors.Join(err, w.Close())
}

// Creator is Create for files of one part with permissions 0644, in the
// form the graph writers take (datasets.WriteBundle), under the folder
// prefix ("" or "graph/").
func (r *Run) Creator(part, prefix string) func(name string) (io.WriteCloser, error) {
	return func(name string) (io.WriteCloser, error) { return r.Create(part, prefix+name, 0o644) }
}

// checkName refuses a name that is not a plain path inside the folder.
func checkName(name string) error {
	if name == "" || !fs.ValidPath(name) || name == "." || strings.HasPrefix(name, Meta+"/") || name == Meta || strings.Contains(name, `\`) {
		return fmt.Errorf("outdir: %q is not a file's path inside the folder", name)
	}
	return nil
}

// stagedFile is a file being staged, hashed as it is written.
type stagedFile struct {
	f    *os.File
	h    hash.Hash
	s    *staged
	r    *Run
	name string
	n    int64
}

func (w *stagedFile) Write(b []byte) (int, error) {
	n, err := w.f.Write(b)
	w.h.Write(b[:n])
	w.n += int64(n)
	if err != nil {
		err = fmt.Errorf("%s: %w", w.r.Path(w.name), err)
	}
	return n, err
}

func (w *stagedFile) Close() error {
	err := errors.Join(w.f.Sync(), w.f.Close())
	if err != nil {
		return fmt.Errorf("%s: %w", w.r.Path(w.name), err)
	}
	st, err := os.Stat(w.f.Name())
	if err != nil {
		return err
	}
	w.r.mu.Lock()
	defer w.r.mu.Unlock()
	w.s.sum, w.s.size, w.s.modTime, w.s.closed = hex.EncodeToString(w.h.Sum(nil)), w.n, st.ModTime().UnixNano(), true
	return nil
}

// Commit puts the run's files in place together and records them in the
// manifest: each earlier file of the run's parts is replaced, or removed
// if the run did not write it again. SIGINT and SIGTERM wait until it is
// done; a commit cut short otherwise is finished by the next Open.
func (r *Run) Commit() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return errors.New("outdir: the run is over")
	}
	for _, name := range r.order {
		if !r.files[name].closed {
			return fmt.Errorf("outdir: %s was not closed", name)
		}
	}
	m, release, err := r.settled()
	if err != nil {
		return err
	}
	defer release()
	j := r.plan(m)
	if err := j.write(r.meta, r.id); err != nil {
		return r.cannot(err)
	}
	if err := j.apply(r.dir, r.meta, r.id); err != nil {
		if uerr := j.undo(r.dir, r.meta, r.id); uerr != nil {
			return fmt.Errorf("%s: %w; and undoing it: %v (the next run into the folder finishes it)", quote(r.dir), err, uerr)
		}
		removeJournal(r.meta, r.id)
		return r.cannot(err)
	}
	r.finish(j)
	return nil
}

// plan is the journal of the commit over manifest m: the run's files put
// in place, the earlier files of its parts that it does not write again
// removed, and the manifest that results.
func (r *Run) plan(m Manifest) journal {
	j := journal{Run: r.id, Manifest: m}
	parts := map[string]bool{}
	for _, p := range r.opt.Parts {
		parts[p] = true
	}
	for _, name := range slices.Sorted(mapKeys(m.Files)) {
		if e := m.Files[name]; parts[e.Part] && r.files[name] == nil {
			j.Moves = append(j.Moves, move{Target: name})
			delete(j.Manifest.Files, name)
		}
	}
	for _, name := range r.order {
		s := r.files[name]
		j.Moves = append(j.Moves, move{Target: name, Staged: true})
		j.Manifest.Files[name] = Entry{Part: s.part, Run: r.id, SHA256: s.sum, Size: s.size, ModTime: s.modTime, Holds: r.opt.Exclusive}
	}
	j.Manifest.Runs[r.id] = RunInfo{holder: r.me, Committed: time.Now().UTC().Format(time.RFC3339)}
	return j
}

// finish ends a committed run: its journal, its earlier files, its locks.
func (r *Run) finish(j journal) {
	removeJournal(r.meta, r.id)
	os.RemoveAll(metaPath(r.meta, "runs", r.id))
	r.done = true
	r.releaseLocked()
}

// Abort drops the run's files, if it was not committed, and its locks.
// It reports whether there was anything to drop.
func (r *Run) Abort() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return false
	}
	r.dropLocked()
	return true
}

// dropLocked removes the run's staged files and gives up its locks.
func (r *Run) dropLocked() {
	os.RemoveAll(metaPath(r.meta, "runs", r.id))
	r.done = true
	r.releaseLocked()
}

// releaseLocked gives up the run's locks, its own last, and its signals.
func (r *Run) releaseLocked() {
	for i := len(r.locks) - 1; i >= 0; i-- {
		r.locks[i].release()
	}
	r.locks = nil
	if r.sigs != nil {
		signal.Stop(r.sigs)
		close(r.sigs)
		r.sigs = nil
	}
}

// Untouched says what an interrupted or failed run left: for an error's
// message.
func (r *Run) Untouched() string {
	if m, err := readManifest(r.meta); err == nil && len(m.Files) == 0 {
		return fmt.Sprintf("nothing was written into %s", quote(r.dir))
	}
	return fmt.Sprintf("nothing was written: %s holds the earlier results as they were", quote(r.dir))
}

// holdSignals makes SIGINT and SIGTERM drop the run and end the process,
// once any commit under way is done.
func (r *Run) holdSignals() {
	r.sigs = make(chan os.Signal, 1)
	signal.Notify(r.sigs, os.Interrupt, syscall.SIGTERM)
	go func(sigs chan os.Signal) {
		sig, ok := <-sigs
		if !ok {
			return
		}
		r.mu.Lock() // a commit under way ends first
		msg := "the run's files were put in place before it: " + quote(r.dir) + " holds its results, whole"
		if !r.done {
			r.dropLocked()
			msg = r.Untouched()
		}
		fmt.Fprintf(r.stderr, "pdn: interrupted (%v): %s\n", sig, msg)
		code := 130
		if sig == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}(r.sigs)
}

// newID is a run's id: the time and random bits.
func newID() string {
	var b [4]byte
	rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// quote quotes a path for a message.
func quote(p string) string { return strconv.Quote(input.Abbreviated(p)) }

// parentOf is the folder of a name with /, "" at the top.
func parentOf(name string) string {
	if d := path.Dir(name); d != "." {
		return d
	}
	return ""
}

// settled locks the folder's manifest, finishes or undoes a commit an
// earlier run left cut short, and reads the manifest; release unlocks it.
func (r *Run) settled() (m Manifest, release func(), err error) {
	fl, err := lockFolder(r.meta)
	if err != nil {
		return m, nil, r.cannot(err)
	}
	if err := recoverRuns(r.dir, r.meta); err != nil {
		fl.release()
		return m, nil, err
	}
	if m, err = readManifest(r.meta); err != nil {
		fl.release()
		return m, nil, err
	}
	return m, fl.release, nil
}

// Scratch is a folder for files the run hands to another program and does
// not keep (pdn table4 -pyg's exports, which PyTorch Geometric reads): it
// lies among the run's staged files, so it goes with them whatever ends
// the run (Commit, Abort, a signal), is never put in place, and, as the
// folder itself, is never among the run's inputs. name is a part's name.
func (r *Run) Scratch(name string) (*Tree, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return nil, errors.New("outdir: the run is over")
	}
	if !partName.MatchString(name) {
		return nil, fmt.Errorf("outdir: scratch %q: want letters, digits, '.', '_' and '-'", name)
	}
	t, err := NewTree(metaPath(r.meta, "runs", r.id, "scratch", name))
	if err != nil {
		return nil, r.cannot(err)
	}
	return t, nil
}

package outdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A journal is a commit written down before it starts: the moves that put
// a run's files in place, in order, and the manifest once they are done.
// Each move is a rename, and applying the journal again after any of them
// does the rest, so a commit cut short (SIGKILL, a power cut) is finished
// by the next run into the folder.
type journal struct {
	Run      string   `json:"run"`
	Moves    []move   `json:"moves"`
	Manifest Manifest `json:"manifest"`
}

// move puts one file in place. The file at Target, if any, goes to the
// run's old/ folder first (removed with it once the commit is done); then
// the run's staged file of that name, if Staged, takes its place.
type move struct {
	Target string `json:"target"`
	Staged bool   `json:"staged"`
}

// runPath is a path in run id's folder under meta: new/NAME is a staged
// file, old/NAME one replaced.
func runPath(meta, id string, parts ...string) string {
	return metaPath(meta, append([]string{"runs", id}, parts...)...)
}

func journalPath(meta, id string) string { return runPath(meta, id, "journal.json") }

func (j journal) write(meta, id string) error {
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(runPath(meta, id), 0o755); err != nil {
		return err
	}
	return replaceFile(journalPath(meta, id), b)
}

func removeJournal(meta, id string) {
	os.Remove(journalPath(meta, id))
	syncDir(runPath(meta, id))
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// apply makes the journal's moves that are not made yet, then writes its
// manifest.
func (j journal) apply(dir, meta, id string) error {
	touched := map[string]bool{}
	for _, mv := range j.Moves {
		target := filepath.Join(dir, filepath.FromSlash(mv.Target))
		staged := runPath(meta, id, "new", filepath.FromSlash(mv.Target))
		backup := runPath(meta, id, "old", filepath.FromSlash(mv.Target))
		if mv.Staged && !exists(staged) {
			continue // in place already
		}
		if exists(target) && !exists(backup) {
			if err := os.MkdirAll(filepath.Dir(backup), 0o755); err != nil {
				return err
			}
			if err := os.Rename(target, backup); err != nil {
				return err
			}
		}
		if mv.Staged {
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			if err := os.Rename(staged, target); err != nil {
				return err
			}
		} else {
			removeEmptyParents(dir, mv.Target)
		}
		touched[filepath.Dir(target)] = true
	}
	for d := range touched {
		syncDir(d)
	}
	return writeManifest(meta, j.Manifest)
}

// undo takes back the moves made, in reverse: each new file to the
// staging folder, each earlier file to its place.
func (j journal) undo(dir, meta, id string) error {
	var errs []error
	for i := len(j.Moves) - 1; i >= 0; i-- {
		mv := j.Moves[i]
		target := filepath.Join(dir, filepath.FromSlash(mv.Target))
		staged := runPath(meta, id, "new", filepath.FromSlash(mv.Target))
		backup := runPath(meta, id, "old", filepath.FromSlash(mv.Target))
		if mv.Staged && !exists(staged) && exists(target) {
			errs = append(errs, os.Rename(target, staged))
		}
		if exists(backup) {
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				errs = append(errs, err)
				continue
			}
			errs = append(errs, os.Rename(backup, target))
		}
	}
	return errors.Join(errs...)
}

// removeEmptyParents removes the folders of name that a removed file left
// empty, up to dir.
func removeEmptyParents(dir, name string) {
	for d := parentOf(name); d != ""; d = parentOf(d) {
		if os.Remove(filepath.Join(dir, filepath.FromSlash(d))) != nil {
			return
		}
	}
}

// recoverRuns finishes the commits of runs that died in them and clears
// what dead runs left staged; the folder's lock is held. A run is dead
// when its own lock is free.
func recoverRuns(dir, meta string) error {
	entries, err := os.ReadDir(metaPath(meta, "runs"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	seen := map[string]bool{}
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".lock")
		if seen[id] || strings.HasSuffix(id, ".tmp") || strings.HasSuffix(id, ".held") {
			continue
		}
		seen[id] = true
		l, err := tryLockFile(metaPath(meta, "runs", id+".lock"), holder{})
		if err != nil {
			continue // alive, or not ours to judge
		}
		err = finishDead(dir, meta, id)
		l.release()
		if err != nil {
			return err
		}
	}
	return nil
}

// finishDead rolls a dead run's commit forward, if its journal says it
// began one, and removes what it left.
func finishDead(dir, meta, id string) error {
	b, err := os.ReadFile(journalPath(meta, id))
	if err == nil {
		var j journal
		if err := json.Unmarshal(b, &j); err != nil {
			return fmt.Errorf("%s: a commit cut short, whose journal cannot be read (%v): look at %s by hand", quote(dir), err, quote(journalPath(meta, id)))
		}
		if err := j.apply(dir, meta, id); err != nil {
			return fmt.Errorf("%s: a commit cut short cannot be finished: %w", quote(dir), err)
		}
		removeJournal(meta, id)
	}
	return os.RemoveAll(runPath(meta, id))
}

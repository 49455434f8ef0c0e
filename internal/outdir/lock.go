package outdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// errBusy is a lock another process holds.
var errBusy = errors.New("locked by another process")

// A lock is a held lock file.
type lock struct {
	f      *os.File
	path   string
	remove bool // removed on release: a part's or a run's lock, not the folder's
}

// holder is what a lock file says of the run holding it.
type holder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command string    `json:"command"`
	Started time.Time `json:"started"`
}

func (h holder) String() string {
	if h.PID == 0 {
		return "another run (it is starting)"
	}
	return fmt.Sprintf("%s (pid %d on %s, started %s)", h.Command, h.PID, h.Host, h.Started.Local().Format("2006-01-02 15:04:05"))
}

// lockFolder waits for the folder's own lock, which Open and Commit hold
// for the moment they read and write the manifest.
func lockFolder(meta string) (*lock, error) {
	f, err := os.OpenFile(metaPath(meta, "lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := waitLock(f); err != nil {
		f.Close()
		return nil, err
	}
	return &lock{f: f, path: f.Name()}, nil
}

// tryLockFile takes the lock file at path without waiting and writes who
// holds it into it; a lock another process holds is a *busyError naming
// it. A lock file is removed by its holder on release, so a file taken
// after its holder removed it is taken again at its path.
func tryLockFile(path string, me holder) (*lock, error) {
	for range 20 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := tryLock(f); err != nil {
			f.Close()
			if errors.Is(err, errBusy) {
				return nil, &busyError{path: path}
			}
			return nil, err
		}
		st, err1 := f.Stat()
		at, err2 := os.Stat(path)
		if err1 != nil || err2 != nil || !os.SameFile(st, at) {
			unlockFile(f)
			f.Close() // its holder removed it as we opened it
			continue
		}
		b, _ := json.Marshal(me)
		if err := f.Truncate(0); err == nil {
			f.WriteAt(b, 0)
		}
		return &lock{f: f, path: path, remove: true}, nil
	}
	return nil, fmt.Errorf("%s: cannot be locked: it is taken and removed again and again", path)
}

// readHolder reads a lock file's holder, waiting a moment for one that is
// being written.
func readHolder(path string) holder {
	var h holder
	for range 10 {
		b, err := os.ReadFile(path)
		if err == nil && json.Unmarshal(b, &h) == nil {
			return h
		}
		time.Sleep(10 * time.Millisecond)
	}
	return h
}

// release gives the lock up, removing a part's or a run's lock file
// first, while it is held, so that no one takes a file about to go.
func (l *lock) release() {
	if l == nil || l.f == nil {
		return
	}
	if l.remove {
		os.Remove(l.path)
	}
	unlockFile(l.f)
	l.f.Close()
	l.f = nil
}

// busyError is a lock another run holds: its file names the run.
type busyError struct{ path string }

func (e *busyError) Error() string { return readHolder(e.path).String() }

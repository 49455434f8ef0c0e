//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package outdir

import (
	"os"
	"time"
)

// Without flock, a lock is a second file made with O_EXCL beside f: it is
// not released if the process dies (remove it by hand, as the message
// about a busy folder says).

func tryLock(f *os.File) error {
	g, err := os.OpenFile(f.Name()+".held", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if os.IsExist(err) {
		return errBusy
	}
	if err != nil {
		return err
	}
	return g.Close()
}

func waitLock(f *os.File) error {
	for {
		if err := tryLock(f); err != errBusy {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func unlockFile(f *os.File) { os.Remove(f.Name() + ".held") }

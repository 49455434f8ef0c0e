package input

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"pdnexplorer/i18n/phrase"
)

// What says what is at path p, in the words every message of the explorer
// gives a kind of file ("a named pipe (FIFO)", "a device", "a symbolic link
// that leads back to itself (a loop of links)"), found without opening it;
// there is false where nothing is at p (nor a link to nothing). It is for
// a path the caller will write (an output folder), which Path, a reader's
// way in, would refuse with a reader's advice.
func What(p string) (what phrase.Text, isDir, there bool) {
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return phrase.New("a symbolic link that leads back to itself (a loop of links)"), false, true
	case errors.Is(err, fs.ErrNotExist):
		if li, lerr := os.Lstat(p); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			return phrase.New("a symbolic link to %s, which does not exist", Shown(target)), false, true
		}
		return phrase.Text{}, false, false
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return phrase.New("a path that cannot be looked at (%s)", err.Error()), false, true
	}
	return kindOf(info.Mode()), info.IsDir(), true
}

// kindOf names a file's kind by its mode.
func kindOf(mode fs.FileMode) phrase.Text {
	switch {
	case mode.IsDir():
		return phrase.New("a folder")
	case mode.IsRegular():
		return phrase.New("a file")
	case mode&fs.ModeNamedPipe != 0:
		return phrase.New("a named pipe (FIFO)")
	case mode&fs.ModeSocket != 0:
		return phrase.New("a socket")
	case mode&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return phrase.New("a device")
	}
	return phrase.New("a file of mode %s", mode.Type().String())
}

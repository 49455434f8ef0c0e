package input

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
	"unicode/utf8"

	"pdnexplorer/i18n/phrase"
)

// Path says what path, given on the command line, is: a folder or a
// regular file, symbolic links followed. Anything else (a pipe, a device
// such as /dev/zero or /dev/stdin, a socket, a loop of links, a link to
// nothing) is an *Error naming it and its kind, found without opening it.
// A path that does not exist is an *Error wrapping fs.ErrNotExist.
func Path(p string) (fs.FileInfo, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, statError(p, err, func() (fs.FileInfo, string, error) {
			li, err := os.Lstat(p)
			if err != nil {
				return nil, "", err
			}
			target, _ := os.Readlink(p)
			return li, target, nil
		})
	}
	if err := kindError(p, info, true); err != nil {
		return nil, err
	}
	return info, nil
}

// Folder is the folder at path p, to read as an fs.FS: Path must say it
// is one, and it must be listable.
func Folder(p string) (fs.FS, error) {
	info, err := Path(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, &Error{File: p, Msg: phrase.New("is a file, not a folder")}
	}
	fsys := os.DirFS(p)
	if _, err := fs.ReadDir(fsys, "."); err != nil {
		return nil, openError(p, err)
	}
	return fsys, nil
}

// ReadPath reads the regular file at path p whole, refusing more than
// limit bytes; see Path for what it refuses unread.
func ReadPath(p string, limit int64) ([]byte, error) {
	info, err := Path(p)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, &Error{File: p, Msg: phrase.New("is a folder, not a file")}
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, openError(p, err)
	}
	defer f.Close()
	if err := checkOpened(p, f); err != nil {
		return nil, err
	}
	if info.Size() > limit {
		return nil, tooLarge(p, limit)
	}
	return readLimited(p, f, limit, info.Size())
}

// TextOfPath is the text of the file at path p as UTF-8 (see Text), up
// to limit bytes of it.
func TextOfPath(p string, limit int64) ([]byte, error) {
	b, err := ReadPath(p, limit)
	if err != nil {
		return nil, err
	}
	t, err := NewText(p, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return t.All()
}

// Stat is the entry name of fsys as a file to read: its information if it
// is a regular file (a link followed to one), else an *Error saying what
// it is (see Path), or that its name is not UTF-8 (which fs.FS cannot
// open: rename it). A missing file is an *Error wrapping fs.ErrNotExist.
func Stat(fsys fs.FS, name string) (fs.FileInfo, error) {
	if !utf8.ValidString(name) {
		return nil, &Error{File: name, Msg: phrase.New("its name is not UTF-8 text (it is shown here with its bad bytes escaped): rename it, and open it again")}
	}
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, statError(name, err, func() (fs.FileInfo, string, error) {
			rl, ok := fsys.(fs.ReadLinkFS)
			if !ok {
				return nil, "", fs.ErrNotExist
			}
			li, err := rl.Lstat(name)
			if err != nil {
				return nil, "", err
			}
			target, _ := rl.ReadLink(name)
			return li, target, nil
		})
	}
	if err := kindError(name, info, false); err != nil {
		return nil, err
	}
	return info, nil
}

// Open opens name in fsys for reading once Stat says it is a regular
// file, and checks the file it opened is still one.
func Open(fsys fs.FS, name string) (fs.File, error) {
	if _, err := Stat(fsys, name); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	var ie *Error
	switch {
	case errors.As(err, &ie):
		return nil, err // the folder said what is wrong (a zip's encrypted file)
	case err != nil:
		return nil, openError(name, err)
	}
	if err := checkOpened(name, f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads name in fsys whole as bytes (a zip archive), refusing
// more than limit.
func ReadFile(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := Open(fsys, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, openError(name, err)
	}
	if info.Size() > limit {
		return nil, tooLarge(name, limit)
	}
	return readLimited(name, f, limit, info.Size())
}

// Entry is one entry of a folder: its name, whether it is a folder (a
// symbolic link followed to say so) and whether it is a link.
type Entry struct {
	Name string
	Dir  bool
	Link bool
}

// Entries lists the folder dir of fsys (see ReadDir), each link to a
// folder a folder (so that it is never taken for a file; a reader looking
// for folders follows no Link, so a link to its own folder makes no loop).
func Entries(fsys fs.FS, dir string) ([]Entry, error) {
	entries, err := ReadDir(fsys, dir)
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		link := e.Type()&fs.ModeSymlink != 0
		isDir := e.IsDir() || link && IsDir(fsys, path.Join(dir, e.Name()))
		out = append(out, Entry{Name: e.Name(), Dir: isDir, Link: link})
	}
	return out, err
}

// ReadDir is fs.ReadDir of dir, sorted by name, once Stat says dir is a
// folder: anything else is an *Error, never opened (listing a pipe would
// open it, and wait forever).
func ReadDir(fsys fs.FS, dir string) ([]fs.DirEntry, error) {
	if !IsDir(fsys, dir) {
		if _, err := Stat(fsys, dir); err != nil {
			return nil, err
		}
		return nil, &Error{File: dir, Msg: phrase.New("is a file, not a folder")}
	}
	return fs.ReadDir(fsys, dir)
}

// IsDir says name in fsys is a folder (a link followed to one).
func IsDir(fsys fs.FS, name string) bool {
	info, err := fs.Stat(fsys, name)
	return err == nil && info.IsDir()
}

// Exists says fsys holds an entry called name, of any kind: a pipe, a
// link to nothing or a loop of links is there, to be refused by name
// when it is read, not passed over as missing.
func Exists(fsys fs.FS, name string) bool {
	_, err := fs.Lstat(fsys, name)
	return err == nil
}

// FS is fsys as a wrapper of it must keep it: its Stat, Lstat, ReadLink
// and ReadDir. A struct that embeds an fs.FS keeps only its Open, and
// fs.Stat of it would open the file to stat it: a pipe, opened, waits
// forever for a writer.
type FS struct{ fs.FS }

func (f FS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(f.FS, name) }
func (f FS) Lstat(name string) (fs.FileInfo, error)     { return fs.Lstat(f.FS, name) }
func (f FS) ReadLink(name string) (string, error)       { return fs.ReadLink(f.FS, name) }
func (f FS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.FS, name) }

// Sub is the folder dir of fsys, as fs.Sub gives it but keeping Stat,
// which fs.Sub's folder lacks (fs.Stat of it would open the file).
func Sub(fsys fs.FS, dir string) (fs.FS, error) {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, err
	}
	return sub{FS{s}, fsys, dir}, nil
}

type sub struct {
	FS
	parent fs.FS
	dir    string
}

func (s sub) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return fs.Stat(s.parent, path.Join(s.dir, name))
}

// statError says why name cannot be looked at: a loop of links, a link
// to nothing (lstat tells the link and its target), missing, or not
// permitted.
func statError(name string, err error, lstat func() (fs.FileInfo, string, error)) error {
	switch {
	case errors.Is(err, syscall.ELOOP):
		return &Error{File: name, Err: err, Msg: phrase.New("is a symbolic link that leads back to itself (a loop of links), not a file: point it at the file")}
	case errors.Is(err, fs.ErrNotExist):
		if li, target, lerr := lstat(); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			return &Error{File: name, Err: err, Msg: phrase.New("is a symbolic link to %s, which does not exist: point it at the file", Shown(target))}
		}
	}
	return openError(name, err)
}

// openError says why name could not be opened.
func openError(name string, err error) error {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return &Error{File: name, Err: err, Msg: phrase.New("cannot be read: permission denied: give yourself read permission (chmod u+r), or copy it where you can read it")}
	case errors.Is(err, fs.ErrNotExist):
		return &Error{File: name, Err: err, Msg: phrase.New("cannot open: missing")}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{File: name, Err: err, Msg: phrase.New("cannot open: %s", err.Error())}
}

// kindError refuses anything but a regular file (and a folder, where
// folderOK): what it is, by name.
func kindError(name string, info fs.FileInfo, folderOK bool) error {
	mode := info.Mode()
	var msg phrase.Text
	switch {
	case mode.IsRegular():
		return nil
	case mode.IsDir():
		if folderOK {
			return nil
		}
		msg = phrase.New("is a folder, not a file")
	case mode&fs.ModeSymlink != 0: // a link not followed: a zip archive keeps one as its target's name
		msg = phrase.New("is a symbolic link kept as a link (as a zip archive keeps one: the name of its target, not the file): zip the file itself in its place (zip without -y), or unzip it and open the folder")
	case mode&fs.ModeNamedPipe != 0:
		msg = phrase.New("is a named pipe (FIFO), not a file: a pipe gives what another program writes into it, and reading it could wait forever; save what it gives in a file, and open that")
	case mode&fs.ModeSocket != 0:
		msg = phrase.New("is a socket, not a file: save what it gives in a file, and open that")
	case mode&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		msg = phrase.New("is a device, not a file (a device such as /dev/zero or a terminal never ends): save what you mean to open in a file, and open that")
	default:
		msg = phrase.New("is not a regular file (its mode is %s): open a file", mode.Type().String())
	}
	return &Error{File: name, Msg: msg}
}

// checkOpened checks that what was opened as name is a regular file: a
// file replaced by a device between Stat and Open is refused too.
func checkOpened(name string, f fs.File) error {
	info, err := f.Stat()
	if err != nil {
		return openError(name, err)
	}
	return kindError(name, info, false)
}

// readLimited reads r whole, refusing more than limit bytes; size is
// what it is expected to hold (its file's size), so that the bytes are
// held once, never copied as they grow.
func readLimited(name string, r io.Reader, limit, size int64) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(int(min(max(size, 0), limit) + 1))
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		var ie *Error
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, openError(name, err)
	}
	if int64(buf.Len()) > limit {
		return nil, tooLarge(name, limit)
	}
	return buf.Bytes(), nil
}

// tooLarge says a file is larger than the explorer holds of it in memory.
func tooLarge(name string, limit int64) *Error {
	return &Error{File: name, Msg: phrase.New("is larger than %s, more than the explorer holds in memory to read it", phrase.Bytes(min(limit, 1<<62)))}
}

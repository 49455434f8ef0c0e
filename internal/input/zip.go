package input

import (
	"archive/zip"
	"compress/flate"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"pdnexplorer/i18n/phrase"
)

// ZipFS is a zip archive's files as a folder, each inflated as it is
// read, never unpacked whole: a zip is read as the folder it unpacks to
// is, and what one holds costs no more memory than that folder would
// (a zip of a megabyte holding a gigabyte of blank lines is read through
// as they stream, as a .gz file is). Each file gives at most limit bytes
// (archive/zip gives none beyond the size its header declares, so the
// declared sizes, checked first, are met while reading too), and says by
// name when it is damaged (it fails its checksum, its compressed data is
// invalid or cut short), encrypted, or compressed by a method archive/zip
// cannot inflate. An entry that is a symbolic link is a link, not followed:
// Stat says so, and Open refuses it (kindError).
type ZipFS struct {
	archive string
	files   map[string]*zip.File
	dirs    map[string][]fs.DirEntry
	limit   int64
}

// NewZipFS is the folder of the zip archive named archive whose files are
// files, by their names in the folder (cleaned, with /, as fs.ValidPath
// wants them: the caller decides which entries are the folder's and what
// they are called); each gives at most limit bytes. A name that is a file
// and a folder at once is an *Error.
func NewZipFS(archive string, files map[string]*zip.File, limit int64) (*ZipFS, error) {
	z := &ZipFS{archive: archive, files: files, dirs: map[string][]fs.DirEntry{".": nil}, limit: limit}
	for _, name := range slices.Sorted(mapKeys(files)) {
		child, dir := name, path.Dir(name)
		entry := fs.FileInfoToDirEntry(z.fileInfo(name))
		for {
			if _, isFile := files[dir]; isFile {
				return nil, &Error{File: archive, Msg: phrase.New("holds %s both as a file and as a folder: zip the graph's files again", Shown(dir))}
			}
			_, known := z.dirs[dir]
			z.dirs[dir] = append(z.dirs[dir], entry)
			if known || dir == "." {
				break
			}
			child, dir = dir, path.Dir(dir)
			entry = fs.FileInfoToDirEntry(dirInfo(path.Base(child)))
		}
	}
	for dir, entries := range z.dirs {
		slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		z.dirs[dir] = entries
	}
	return z, nil
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

// Open opens a file of the archive to read as it inflates, or a folder.
func (z *ZipFS) Open(name string) (fs.File, error) {
	info, err := z.Stat(name)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return &zipDir{info: info, entries: z.dirs[name]}, nil
	}
	if err := kindError(name, info, false); err != nil {
		return nil, err
	}
	zf := z.files[name]
	if zf.Flags&0x1 != 0 { // the general purpose flag's bit 0: encrypted
		return nil, &Error{File: z.archive, Msg: phrase.New("its file %s is encrypted (the zip was made with a password): unzip it with its password, and open the folder", Shown(zf.Name))}
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, z.damage(zf, err)
	}
	return &zipFile{z: z, zf: zf, info: info, rc: rc, left: z.limit}, nil
}

// Stat is a name's information, without following a link: a zip keeps a
// link as the name of its target.
func (z *ZipFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if _, ok := z.files[name]; ok {
		return z.fileInfo(name), nil
	}
	if _, ok := z.dirs[name]; ok {
		return dirInfo(path.Base(name)), nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// ReadDir lists a folder of the archive, sorted by name.
func (z *ZipFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, ok := z.dirs[name]
	if !ok {
		if _, isFile := z.files[name]; isFile {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return slices.Clone(entries), nil
}

func (z *ZipFS) fileInfo(name string) fs.FileInfo {
	zf := z.files[name]
	mode := fs.FileMode(0o444)
	if zf.Mode()&fs.ModeSymlink != 0 {
		mode = fs.ModeSymlink | 0o777
	}
	return entryInfo{name: path.Base(name), size: int64(min(zf.UncompressedSize64, 1<<62)), mode: mode, mod: zf.Modified}
}

// damage says what err, met opening or reading zf, tells of it.
func (z *ZipFS) damage(zf *zip.File, err error) error {
	var corrupt flate.CorruptInputError
	var ie *Error
	switch {
	case errors.As(err, &ie):
		return err
	case errors.Is(err, zip.ErrChecksum):
		return &Error{File: z.archive, Err: err, Msg: phrase.New("its file %s is damaged: it fails its checksum (CRC-32): zip it again, or download it again", Shown(zf.Name))}
	case errors.As(err, &corrupt) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, zip.ErrFormat):
		return &Error{File: z.archive, Err: err, Msg: phrase.New("its file %s is damaged: its compressed data is invalid or cut short: zip it again, or download it again", Shown(zf.Name))}
	case errors.Is(err, zip.ErrAlgorithm):
		return &Error{File: z.archive, Err: err, Msg: phrase.New("its file %s is compressed by a method the explorer cannot unpack (method %d; zip's usual one is Deflate, 8): unzip it, and open the folder", Shown(zf.Name), int(zf.Method))}
	}
	return &Error{File: z.archive, Err: err, Msg: phrase.New("cannot unpack its file %s: %s", Shown(zf.Name), err.Error())}
}

// zipFile is a file of a ZipFS, being inflated.
type zipFile struct {
	z    *ZipFS
	zf   *zip.File
	info fs.FileInfo
	rc   io.ReadCloser
	left int64
	err  error
}

func (f *zipFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *zipFile) Close() error               { return f.rc.Close() }

func (f *zipFile) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if int64(len(p)) > f.left+1 {
		p = p[:f.left+1]
	}
	n, err := f.rc.Read(p)
	if f.left -= int64(n); f.left < 0 {
		f.err = &Error{File: f.z.archive, Msg: phrase.New("cannot unpack its file %s: it unpacks to more than %s, more than the explorer reads here", Shown(f.zf.Name), phrase.Bytes(min(f.z.limit, 1<<62)))}
		return 0, f.err
	}
	if err != nil && err != io.EOF {
		f.err = f.z.damage(f.zf, err)
		return n, f.err
	}
	return n, err
}

// zipDir is a folder of a ZipFS, opened.
type zipDir struct {
	info    fs.FileInfo
	entries []fs.DirEntry
	read    int
}

func (d *zipDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *zipDir) Close() error               { return nil }
func (d *zipDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.Name(), Err: errors.New("is a directory")}
}

func (d *zipDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.read:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(rest) {
		rest = rest[:n]
	}
	d.read += len(rest)
	return slices.Clone(rest), nil
}

// entryInfo is a file's or a folder's information in a ZipFS.
type entryInfo struct {
	name string
	size int64
	mode fs.FileMode
	mod  time.Time
}

func dirInfo(name string) entryInfo { return entryInfo{name: name, mode: fs.ModeDir | 0o555} }

func (i entryInfo) Name() string       { return i.name }
func (i entryInfo) Size() int64        { return i.size }
func (i entryInfo) Mode() fs.FileMode  { return i.mode }
func (i entryInfo) ModTime() time.Time { return i.mod }
func (i entryInfo) IsDir() bool        { return i.mode.IsDir() }
func (i entryInfo) Sys() any           { return nil }

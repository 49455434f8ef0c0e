package input

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"io"
	"path"
	"strings"

	"pdnexplorer/i18n/phrase"
)

// The compressions the explorer reads are gzip (.gz) and bzip2 (.bz2), as
// pandas and NetworkX read them by a file's name, each inflated as it
// streams within the same limit (Inflate). Other compressions and
// archives people download graphs in (.xz, .zst, .tar, .tar.gz, .7z,
// .rar) are refused by name (Unread), saying what the file is and to
// unpack it, or zip it: what they hold is never guessed at.

// compressions are the names' endings Inflate reads.
var compressions = []string{".gz", ".bz2"}

// Compressed is the compression name's ending says it is in (".gz",
// ".bz2"), or "" if it names none Inflate reads.
func Compressed(name string) string {
	lower := strings.ToLower(name)
	for _, c := range compressions {
		if strings.HasSuffix(lower, c) && !isArchive(lower) {
			return c
		}
	}
	return ""
}

// Plain is name without the compression it ends in (edges.csv for
// edges.csv.bz2), name itself if none.
func Plain(name string) string { return name[:len(name)-len(Compressed(name))] }

// Inflate inflates src, the bytes of the compressed file named file, as
// its name says (Gunzip, Bunzip2), within limit bytes.
func Inflate(file string, src io.Reader, limit int64) (io.Reader, error) {
	if Compressed(file) == ".bz2" {
		return Bunzip2(file, src, limit)
	}
	return Gunzip(file, src, limit)
}

// bzip2Magic opens every bzip2 stream.
var bzip2Magic = []byte("BZh")

// Bunzip2 inflates src, the bytes of the bzip2 file named file, as Gunzip
// does a gzip file: failing with an *Error past limit bytes, and saying
// by name when the stream is cut short, damaged or followed by bytes that
// are no bzip2 stream.
func Bunzip2(file string, src io.Reader, limit int64) (io.Reader, error) {
	br := bufio.NewReader(src)
	if magic, _ := br.Peek(3); !bytes.Equal(magic, bzip2Magic) {
		return nil, &Error{File: file, Err: errNotBzip2, Msg: phrase.New("is not bzip2 data the explorer can read: it does not open as bzip2 data does (BZh)")}
	}
	return &inflated{file: file, r: bzip2.NewReader(br), left: limit, limit: limit, damage: bzip2Damage}, nil
}

var errNotBzip2 = errors.New("not bzip2 data")

// bzip2Damage says what err, met inflating the bzip2 file, tells of it:
// cut short, damaged, or followed by bytes that are no bzip2 stream; nil
// if it tells none of these.
func bzip2Damage(file string, err error) *Error {
	var structural bzip2.StructuralError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{File: file, Err: err, Msg: phrase.New("is cut short, or damaged: its bzip2 data stops before its stream ends (an interrupted download?): download or compress it again")}
	case errors.As(err, &structural) && strings.Contains(string(structural), "continuation"):
		return &Error{File: file, Err: errTrailing, Msg: phrase.New("has trailing bytes after the compressed data: bytes that are no bzip2 stream follow its bzip2 data (two files joined, or padding?): download or compress it again")}
	case errors.As(err, &structural):
		return &Error{File: file, Err: errDamaged, Msg: phrase.New("is damaged: its bzip2 data is invalid (%s): download or compress it again", string(structural))}
	}
	return nil
}

// errTrailing and errDamaged are what an *Error saying a compressed file
// is damaged wraps, where the library's own error is not one errors.Is
// can tell (isDamage).
var (
	errTrailing = errors.New("trailing bytes after the compressed data")
	errDamaged  = errors.New("damaged compressed data")
)

// unread are the compressions and archives a graph is downloaded in that
// the explorer does not read, by the ending of their names (the longest
// first: .tar.gz is an archive, not a gzip file): what each is, and the
// command that unpacks it.
var unread = []unreadForm{
	{".tar.gz", phrase.New("a gzipped tar archive"), "tar -xzf"},
	{".tar.bz2", phrase.New("a bzip2 tar archive"), "tar -xjf"},
	{".tar.xz", phrase.New("an xz tar archive"), "tar -xJf"},
	{".tar.zst", phrase.New("a Zstandard tar archive"), "tar --zstd -xf"},
	{".tgz", phrase.New("a gzipped tar archive"), "tar -xzf"},
	{".tbz2", phrase.New("a bzip2 tar archive"), "tar -xjf"},
	{".txz", phrase.New("an xz tar archive"), "tar -xJf"},
	{".tar", phrase.New("a tar archive"), "tar -xf"},
	{".xz", phrase.New("xz-compressed"), "unxz"},
	{".lzma", phrase.New("LZMA-compressed"), "unlzma"},
	{".zst", phrase.New("Zstandard-compressed"), "unzstd"},
	{".lz4", phrase.New("LZ4-compressed"), "unlz4"},
	{".7z", phrase.New("a 7-Zip archive"), "7z x"},
	{".rar", phrase.New("a RAR archive"), "unrar x"},
}

// unreadForm is a compression or an archive the explorer does not read:
// its names' ending, what it is, and the command that unpacks it.
type unreadForm struct {
	ext    string
	what   phrase.Text
	unpack string
}

// archive says it holds files, not one file compressed.
func (u unreadForm) archive() bool {
	return strings.Contains(u.unpack, "tar") || u.ext == ".7z" || u.ext == ".rar"
}

// isArchive says a lower-case name ends as a tar archive does.
func isArchive(lower string) bool {
	for _, u := range unread {
		if u.archive() && strings.HasSuffix(lower, u.ext) {
			return true
		}
	}
	return false
}

// Unread says what name is, if its ending names a compression or an
// archive the explorer does not read, and what to do: unpack it, and open
// what it holds, or zip that (formats: what the explorer reads). ok false
// if its name names none.
func Unread(name string) (why phrase.Text, ok bool) {
	if u, ok := unreadAs(name); ok {
		return phrase.New("is %s (%s), which the explorer does not read: unpack it (%s %s) and open what it holds, or zip that: the explorer reads files gzipped (.gz) or in bzip2 (.bz2), and zip archives", u.what, u.ext, u.unpack, Shown(path.Base(name))), true
	}
	return phrase.Text{}, false
}

// IsArchive says name ends as an archive of files does (.tar, .tar.gz,
// .7z, .rar…), not one compressed file (.xz).
func IsArchive(name string) bool {
	u, ok := unreadAs(name)
	return ok && u.archive()
}

// UnreadForms are the names base may come under in a compression the
// explorer does not read, for a reader that looks for a file by its name
// (OGB's raw/edge.csv): found, it is refused by name, never taken for
// missing.
func UnreadForms(base string) []string {
	var out []string
	for _, u := range unread {
		if !u.archive() {
			out = append(out, base+u.ext)
		}
	}
	return out
}

func unreadAs(name string) (unreadForm, bool) {
	lower := strings.ToLower(name)
	for _, u := range unread {
		if strings.HasSuffix(lower, u.ext) {
			return u, true
		}
	}
	return unread[0], false
}

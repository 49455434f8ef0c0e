// Package input is how the explorer reads a file it is given: the one way
// in for every reader of a graph (datasets) and every file the command line
// reads back (pdn merge's shard files). Its rules:
//
//   - What a path or a folder's entry is, is known before a byte is read
//     (Path, Stat): a folder or a regular file, symbolic links followed to
//     one. A named pipe, a device, a socket, a loop of links, a link to
//     nothing, a file without read permission and a name that is not UTF-8
//     are refused by name and kind, never opened: a pipe would wait
//     forever for a writer, /dev/zero would never end.
//   - Text is the one decoder of text: UTF-8, with or without its
//     byte-order mark; UTF-16 with its mark, as the mark says; an XML
//     file's declared encoding (XML), as Python's ElementTree, which
//     NetworkX reads GraphML with, honours it. Anything else is refused at
//     the line and byte of its first bad byte, saying what the file likely
//     is and to save it as UTF-8. LF, CRLF and CR alone all end a line, as
//     Python's universal newlines read them; a NUL byte is binary data; a
//     byte-order mark past the very start (two files joined) is refused
//     where it is.
//   - A .gz or .bz2 file is inflated within one limit (Inflate: Gunzip,
//     Bunzip2; gzip members joined are one text, bytes after the last
//     refused at their byte); a compression or an archive it does not read
//     (.xz, .zst, .tar, .tar.gz, .7z, .rar) is refused by name, saying to
//     unpack it (Unread); and a zip archive's
//     files are a folder (ZipFS), each inflated as it is read, never
//     unpacked whole; a stream cut short or damaged says so (Check finds
//     it after the fact, so that a garbage value parsed out of a damaged
//     stream is never blamed), and so does a zip's file that is encrypted
//     or stored as a link.
//   - JSON is decoded through JSON, which refuses a key given twice in one
//     object, at any depth, where encoding/json keeps the last unseen.
//
// It knows nothing of graphs: what a file means is its reader's business.
package input

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"pdnexplorer/i18n/phrase"
)

// Error locates a problem with an input file: the file (as the caller
// named it), the line (from 1; 0 for the file as a whole) and the byte
// column in that line's text (from 1; 0 when unknown), and what is wrong
// and what to do.
type Error struct {
	File      string
	Line, Col int
	Msg       phrase.Text
	// Err is the system's error behind it, if any (fs.ErrNotExist, say).
	Err error
}

func (e *Error) Error() string { return e.Phrase().String() }

// Unwrap gives the system's error behind e, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }

// Phrase says where, then what: file:line:byte: message.
func (e *Error) Phrase() phrase.Text {
	at := Shown(e.File)
	if e.Line > 0 {
		at += ":" + strconv.Itoa(e.Line)
		if e.Col > 0 {
			at += ":" + strconv.Itoa(e.Col)
		}
	}
	if at == "" {
		return e.Msg
	}
	return phrase.New("%s: %s", at, e.Msg)
}

// Shown is a file's name as a message shows it: itself when it is
// printable UTF-8, else with its bad bytes and control characters escaped
// (labels_\xff.csv), so that a name never writes raw bytes to a terminal.
func Shown(name string) string {
	name = Abbreviated(name)
	if utf8.ValidString(name) && !strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) {
		return name
	}
	q := strconv.Quote(name)
	return strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
}

// maxShown bounds the bytes of a name a message shows: a name of
// thousands of bytes (a path pasted twice, bytes that are no text) would
// make a message no one reads.
const maxShown = 120

// Abbreviated is name cut in its middle to about maxShown bytes, the cut
// marked "…": its start and its end, which tell names apart, are kept.
func Abbreviated(name string) string {
	if len(name) <= maxShown {
		return name
	}
	head, tail := 80, len(name)-30
	for head > 0 && !utf8.RuneStart(name[head]) {
		head--
	}
	for tail < len(name) && !utf8.RuneStart(name[tail]) {
		tail++
	}
	return name[:head] + "…" + name[tail:]
}

// Package phrase holds what the explorer says to a person in words that
// can be shown in any language: a message is its key, the English text
// with fmt verbs, and its arguments, and it is put into words only where
// it is shown (the page in its language, the command line in English).
//
// A message's arguments are formatted when it is made, each by its verb
// in the key ("%d" of 3 is "3", "%.3g" of 0.1234 is "0.123"): a
// translation reorders them ("%[2]s … %[1]s") but never formats a number
// differently, so figures read the same in every language. An argument
// that is itself a message (a Text, or an error made by Errorf) stays a
// message and is shown in the same language as the one holding it.
//
// A Text survives JSON, so the worker can say what went wrong and the
// page can show it in the reader's language without the worker holding
// any catalogue.
//
// The verb scanner is written here because fmt does not export its own;
// it reads the verbs fmt documents: flags, an argument index, width and
// precision (never *), and one verb letter.
package phrase

import (
	"fmt"
	"pdnexplorer/internal/numtext"
	"slices"
	"strconv"
	"strings"
)

// Text is a message: Key, the English text with fmt verbs, and the
// arguments formatted by them.
type Text struct {
	Key  string `json:"key"`
	Args []Arg  `json:"args,omitempty"`
	// Run says the message is one run of text that keeps together: a
	// number with its unit (Quantity).
	Run bool `json:"run,omitempty"`
	// isolate says In wraps the words whole in a first-strong isolate
	// (Isolated, of a Run).
	isolate bool
}

// Arg is one argument of a Text: its formatted value, or a message of its own.
type Arg struct {
	S string `json:"s,omitempty"`
	T *Text  `json:"t,omitempty"`
}

// Phrased is a value that can say itself as a message, as the errors of
// Errorf and of the explorer's readers do.
type Phrased interface{ Phrase() Text }

// New returns the message key with args, each formatted by the verb the
// key gives it.
func New(key string, args ...any) Text {
	t := Text{Key: key, Args: make([]Arg, len(args))}
	for _, v := range verbs(key) {
		if v.arg >= len(args) || t.Args[v.arg] != (Arg{}) {
			continue
		}
		t.Args[v.arg] = argOf(v.spec, args[v.arg])
	}
	return t
}

// argOf formats x by spec, keeping a message a message.
func argOf(spec string, x any) Arg {
	switch m := x.(type) {
	case Text:
		return Arg{T: &m}
	case *Text:
		return Arg{T: m}
	case Phrased:
		p := m.Phrase()
		return Arg{T: &p}
	}
	return Arg{S: fmt.Sprintf(spec, x)}
}

// String is the message in English.
func (t Text) String() string { return t.In(nil) }

// In is the message in the words tr gives each key (nil: the keys, that
// is English).
func (t Text) In(tr func(key string) string) string {
	format := t.Key
	if tr != nil {
		format = tr(t.Key)
	}
	args := make([]any, len(t.Args))
	for i, a := range t.Args {
		if a.T != nil {
			args[i] = a.T.In(tr)
		} else {
			args[i] = a.S
		}
	}
	out := fmt.Sprintf(asStrings(format), args...)
	if t.isolate {
		out = fsi + out + pdi
	}
	return out
}

// Unicode's first-strong isolate and its end: the text between them takes
// its direction from its own first letter and keeps its place among the
// words around it.
const (
	fsi = "\u2068"
	pdi = "\u2069"
)

// Quantity returns the message key with args, as New does, marked as one
// run of text (Run): a number with its unit, as "%.1f kB", "%d min" or
// "%s/s". Every number shown with a unit is made here (Bytes too), and
// said whole: in text written right to left, Isolated wraps it in one
// isolate, so that the bidi algorithm keeps a Latin unit after its number
// (left bare in Arabic, 292.4 kB was shown "kB 292.4") and the words
// around it do not pull the two apart.
func Quantity(key string, args ...any) Text {
	t := New(key, args...)
	t.Run = true
	return t
}

// Bytes is a size in bytes, its digits grouped: "1,048,576 bytes".
func Bytes[N ~int | ~int64 | ~uint64](n N) Text { return Quantity("%s bytes", numtext.Group(int(n))) }

// IsZero reports whether t says nothing.
func (t Text) IsZero() bool { return t.Key == "" && len(t.Args) == 0 }

// asStrings rewrites each verb of format as %[n]s, n its argument's
// number: the arguments are already formatted.
func asStrings(format string) string {
	vs := verbs(format)
	if len(vs) == 0 {
		return format
	}
	var b strings.Builder
	last := 0
	for _, v := range vs {
		b.WriteString(format[last:v.start])
		b.WriteString("%[" + strconv.Itoa(v.arg+1) + "]s")
		last = v.end
	}
	b.WriteString(format[last:])
	return b.String()
}

// verb is one fmt verb of a format: format[start:end], the argument it
// formats (from 0) and spec, the verb without its argument index (%w
// becomes %v: a message formats an error by its text).
type verb struct {
	start, end, arg int
	spec            string
}

// verbs returns the fmt verbs of format in order ("%%" is none).
func verbs(format string) []verb {
	var out []verb
	next := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		v := verb{start: i, arg: next}
		var spec strings.Builder
		spec.WriteByte('%')
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0", format[j]) >= 0 {
			spec.WriteByte(format[j])
			j++
		}
		j = argIndex(format, j, &v.arg)
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.') {
			spec.WriteByte(format[j])
			j++
		}
		j = argIndex(format, j, &v.arg)
		if j >= len(format) {
			break
		}
		if format[j] == '%' {
			i = j
			continue
		}
		letter := format[j]
		if letter == 'w' {
			letter = 'v'
		}
		spec.WriteByte(letter)
		v.end, v.spec = j+1, spec.String()
		out = append(out, v)
		next = v.arg + 1
		i = j
	}
	return out
}

// argIndex reads an explicit argument index "[n]" at format[j:], if there
// is one, into arg (from 0), and returns where the verb goes on.
func argIndex(format string, j int, arg *int) int {
	if j >= len(format) || format[j] != '[' {
		return j
	}
	end := strings.IndexByte(format[j:], ']')
	if end < 0 {
		return j
	}
	n, err := numtext.ParseInt(format[j+1 : j+end])
	if err != nil || n < 1 {
		return j
	}
	*arg = n - 1
	return j + end + 1
}

// Error is an error that says itself as a message.
type Error struct {
	Text
	wrapped []error
}

// Errorf returns an error saying key with args, which wraps the args
// that %w formats, as fmt.Errorf does.
func Errorf(key string, args ...any) error {
	e := &Error{Text: New(key, args...)}
	for _, v := range verbs(key) {
		if key[v.end-1] == 'w' && v.arg < len(args) {
			if err, ok := args[v.arg].(error); ok {
				e.wrapped = append(e.wrapped, err)
			}
		}
	}
	return e
}

func (e *Error) Error() string   { return e.Text.String() }
func (e *Error) Phrase() Text    { return e.Text }
func (e *Error) Unwrap() []error { return e.wrapped }

// Of returns what err says as a message: its own if it has one, else
// its text as it is (a library's words, which no catalogue holds). The
// errors of errors.Join become one line each.
func Of(err error) Text {
	switch e := err.(type) {
	case nil:
		return Text{}
	case Phrased:
		return e.Phrase()
	case interface{ Unwrap() []error }:
		errs := e.Unwrap()
		t := Text{Key: strings.Repeat("%s\n", len(errs))}
		t.Key = strings.TrimSuffix(t.Key, "\n")
		for _, err := range errs {
			p := Of(err)
			t.Args = append(t.Args, Arg{T: &p})
		}
		return t
	}
	return Text{Key: "%s", Args: []Arg{{S: err.Error()}}}
}

// Lines returns err's messages, one for each error errors.Join joined.
func Lines(err error) []Text {
	if _, ok := err.(Phrased); !ok {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			var out []Text
			for _, e := range j.Unwrap() {
				out = append(out, Lines(e)...)
			}
			return out
		}
	}
	if err == nil {
		return nil
	}
	return []Text{Of(err)}
}

// List returns items as one message, joined by sep, each item shown in
// the language of the message that holds the list.
func List(sep string, items []Text) Text {
	key := strings.Repeat("%s"+strings.ReplaceAll(sep, "%", "%%"), len(items))
	t := Text{Key: key[:max(0, len(key)-len(strings.ReplaceAll(sep, "%", "%%")))]}
	for i := range items {
		t.Args = append(t.Args, Arg{T: &items[i]})
	}
	return t
}

// Slots returns format's verbs as a translation must keep them, one
// "argument:verb" each, sorted ("%[2]s: %[1]d" gives 1:%d 2:%s).
func Slots(format string) []string {
	var out []string
	for _, v := range verbs(format) {
		spec := v.spec
		if format[v.end-1] == 'w' {
			spec = spec[:len(spec)-1] + "w"
		}
		out = append(out, strconv.Itoa(v.arg+1)+":"+spec)
	}
	slices.Sort(out)
	return out
}

// Isolated returns t with each formatted argument wrapped in Unicode's
// first-strong isolate (U+2068 … U+2069), so that in right-to-left text a
// quoted value, a file name or a range keeps its own direction and its
// place in the sentence: "hidden: "abc"" does not turn into "abc" hidden.
//
// A number with its unit (Run, made by Quantity) is isolated whole rather
// than its arguments: the unit stays beside its number.
func (t Text) Isolated() Text {
	if t.Run {
		out := t
		out.Args = slices.Clone(t.Args)
		out.isolate = true
		return out
	}
	out := Text{Key: t.Key, Args: make([]Arg, len(t.Args))}
	for i, a := range t.Args {
		if a.T != nil {
			inner := a.T.Isolated()
			out.Args[i] = Arg{T: &inner}
		} else if a.S != "" {
			out.Args[i] = Arg{S: "\u2068" + a.S + "\u2069"}
		}
	}
	return out
}

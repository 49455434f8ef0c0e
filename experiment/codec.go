package experiment

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"strings"
)

// Encode writes every field as a URL query ("classes=3&per-class=500&…"),
// in the table's order, so that a link fixes the whole run even if the
// defaults change later.
func (e Experiment) Encode() string {
	var b strings.Builder
	for i, p := range Params {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p.Name)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(p.Get(&e)))
	}
	return b.String()
}

// Decode reads a query written by Encode, as found in a permalink. It never
// fails as a whole: a missing field keeps its default, and a field that is
// unknown, malformed or out of range keeps its default and is reported in the
// returned error, one line per field.
func Decode(query string) (Experiment, error) {
	e := Default()
	query = strings.TrimLeft(query, "#?")
	var errs []error
	for _, kv := range strings.Split(query, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		k, kerr := url.QueryUnescape(k)
		v, verr := url.QueryUnescape(v)
		p, ok := Lookup(k)
		switch {
		case kerr != nil || verr != nil:
			errs = append(errs, fmt.Errorf("%q is not a valid link parameter", kv))
		case !ok:
			errs = append(errs, fmt.Errorf("%s: unknown parameter, ignored", k))
		default:
			if err := p.Set(&e, v); err != nil {
				errs = append(errs, fmt.Errorf("%w; using the default %s", err, p.Default))
			}
		}
	}
	return e, errors.Join(errs...)
}

// fieldFlag adapts one row of the table to flag.Value.
type fieldFlag struct {
	p Param
	e *Experiment
}

func (f fieldFlag) String() string {
	if f.e == nil {
		return f.p.Default
	}
	return f.p.Get(f.e)
}

func (f fieldFlag) Set(s string) error {
	err := f.p.Set(f.e, s)
	if err != nil {
		// The flag package already names the flag and the value.
		return errors.New("want " + f.p.Range())
	}
	return nil
}

// RegisterFlags binds the rows of the given groups (all rows when none are
// given) to flags of fs that write into e.
func RegisterFlags(fs *flag.FlagSet, e *Experiment, groups ...string) {
	for _, p := range Params {
		if len(groups) > 0 && !contains(groups, p.Group) {
			continue
		}
		registerParam(fs, e, p)
	}
}

// RegisterNamed binds the named rows of the table to flags of fs.
func RegisterNamed(fs *flag.FlagSet, e *Experiment, names ...string) {
	for _, n := range names {
		p, ok := Lookup(n)
		if !ok {
			panic("experiment: no parameter " + n)
		}
		registerParam(fs, e, p)
	}
}

func registerParam(fs *flag.FlagSet, e *Experiment, p Param) {
	usage := p.Usage
	if p.Symbol != "" {
		usage = p.Symbol + ": " + usage
	}
	fs.Var(fieldFlag{p, e}, p.Name, usage+" ("+p.Range()+")")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

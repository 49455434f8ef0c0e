package numtext

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// IntVar defines an int flag read by ParseInt, as the flag package's
// IntVar does but decimal only (flag's own reads "0x10" as 16 and "1_000"
// as 1000), and held to [lo, hi]: a value outside, or text that is no
// whole number, is refused saying the range, as the flag's help does.
func IntVar(fs *flag.FlagSet, p *int, name string, value, lo, hi int, usage string) {
	*p = value
	fs.Var(&intFlag{p: p, lo: lo, hi: hi}, name, fmt.Sprintf("%s ([%d, %d])", usage, lo, hi))
}

// Int is IntVar returning the address of a new int.
func Int(fs *flag.FlagSet, name string, value, lo, hi int, usage string) *int {
	p := new(int)
	IntVar(fs, p, name, value, lo, hi, usage)
	return p
}

// Float64Var defines a float64 flag read by ParseFloat: decimal and finite.
func Float64Var(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var((*floatFlag)(p), name, usage)
}

// intFlag is an int flag held to [lo, hi].
type intFlag struct {
	p      *int
	lo, hi int
}

func (f *intFlag) String() string {
	if f == nil || f.p == nil {
		return "0"
	}
	return strconv.Itoa(*f.p)
}

func (f *intFlag) Set(s string) error {
	v, err := ParseInt(strings.TrimSpace(s))
	switch {
	case err != nil:
		// The flag package prefixes the flag and the value.
		return flagError(fmt.Sprintf("want a whole number in [%d, %d]", f.lo, f.hi))
	case v < f.lo || v > f.hi:
		return flagError(fmt.Sprintf("%d is not allowed; want [%d, %d]", v, f.lo, f.hi))
	}
	*f.p = v
	return nil
}

type floatFlag float64

func (f *floatFlag) String() string {
	if f == nil {
		return "0"
	}
	return strconv.FormatFloat(float64(*f), 'g', -1, 64)
}

func (f *floatFlag) Set(s string) error {
	v, err := ParseFloat(strings.TrimSpace(s))
	if err != nil {
		return err
	}
	*f = floatFlag(v)
	return nil
}

type flagError string

func (e flagError) Error() string { return string(e) }

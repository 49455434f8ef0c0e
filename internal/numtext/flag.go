package numtext

import (
	"flag"
	"strconv"
	"strings"
)

// IntVar defines an int flag read by ParseInt, as the flag package's
// IntVar does but decimal only: flag's own reads "0x10" as 16 and
// "1_000" as 1000.
func IntVar(fs *flag.FlagSet, p *int, name string, value int, usage string) {
	*p = value
	fs.Var((*intFlag)(p), name, usage)
}

// Int is IntVar returning the address of a new int.
func Int(fs *flag.FlagSet, name string, value int, usage string) *int {
	p := new(int)
	IntVar(fs, p, name, value, usage)
	return p
}

// Float64Var defines a float64 flag read by ParseFloat: decimal and finite.
func Float64Var(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var((*floatFlag)(p), name, usage)
}

type intFlag int

func (f *intFlag) String() string {
	if f == nil {
		return "0"
	}
	return strconv.Itoa(int(*f))
}

func (f *intFlag) Set(s string) error {
	v, err := ParseInt(strings.TrimSpace(s))
	if err != nil {
		return errWhole(err)
	}
	*f = intFlag(v)
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

// errWhole says what a whole-number flag wants, as the flag package
// prefixes it with the flag and the value.
func errWhole(err error) error {
	if err == ErrTooLarge {
		return err
	}
	return errNotWhole
}

var errNotWhole = flagError("want a whole number in decimal digits")

type flagError string

func (e flagError) Error() string { return string(e) }

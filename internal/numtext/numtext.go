// Package numtext reads and writes numbers as text the way every input and
// output of the project does: decimal only on the way in, and JSON that
// never breaks on the way out.
//
// strconv.ParseFloat accepts more than a person types into a flag, a link
// or a CSV cell: hexadecimal floats ("0x1p-3"), "Inf", "infinity" and "NaN"
// in any case. A value like that in a bundle or a link is far more likely a
// mistake than an intent, so ParseFloat here takes a plain decimal number,
// with an optional sign, fraction and exponent, that is finite as a float64.
//
// encoding/json refuses NaN and ±Inf, and a single NaN (an accuracy over
// no test nodes, say) would lose a whole JSON result. Num writes them as
// null instead, and reads null back as NaN.
//
// It is the one place an input's number is read: a test over the module's
// source (internal/rules) fails when any other package calls strconv's
// parsers, fmt's scanners or the flag package's number flags, whose
// readers accept hexadecimal, octal, binary and underscores ("0x10",
// "0o17", "1_000") as well. ParseInt and ParseUint take plain decimal
// whole numbers; IntVar and Float64Var bind them to a command's flags.
// Every one of them takes one leading sign alike: "+7" is 7 wherever a
// number is read (a minus only where the number may be negative), and a
// zero has no sign: "-0" is 0 wherever a number is read, a seed's too, so
// that no state holds or writes a -0 a person never meant.
//
// The package imports only the standard library, so the browser's page can
// use it without linking anything else.
package numtext

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
)

// ErrNotDecimal says a text is not a plain decimal number.
var ErrNotDecimal = errors.New("not a decimal number")

// ErrNotFinite says a decimal number is too large for a float64.
var ErrNotFinite = errors.New("too large: not a finite float64")

// ParseFloat reads s, a decimal number such as "12", "-0.5", "3e-4" or
// ".5", and returns ErrNotDecimal for anything else (hexadecimal, Inf, NaN,
// underscores, spaces) and ErrNotFinite for a number beyond ±1.8e308.
// Numbers too small for a float64 read as 0, as strconv reads them; a zero
// is read without its sign ("-0", "-0.0", "-1e-400" are 0).
func ParseFloat(s string) (float64, error) {
	if !isDecimal(s) {
		return 0, ErrNotDecimal
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, ErrNotFinite // strconv reports only overflow as out of range
	case err != nil:
		return 0, ErrNotDecimal
	case v == 0:
		return 0, nil // -0 is 0: the sign of a zero is no one's intent
	}
	return v, nil
}

// ErrTooLarge says a whole number does not fit the type it is read into.
var ErrTooLarge = errors.New("too large a whole number")

// ParseInt reads s, a whole number in decimal such as "12", "-3" or "+7"
// (one sign, then digits), and returns ErrNotDecimal for anything else
// ("0x10", "1_000", "1e3", "1.0", "+-1", spaces) and ErrTooLarge beyond
// the range of int.
func ParseInt(s string) (int, error) {
	neg, digits, ok := signed(s)
	if !ok {
		return 0, ErrNotDecimal
	}
	if neg {
		digits = "-" + digits
	}
	v, err := strconv.ParseInt(digits, 10, strconv.IntSize)
	if err != nil {
		return 0, ErrTooLarge // the text is digits: only the range can fail
	}
	return int(v), nil
}

// ParseUint reads s, a whole number of decimal digits with at most a
// leading "+" (the sign every parser here takes, as ParseInt and
// ParseFloat do: "+7" is 7 wherever a number is read), and returns
// ErrNotDecimal for anything else, a minus sign too but before a zero
// ("-0" is 0, as ParseInt and ParseFloat read it), and ErrTooLarge above
// 2⁶⁴−1.
func ParseUint(s string) (uint64, error) {
	neg, digits, ok := signed(s)
	if !ok || neg && strings.Trim(digits, "0") != "" {
		return 0, ErrNotDecimal
	}
	v, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, ErrTooLarge
	}
	return v, nil
}

// signed splits s into its sign and its digits: at most one leading "+"
// or "-", then ASCII digits only. It is the one rule for a whole number's
// sign, so that "+1" is read alike by every parser (ParseFloat's sign is
// the same: isDecimal).
func signed(s string) (neg bool, digits string, ok bool) {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	return neg, s, allDigits(s)
}

// ParseHex reads s, hexadecimal digits of at most bits bits, as a colour's
// channels are written ("ff"): the one place a number is read in base 16,
// for the figures' own colours, never for an input.
func ParseHex(s string, bits int) (uint64, error) {
	if s == "" || strings.TrimLeft(s, "0123456789abcdefABCDEF") != "" {
		return 0, ErrNotDecimal
	}
	v, err := strconv.ParseUint(s, 16, bits)
	if err != nil {
		return 0, ErrTooLarge
	}
	return v, nil
}

// ParseBool reads a boolean as GraphML's XML Schema type writes it and
// NetworkX reads it: true, false, 1 or 0, in any case.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, errors.New("not a boolean (true, false, 1 or 0)")
}

// Round is v rounded to digits decimals as text writes it ('f' format),
// read back: the value a table of that many decimals shows.
func Round(v float64, digits int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', digits, 64), 64)
	return r
}

// RoundSignificant is v rounded to digits significant digits ('g' format).
func RoundSignificant(v float64, digits int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	return r
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isDecimal reports whether s is [sign] digits [. digits] [e [sign] digits]
// with at least one digit in the mantissa.
func isDecimal(s string) bool {
	i := 0
	sign := func() {
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	sign()
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		sign()
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// Group writes n with a comma between groups of three digits: 49,992.
func Group(n int) string {
	s := strconv.Itoa(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Num is a float64 that survives JSON when it is NaN or infinite: it is
// written as null, which encoding/json would otherwise refuse, and null is
// read back as NaN.
type Num float64

// MarshalJSON writes null for NaN and ±Inf, else the shortest decimal that
// reads back to the same bits.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON reads null as NaN, and a number as ParseFloat reads it:
// a zero without its sign (-0 is 0), as every number read is.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	f, err := ParseFloat(string(b)) // a JSON number is a decimal
	*n = Num(f)
	return err
}

// Valid reports whether n is a finite number, that is, not written as null.
func (n Num) Valid() bool {
	f := float64(n)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

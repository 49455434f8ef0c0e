package numtext

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math"
	"strings"
	"testing"
)

func TestParseFloat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		err  error
	}{
		{"12", 12, nil},
		{"-0.5", -0.5, nil},
		{"+3e-4", 3e-4, nil},
		{".5", 0.5, nil},
		{"5.", 5, nil},
		{"1E3", 1000, nil},
		{"1e-400", 0, nil}, // underflow reads as zero, as strconv reads it
		{"1e400", 0, ErrNotFinite},
		{"-1e309", 0, ErrNotFinite},
		{"0x1p-2", 0, ErrNotDecimal},
		{"Inf", 0, ErrNotDecimal},
		{"-infinity", 0, ErrNotDecimal},
		{"NaN", 0, ErrNotDecimal},
		{"1_000", 0, ErrNotDecimal},
		{" 1", 0, ErrNotDecimal},
		{"", 0, ErrNotDecimal},
		{".", 0, ErrNotDecimal},
		{"-", 0, ErrNotDecimal},
		{"1e", 0, ErrNotDecimal},
		{"1e+", 0, ErrNotDecimal},
		{"e5", 0, ErrNotDecimal},
		{"1.2.3", 0, ErrNotDecimal},
		{"١٢", 0, ErrNotDecimal}, // Arabic-Indic digits
	} {
		got, err := ParseFloat(tc.in)
		if !errors.Is(err, tc.err) || (err == nil && got != tc.want) {
			t.Errorf("ParseFloat(%q) = %v, %v; want %v, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestNumJSON(t *testing.T) {
	b, err := json.Marshal(map[string]Num{"a": 0.25, "b": Num(math.NaN()), "c": Num(math.Inf(-1))})
	if err != nil || string(b) != `{"a":0.25,"b":null,"c":null}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var back map[string]Num
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back["a"] != 0.25 || back["b"].Valid() || !back["a"].Valid() {
		t.Errorf("round trip = %v", back)
	}
	var n Num
	if err := json.Unmarshal([]byte(`"x"`), &n); err == nil {
		t.Error("a string read as a Num")
	}
}

func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"1", "-2.5e-3", "0x1p3", "NaN", "1e400", ".e1", "+.5E+2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseFloat(s)
		if err != nil {
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("ParseFloat(%q) = %v: not finite", s, v)
		}
		for _, c := range s {
			if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
				t.Fatalf("ParseFloat(%q) accepted %q", s, c)
			}
		}
	})
}

func TestGroup(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 49992: "49,992", 1179648: "1,179,648", -1234: "-1,234", -123: "-123"} {
		if got := Group(n); got != want {
			t.Errorf("Group(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestParseInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		err  error
	}{
		{"12", 12, nil},
		{"-3", -3, nil},
		{"+7", 7, nil},
		{"007", 7, nil},
		{"0x10", 0, ErrNotDecimal},
		{"0o17", 0, ErrNotDecimal},
		{"0b1", 0, ErrNotDecimal},
		{"1_000", 0, ErrNotDecimal},
		{"1e3", 0, ErrNotDecimal},
		{"1.0", 0, ErrNotDecimal},
		{" 1", 0, ErrNotDecimal},
		{"", 0, ErrNotDecimal},
		{"-", 0, ErrNotDecimal},
		{"+-1", 0, ErrNotDecimal},
		{"99999999999999999999", 0, ErrTooLarge},
	} {
		got, err := ParseInt(tc.in)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("ParseInt(%q) = %d, %v; want %d, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
	if _, err := ParseUint("-1"); !errors.Is(err, ErrNotDecimal) {
		t.Errorf("ParseUint(-1): %v", err)
	}
	if v, err := ParseUint("18446744073709551615"); err != nil || v != 1<<64-1 {
		t.Errorf("ParseUint(max) = %d, %v", v, err)
	}
	if _, err := ParseUint("18446744073709551616"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ParseUint(max+1): %v", err)
	}
	if v, err := ParseHex("ff", 8); err != nil || v != 255 {
		t.Errorf("ParseHex(ff) = %d, %v", v, err)
	}
	if _, err := ParseHex("0xff", 8); err == nil {
		t.Error("ParseHex(0xff) read")
	}
	for in, want := range map[string]bool{"true": true, "TRUE": true, "1": true, "false": false, "0": false} {
		if got, err := ParseBool(in); err != nil || got != want {
			t.Errorf("ParseBool(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseBool("yes"); err == nil {
		t.Error("ParseBool(yes) read")
	}
}

func TestFlags(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := Int(fs, "reps", 3, 1, 1000, "")
	var x float64
	Float64Var(fs, &x, "lr", 0.5, "")
	if *n != 3 || x != 0.5 {
		t.Fatalf("defaults %d %v", *n, x)
	}
	if err := fs.Parse([]string{"-reps", " 12", "-lr", "1e-3"}); err != nil || *n != 12 || x != 1e-3 {
		t.Fatalf("parse: %v %d %v", err, *n, x)
	}
	for _, bad := range [][]string{{"-reps", "0x10"}, {"-reps", "1_000"}, {"-reps", "1e2"}, {"-lr", "0x1p-2"}, {"-lr", "Inf"}, {"-lr", "nan"}} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		Int(fs, "reps", 3, 1, 1000, "")
		Float64Var(fs, new(float64), "lr", 0.5, "")
		if err := fs.Parse(bad); err == nil || !strings.Contains(err.Error(), bad[1]) {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

// A whole-number flag says its range wherever it refuses a value: text
// that is no whole number (runtime -epochs 1.5, -nodes 0x40) as a number
// outside it; its help says the range too.
func TestIntFlagsSayTheirRange(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1.5", "want a whole number in [256, 65536]"},
		{"0x40", "want a whole number in [256, 65536]"},
		{"99999999999999999999", "want a whole number in [256, 65536]"},
		{"10", "10 is not allowed; want [256, 65536]"},
		{"70000", "70000 is not allowed; want [256, 65536]"},
		{"-0", "0 is not allowed; want [256, 65536]"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		n := Int(fs, "nodes", 4096, 256, 1<<16, "nodes")
		if err := fs.Parse([]string{"-nodes", c.in}); err == nil || !strings.Contains(err.Error(), "-nodes: "+c.want) || *n != 4096 {
			t.Errorf("-nodes %s: %v (kept %d); want %q", c.in, err, *n, c.want)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	Int(fs, "nodes", 4096, 256, 1<<16, "nodes")
	if u := fs.Lookup("nodes").Usage; !strings.Contains(u, "[256, 65536]") {
		t.Errorf("help %q says no range", u)
	}
}

// A zero has no sign: "-0" is 0 for every parser, a seed's (unsigned)
// too, and no parser gives -0, so nothing read writes a "-0" back.
func TestMinusZeroIsZero(t *testing.T) {
	for _, in := range []string{"-0", "-00", "+0", "0"} {
		i, errI := ParseInt(in)
		u, errU := ParseUint(in)
		if errI != nil || errU != nil || i != 0 || u != 0 {
			t.Errorf("%q: ParseInt %d, %v; ParseUint %d, %v; want 0", in, i, errI, u, errU)
		}
	}
	for _, in := range []string{"-0", "-0.0", "-0e5", "-1e-400", "0"} {
		f, err := ParseFloat(in)
		if err != nil || f != 0 || math.Signbit(f) {
			t.Errorf("ParseFloat(%q) = %v (sign bit %v), %v; want 0", in, f, math.Signbit(f), err)
		}
	}
	if _, err := ParseUint("-01"); err == nil {
		t.Error(`ParseUint("-01") read: a minus before a number other than 0`)
	}
}

// Every parser takes one leading "+" alike, as Python's int and float and
// pandas do: "+7" is 7 as a whole number, a seed (unsigned) and a decimal.
// Two signs, or a sign alone, are no number for any of them; a minus is
// refused only where the number cannot be negative (ParseUint).
func TestEveryParserTakesTheSameSign(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool // read by all three; else by none (but "-" by the signed)
	}{
		{"+7", 7, true},
		{"+0", 0, true},
		{"7", 7, true},
		{"++7", 0, false},
		{"+-7", 0, false},
		{"-+7", 0, false},
		{"+", 0, false},
		{"+ 7", 0, false},
	} {
		i, errI := ParseInt(c.in)
		u, errU := ParseUint(c.in)
		f, errF := ParseFloat(c.in)
		if c.ok != (errI == nil) || c.ok != (errU == nil) || c.ok != (errF == nil) {
			t.Errorf("%q: ParseInt %v, ParseUint %v, ParseFloat %v; want all read %v", c.in, errI, errU, errF, c.ok)
			continue
		}
		if c.ok && (float64(i) != c.want || float64(u) != c.want || f != c.want) {
			t.Errorf("%q read as %d, %d, %v; want %v", c.in, i, u, f, c.want)
		}
	}
	if v, err := ParseInt("-7"); err != nil || v != -7 {
		t.Errorf("ParseInt(-7) = %d, %v", v, err)
	}
	if _, err := ParseUint("-7"); err == nil {
		t.Error("ParseUint(-7) read")
	}
}

// Num reads a JSON number as ParseFloat reads any number: -0 is 0 (a
// shard's "acc":-0 was written -0.0000 by merge).
func TestNumReadsAsParseFloat(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       float64
	}{
		{"minus zero", "-0", 0},
		{"minus zero, a fraction", "-0.0", 0},
		{"a number", "0.5", 0.5},
		{"an exponent", "-1E-2", -0.01},
	} {
		t.Run(c.name, func(t *testing.T) {
			var n Num
			if err := json.Unmarshal([]byte(c.text), &n); err != nil || float64(n) != c.want || math.Signbit(float64(n)) != math.Signbit(c.want) {
				t.Errorf("%s: %v (sign %v), %v; want %v", c.text, float64(n), math.Signbit(float64(n)), err, c.want)
			}
		})
	}
}

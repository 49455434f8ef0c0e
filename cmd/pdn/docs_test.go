package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/internal/numtext"
)

// docDefault is a flag's default as a doc states it: "`-validation 0`,
// the default", "`-hops 5` by default", "`-restart-epochs`, 50 by
// default", or, in a bullet led by the flag, "**0.2 by default**".
type docDefault struct {
	where   string // file:line
	command string // the bullet's command; "" for every command with the flag
	flag    string
	value   string
}

var (
	// docDefaultREs find a stated default: the flag's name, then its value.
	docDefaultREs = []*regexp.Regexp{
		regexp.MustCompile("`-([a-z][a-z0-9-]*) ([^`\\s]+)`,? (?:the default|by default)"),
		regexp.MustCompile("`-([a-z][a-z0-9-]*)`, ([^\\s,;)]+) by default"),
	}
	// docLeadFlagRE is a bullet led by a flag ("- `-edge-dropout P`"), and
	// docLeadDefaultRE a bare default in it ("**0.2 by default**").
	docLeadFlagRE    = regexp.MustCompile("^- `-([a-z][a-z0-9-]*)")
	docLeadDefaultRE = regexp.MustCompile(`\*\*([^\s*]+) by default\*\*`)
	// docLeadCommandRE is a bullet led by a command ("- `table4` trains",
	// "- `pdn claims …`").
	docLeadCommandRE = regexp.MustCompile("^- `(?:pdn )?([a-z0-9]+)")
)

// docDefaults are the flag defaults the docs state, each with the command
// of the bullet it stands in, and those the command lines they show state
// in brackets ([-reps 10]; main.go's doc comment's too). A bullet (or
// paragraph) is read as one line, so a statement broken across lines is
// found.
func docDefaults(t *testing.T) []docDefault {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	files = append(files, filepath.Join("..", "..", "README.md"), "main.go")
	var out []docDefault
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		for _, u := range docBullets(string(b)) {
			out = append(out, bulletDefaults(name+":"+strconv.Itoa(u.line), u.text)...)
		}
		for _, u := range docSynopses(string(b)) {
			out = append(out, synopsisDefaults(name+":"+strconv.Itoa(u.line), u.text)...)
		}
	}
	return out
}

// docSynopses are the command lines a doc shows: a line that starts
// "bin/pdn " or "pdn " (after a comment's "//" and blanks), with the lines
// it continues onto (a trailing backslash) joined to it.
func docSynopses(doc string) []docBullet {
	var out []docBullet
	continues := false
	for i, line := range strings.Split(doc, "\n") {
		text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "//"))
		switch {
		case continues:
			out[len(out)-1].text += " " + text
		case strings.HasPrefix(text, "bin/pdn ") || strings.HasPrefix(text, "pdn "):
			out = append(out, docBullet{line: i + 1, text: text})
		default:
			continue
		}
		continues = strings.HasSuffix(text, "\\")
	}
	return out
}

var (
	// docBracketRE is a bracketed part of a command line, and
	// docBracketFlagRE a flag with a value in it: [-reps 10], [-shots 100
	// -seed 1]. A value that is a placeholder (DIR, N, …, a|b) states no
	// default, and docConcreteRE tells them apart.
	docBracketRE     = regexp.MustCompile(`\[([^\[\]]*)\]`)
	docBracketFlagRE = regexp.MustCompile(`(?:^|\s)-([a-z][a-z0-9-]*) ([^\s\\]+)`)
	docConcreteRE    = regexp.MustCompile(`^[a-z0-9][a-z0-9.,_-]*$`)
)

// synopsisDefaults are the defaults a command line's brackets state, for
// its command ("bin/pdn table4 … [-reps 10]").
func synopsisDefaults(where, line string) []docDefault {
	line, _, _ = strings.Cut(line, " #")
	f := strings.Fields(line)
	if len(f) < 2 {
		return nil
	}
	if _, ok := lookup(f[1]); !ok {
		return nil // sweep|table4, or no command
	}
	var out []docDefault
	for _, b := range docBracketRE.FindAllStringSubmatch(line, -1) {
		for _, m := range docBracketFlagRE.FindAllStringSubmatch(b[1], -1) {
			if docConcreteRE.MatchString(m[2]) && !strings.Contains(m[2], "...") {
				out = append(out, docDefault{where, f[1], m[1], m[2]})
			}
		}
	}
	return out
}

// docBullet is a bullet or paragraph of a doc, its lines joined by spaces.
type docBullet struct {
	line int // its first line, from 1
	text string
}

// docBullets cuts a doc into bullets and paragraphs: each starts at a
// line that opens a bullet ("- "), a heading or a blank line.
func docBullets(doc string) []docBullet {
	var out []docBullet
	for i, line := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		if len(out) == 0 || strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "#") || trimmed == "" {
			out = append(out, docBullet{line: i + 1})
		}
		u := &out[len(out)-1]
		u.text = strings.TrimSpace(u.text + " " + trimmed)
	}
	return out
}

// bulletDefaults are the defaults one bullet states, each for the
// bullet's command, or for every command where it names none.
func bulletDefaults(where, text string) []docDefault {
	var cmd, lead string
	if m := docLeadCommandRE.FindStringSubmatch(text); m != nil {
		if _, ok := lookup(m[1]); ok {
			cmd = m[1]
		}
	}
	if m := docLeadFlagRE.FindStringSubmatch(text); m != nil {
		lead = m[1]
	}
	var out []docDefault
	for _, re := range docDefaultREs {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			out = append(out, docDefault{where, cmd, m[1], m[2]})
		}
	}
	if lead != "" {
		for _, m := range docLeadDefaultRE.FindAllStringSubmatch(text, -1) {
			out = append(out, docDefault{where, cmd, lead, m[1]})
		}
	}
	return out
}

// flagsByCommand are each command's flags by name, as its parse defines
// them (commandFlags).
func flagsByCommand(t *testing.T) map[string]map[string]*flag.Flag {
	t.Helper()
	out := map[string]map[string]*flag.Flag{}
	for _, c := range commands {
		flags, _ := commandFlags(t, c.name, "-h")
		out[c.name] = map[string]*flag.Flag{}
		for _, f := range flags {
			out[c.name][f.Name] = f
		}
	}
	return out
}

// sameDefault reports whether a doc's stated value is the flag's default:
// as numbers where both are, else as text.
func sameDefault(doc, def string) bool {
	a, errA := numtext.ParseFloat(doc)
	b, errB := numtext.ParseFloat(def)
	if errA == nil && errB == nil {
		return a == b
	}
	return doc == def
}

// Every default the docs state is the binary's: the flag of the bullet's
// command (of every command that has it, in a bullet of no command) has
// that default. docs/cli.md said table4 defaults to -validation 500 long
// after the binary's default became 0.
func TestDocsStateTheFlagsDefaults(t *testing.T) {
	flags := flagsByCommand(t)
	stated := docDefaults(t)
	if len(stated) < 4 {
		t.Fatalf("found %d stated defaults in the docs; the patterns no longer read them: %+v", len(stated), stated)
	}
	for _, d := range stated {
		t.Logf("%s: %s -%s %s", d.where, orEvery(d.command), d.flag, d.value)
		checked := 0
		for _, c := range commands {
			if d.command != "" && c.name != d.command {
				continue
			}
			f, ok := flags[c.name][d.flag]
			if !ok {
				continue
			}
			checked++
			if !sameDefault(d.value, f.DefValue) {
				t.Errorf("%s: the docs say pdn %s -%s defaults to %s; the binary's default is %q", d.where, c.name, d.flag, d.value, f.DefValue)
			}
		}
		if checked == 0 {
			t.Errorf("%s: the docs state a default of -%s for %s, which has no such flag", d.where, d.flag, orEvery(d.command))
		}
	}
}

// orEvery names a bullet's command, or every command.
func orEvery(cmd string) string {
	if cmd == "" {
		return "every command"
	}
	return "pdn " + cmd
}

// The patterns read the forms the docs use, in the bullet of a command
// or of a flag, across a line break too, and the check catches a default
// that is not the binary's.
func TestDocDefaultsCatchAWrongDefault(t *testing.T) {
	flags := flagsByCommand(t)
	for _, c := range []struct {
		name, doc, cmd, flag, value string
		right                       bool
	}{
		{"a wrong value, the default", "- `table4` trains\n  (`-validation 500`, the default;", "table4", "validation", "500", false},
		{"the right value, across a line", "- `table4` trains (`-validation 0`, the\n  default);", "table4", "validation", "0", true},
		{"by default", "- `attention` trains (`-hops 5` by default)", "attention", "hops", "5", true},
		{"flag, value by default", "- `xor` trains (`-restarts` of\n  `-restart-epochs`, 50 by default,", "xor", "restart-epochs", "50", true},
		{"a flag's bullet", "- `-edge-dropout P` drops. It is **0.5 by default**, unlike", "", "edge-dropout", "0.5", false},
		{"a command line's brackets", "bin/pdn table4 -out DIR [-datasets cora,citeseer,DIR…] [-reps 5] [-json]  # Table 4", "table4", "reps", "5", false},
		{"a command line continued", "bin/pdn train -model pdn \\\n    [-init-seed N] [-hidden 32]", "train", "hidden", "32", true},
		{"main.go's doc comment", "//\tpdn sweep   -scenario K -out DIR [-reps 10] [-models pdn,gcn,…]", "sweep", "reps", "10", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []docDefault
			for _, u := range docBullets(c.doc) {
				got = append(got, bulletDefaults("doc", u.text)...)
			}
			for _, u := range docSynopses(c.doc) {
				got = append(got, synopsisDefaults("doc", u.text)...)
			}
			if len(got) != 1 || got[0].command != c.cmd || got[0].flag != c.flag || got[0].value != c.value {
				t.Fatalf("%q reads as %+v; want pdn %s -%s %s", c.doc, got, c.cmd, c.flag, c.value)
			}
			cmd := c.cmd
			if cmd == "" {
				cmd = "train"
			}
			f := flags[cmd][c.flag]
			if f == nil || sameDefault(c.value, f.DefValue) != c.right {
				t.Errorf("pdn %s -%s %s: the check says right = %v; want %v", cmd, c.flag, c.value, !c.right, c.right)
			}
		})
	}
}

// Every command line the docs show in full (no placeholder such as DIR,
// no alternatives a|b, no optional [parts]) parses as the binary parses
// it: the README's table4 line once lacked the -out it requires.
func TestDocsCommandLinesParse(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	files = append(files, filepath.Join("..", "..", "README.md"))
	placeholder := regexp.MustCompile(`[A-Z]{2,}|[|\[…]|\.\.\.`)
	checked := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range docSynopses(string(b)) {
			line, _, _ := strings.Cut(u.text, " #")
			f := strings.Fields(line)
			c, ok := lookup(f[1])
			if f[0] != "bin/pdn" || !ok || placeholder.MatchString(line) || strings.Contains(line, ";") {
				continue
			}
			checked++
			if _, err := c.parse(f[2:], io.Discard); err != nil {
				t.Errorf("%s:%d: %q: %v", filepath.Base(path), u.line, line, err)
			}
		}
	}
	if checked < 3 {
		t.Errorf("checked %d command lines; the docs show more", checked)
	}
}

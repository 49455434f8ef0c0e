package app

import (
	"slices"
	"strings"
	"unicode"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// command is what a key, or a button, asks of the page.
type command int

const (
	cmdPlay     command = iota + 1 // play or pause every run
	cmdStep                        // one epoch
	cmdReset                       // back to epoch 0
	cmdNewGraph                    // a graph from the next data seed
	cmdPresent                     // projector mode on or off
	cmdTourNext                    // the tour's next step
	cmdTourBack                    // its step before
	cmdNextNode                    // the graph view's next node
	cmdPrevNode                    // its node before
	cmdLetGo                       // no node chosen
	cmdSlower                      // train fewer epochs a second (experiment.Speeds)
	cmdFaster                      // train more epochs a second
)

// binding is one row of the key table: the keys of a command, where they
// act, and what the keys line says of them.
type binding struct {
	keys []string
	cmd  command
	// walk says the keys act on an element that walks through its items
	// (data-keys="walk": the graph view's nodes), which takes them before
	// the page does.
	walk bool
	// says is the command in the keys line, for the lab; nil for a
	// command the line leaves out (the tour's, which its panel names).
	says func(l *lab) string
}

// bindings is the one key table: the shell's one keydown listener, the
// keys line of every lab and the tests read it.
var bindings = []binding{
	{keys: []string{" ", "k"}, cmd: cmdPlay, says: playWords},
	{keys: []string{"s", "ArrowRight"}, cmd: cmdStep, says: words("step one epoch")},
	{keys: []string{"r"}, cmd: cmdReset, says: words("reset")},
	{keys: []string{"g"}, cmd: cmdNewGraph, says: newGraphWords},
	{keys: []string{"p"}, cmd: cmdPresent, says: words("projector mode")},
	{keys: []string{"-"}, cmd: cmdSlower, says: paceWords(msg("slower"))},
	{keys: []string{"+", "="}, cmd: cmdFaster, says: paceWords(msg("faster"))},
	{keys: []string{"n", "PageDown"}, cmd: cmdTourNext},
	{keys: []string{"b", "PageUp"}, cmd: cmdTourBack},
	{keys: []string{"ArrowRight"}, cmd: cmdNextNode, walk: true},
	{keys: []string{"ArrowLeft"}, cmd: cmdPrevNode, walk: true},
	{keys: []string{"Escape"}, cmd: cmdLetGo, walk: true},
}

func words(s string) func(*lab) string { return func(*lab) string { return tr(s) } }

// paceWords names a pace key where the lab trains live runs (the sweep's
// queued runs train at full speed).
func paceWords(s string) func(*lab) string {
	return func(l *lab) string {
		if len(l.runs) == 0 { // a lab that trains its runs itself (the sweep's, at full speed)
			return ""
		}
		return tr(s)
	}
}

// playWords says what Space does: one run plays, several train together.
func playWords(l *lab) string {
	switch len(l.runs) {
	case 0, 1:
		return tr("play/pause")
	case 2:
		return tr("train/pause both")
	}
	return tr("train/pause all")
}

// newGraphWords says what G draws: a real graph keeps its nodes and
// draws a new split.
func newGraphWords(l *lab) string {
	if l.st.Data.Real() {
		return tr("new split (next data seed)")
	}
	return tr("new graph (next data seed)")
}

// commandOf is the command of key, on an element that walks its items
// (walking) or anywhere else. A letter is the same key whatever the Shift
// state (keyOf): Shift+N and Caps Lock's N advance a tour as n does.
func commandOf(key string, walking bool) (command, bool) {
	key = keyOf(key)
	for _, pass := range []bool{true, false} {
		if pass && !walking {
			continue
		}
		for _, b := range bindings {
			if b.walk == pass && slices.Contains(b.keys, key) {
				return b.cmd, true
			}
		}
	}
	return 0, false
}

// keyOf is the key table's name of a key the browser names: a letter in
// lower case, whatever the Shift state or Caps Lock (the table holds its
// letters in lower case, and the keys line shows them in upper case, as
// the keyboard does). Every other key is its own name: a symbol Shift
// makes (+ on most layouts) is a key of its own, and a named key (Enter,
// ArrowRight, PageDown) keeps its case.
func keyOf(key string) string {
	if r := []rune(key); len(r) == 1 && unicode.IsLetter(r[0]) {
		return string(unicode.ToLower(r[0]))
	}
	return key
}

// keyName is a key as the keys line writes it.
func keyName(k string) string {
	switch k {
	case " ":
		return tr("Space")
	case "ArrowRight":
		return "→"
	case "ArrowLeft":
		return "←"
	}
	return strings.ToUpper(k)
}

// renderKeys is the lab's keys line, from the key table.
func (l *lab) renderKeys() app.UI {
	var parts []string
	for _, b := range bindings {
		if b.says == nil {
			continue
		}
		names := make([]string, len(b.keys))
		for i, k := range b.keys {
			names[i] = keyName(k)
		}
		says := b.says(l)
		if w, ok := l.keyWords[b.cmd]; ok {
			says = w
		}
		if says == "" {
			continue
		}
		parts = append(parts, strings.Join(names, tr(" or "))+" "+says)
	}
	return app.P().Class("keys").Text(tr("Keys: ") + strings.Join(parts, " · ") + ".")
}

// typing reports whether a key goes to a field being typed into, or to a
// slider that moves by it (arrows, Home, End, Page Up and Down), or comes
// with a modifier: then it is no shortcut.
func typing(e app.Value) bool {
	if tag := strings.ToUpper(e.Get("target").Get("tagName").String()); tag == "INPUT" || tag == "SELECT" || tag == "TEXTAREA" {
		if t := e.Get("target").Get("type").String(); t != "range" {
			return true
		}
		switch k := e.Get("key").String(); {
		case strings.HasPrefix(k, "Arrow"), k == "Home", k == "End", strings.HasPrefix(k, "Page"):
			return true
		}
	}
	return e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool()
}

// walking reports whether a key's target walks through its items.
func walking(e app.Value) bool {
	t := e.Get("target")
	return t.Truthy() && t.Get("closest").Truthy() && t.Call("closest", `[data-keys="walk"]`).Truthy()
}

// coalesce merges a burst of commands into what it amounts to: play
// toggles that cancel out, and runs of resets or of projector toggles
// that are one; every step stays an epoch and every new graph a seed.
func coalesce(cmds []command) []command {
	var out []command
	for _, c := range cmds {
		n := len(out)
		switch {
		case n > 0 && out[n-1] == c && (c == cmdPlay || c == cmdPresent):
			out = out[:n-1] // a toggle and its undoing
		case n > 0 && out[n-1] == c && c == cmdReset:
		default:
			out = append(out, c)
		}
	}
	return out
}

package experiment

import (
	"slices"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// MaxReported is how many problems one message lists before it only says
// how many more there are: a link with 50,000 bad keys must still give a
// notice that fits on the page.
const MaxReported = 8

// Problems collects what is wrong with one input (a link, a set of flags),
// keeping the first MaxReported and counting the rest. The zero value is
// ready to use.
type Problems struct {
	list []phrase.Text
	more int
}

// Add records err, if it is not nil: each of its problems, if it holds
// several (another Problems' error, or errors.Join's).
func (p *Problems) Add(err error) {
	if pe, ok := err.(*problemsError); ok {
		for _, t := range pe.list {
			p.add(t)
		}
		p.more += pe.more
		return
	}
	for _, t := range phrase.Lines(err) {
		p.add(t)
	}
}

func (p *Problems) add(t phrase.Text) {
	if len(p.list) < MaxReported {
		p.list = append(p.list, t)
	} else {
		p.more++
	}
}

// Len returns how many problems were recorded, listed or not.
func (p *Problems) Len() int { return len(p.list) + p.more }

// Err returns nil when nothing was recorded, else an error with one line
// per listed problem and, if some were not listed, a last line saying how
// many ("and 49,992 more").
func (p *Problems) Err() error {
	if p.Len() == 0 {
		return nil
	}
	return &problemsError{list: slices.Clone(p.list), more: p.more}
}

// problemsError lists problems one a line.
type problemsError struct {
	list []phrase.Text
	more int
}

func (e *problemsError) Error() string { return e.Phrase().String() }

// Phrase says the problems as a message, one a line, and how many more.
func (e *problemsError) Phrase() phrase.Text {
	lines := e.list
	if e.more > 0 {
		lines = append(lines[:len(lines):len(lines)], phrase.New("and %s more", numtext.Group(e.more)))
	}
	return phrase.List("\n", lines)
}

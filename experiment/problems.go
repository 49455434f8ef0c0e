package experiment

import (
	"fmt"
	"strings"

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
	list []string
	more int
}

// Add records err, if it is not nil.
func (p *Problems) Add(err error) {
	if err == nil {
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		if len(p.list) < MaxReported {
			p.list = append(p.list, line)
		} else {
			p.more++
		}
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
	lines := p.list
	if p.more > 0 {
		lines = append(lines[:len(lines):len(lines)], fmt.Sprintf("and %s more", numtext.Group(p.more)))
	}
	return problemsError(strings.Join(lines, "\n"))
}

type problemsError string

func (e problemsError) Error() string { return string(e) }

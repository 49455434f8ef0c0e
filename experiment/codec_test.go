package experiment

import (
	"strings"
	"testing"
)

// A link's results stand for the runs of the link's state: when a row
// they were trained with does not come through (refused, unknown, given
// twice), they are left out and said, never spread over other runs; a
// refused row no lab's runs depend on leaves them.
func TestResultsGoWithTheRowsTheyWereTrainedWith(t *testing.T) {
	for _, tc := range []struct {
		link string
		kept bool
		row  string
	}{
		{"lab=sweep&scenario=4&models=gcn&reps=1&results=1111.2222.3333.4444.5555.6666.7777", false, "models"},
		{"lab=sweep&scenario=99&results=1111", false, "scenario"},
		{"lab=sweep&reps=abc&results=1111", false, "reps"},
		{"lab=sweep&epochs=0x10&results=1111", false, "epochs"},
		{"lab=sweep&nosuch=1&results=1111", false, `"nosuch"`},
		{"lab=structure&p=0.01&p=0.02&results=1111", false, "twice p"},
		{"lab=sweep&lr=0.01&lr=0.02&results=1111", false, "twice lr"},
		{"lab=sweep&lr=bad&lr=0.02&results=1111", false, "lr"}, // the first refused: not taken
		{"lab=sweep&speed=0x10&results=1111", true, ""},
		{"lab=sweep&lang=xx&results=1111", true, ""},
		{"lab=sweep&results=1111", true, ""},
	} {
		e, err := Decode(tc.link)
		if kept := e.View.Results != ""; kept != tc.kept {
			t.Errorf("%s: results kept %v, want %v (%v)", tc.link, kept, tc.kept, err)
		}
		want := "results: left out: they were trained with the link's " + strings.Trim(tc.row, `"`)
		if row, ok := strings.CutPrefix(tc.row, "twice "); ok {
			// The first value was taken: the results may be of the other.
			want = "results: left out: the link gives " + row + " more than once, and this page took the first value of each"
		}
		if !tc.kept && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v; want %q", tc.link, err, want)
		}
	}
}

// A short link opens to the state it was written from, whatever the
// graph's recipe would give the rows it leaves out (data=cora's dropout
// 0.9 and weight decay 0.005 where the state keeps the paper's).
func TestShortLinkOpensToItsState(t *testing.T) {
	for _, link := range []string{
		"lab=graph&data=cora&dropout=0.5&weight-decay=0",
		"lab=compare&data=cora&dropout=0.5",
		"lab=graph&data=citeseer&seed=3",
		"lab=attention&data=synthetic",
		"lab=compare&tour=paper&step=2&dropout=0.1",
		"lab=sweep&scenario=2&models=pdn,gat",
	} {
		e, err := Decode(link)
		if err != nil {
			t.Fatalf("%s: %v", link, err)
		}
		short := e.EncodeShort()
		back, err := Decode(short)
		if err != nil || back.Encode() != e.Encode() {
			t.Errorf("%s: its short link %s opens to another state (%v):\n%s\nnot\n%s", link, short, err, back.Encode(), e.Encode())
		}
	}
}

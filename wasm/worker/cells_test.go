package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"testing"

	"pdnexplorer/internal/faults"
	"pdnexplorer/wasm/protocol"
)

// The page's files: Open files… hands the worker the files picked (flat
// names, or one zip), Open a folder… the folder's files under its name.
// Both are one command (protocol.OpLoad), whose files the worker reads
// through datasets.OpenFiles (the readers' "page" way, whose cells try
// every format).
var fileSurfaces = map[string]func(files map[string][]byte) []protocol.File{
	"Open files…": func(files map[string][]byte) []protocol.File {
		var out []protocol.File
		for name, b := range files {
			out = append(out, protocol.File{Name: name, Data: b})
		}
		return out
	},
	"Open a folder…": func(files map[string][]byte) []protocol.File {
		var out []protocol.File
		for name, b := range files {
			out = append(out, protocol.File{Name: "my graph/" + name, Data: b})
		}
		return out
	},
}

// TestEveryClassOnThePagesFiles is the class × surface table's part for
// the files a page opens: every class of internal/faults on Open files…
// and Open a folder…, through the worker as the page meets it (the events
// it answers with). A class added without its cells fails.
func TestEveryClassOnThePagesFiles(t *testing.T) {
	var names []string
	cells := map[faults.Key]faults.Cell{}
	for name, files := range fileSurfaces {
		names = append(names, name)
		set := func(class string, c faults.Cell) { cells[faults.Key{Class: class, Surface: name}] = c }
		try := func(f func(t *testing.T, open func(map[string][]byte, protocol.Command) protocol.Event)) faults.Cell {
			return faults.Cell{Check: func(t *testing.T) {
				f(t, func(fs map[string][]byte, cmd protocol.Command) protocol.Event {
					s, r := newTestSession()
					cmd.Op, cmd.Files = protocol.OpLoad, files(fs)
					s.handle(cmd)
					if ev, _ := r.last(protocol.KindLoaded); ev.Loaded != nil {
						return ev
					}
					ev, _ := r.last(protocol.KindError)
					return ev
				})
			}}
		}
		set(faults.Numbers, try(filesNumbers))
		set(faults.Unlabelled, try(filesUnlabelled))
		set(faults.Text, try(filesText))
		set(faults.Structure, try(filesStructure))
		set(faults.Compressed, try(filesCompressed))
		set(faults.Rows, try(filesColumns))
		set(faults.Special, faults.NA("the browser hands the page each file's bytes: no pipe, device, socket or link reaches it"))
		set(faults.Link, faults.NA("files carry no link: the link's columns they are read with are the rows' cell, and what of the state goes with another graph is the page's (lab.arrive)"))
		set(faults.Outputs, faults.NA("opening files writes nothing"))
		set(faults.Script, faults.NA("run_pyg.py's arguments are the script's own surface (pyg's cells)"))
	}
	faults.Check(t, names, cells)
}

// fileGraph is an edge list of n nodes in a ring with chords and its
// labels file, class(i) a node's class.
func fileGraph(n int, class func(i int) string) map[string][]byte {
	var edges, labels strings.Builder
	edges.WriteString("source,target,weight\n")
	labels.WriteString("node,label\n")
	for i := range n {
		fmt.Fprintf(&edges, "%d,%d,1\n%d,%d,0.5\n", i, (i+1)%n, i, (i+5)%n)
		fmt.Fprintf(&labels, "%d,%s\n", i, class(i))
	}
	return map[string][]byte{"edges.csv": []byte(edges.String()), "labels.csv": []byte(labels.String())}
}

func abc(i int) string { return []string{"a", "b", "c"}[i%3] }

func refusedNaming(t *testing.T, ev protocol.Event, what ...string) {
	t.Helper()
	if ev.Kind != protocol.KindError || !ev.Load {
		t.Fatalf("read: %+v", ev.Loaded)
	}
	for _, w := range what {
		if !strings.Contains(ev.Error, w) {
			t.Errorf("%q does not name %q", ev.Error, w)
		}
	}
}

func filesNumbers(t *testing.T, open func(map[string][]byte, protocol.Command) protocol.Event) {
	for _, bad := range []string{"0x1p-2", "Inf", "NaN", "1_0"} {
		fs := fileGraph(60, abc)
		fs["edges.csv"] = bytes.Replace(fs["edges.csv"], []byte("0,1,1\n"), []byte("0,1,"+bad+"\n"), 1)
		refusedNaming(t, open(fs, protocol.Command{}), "edges.csv:2:", bad)
	}
}

func filesUnlabelled(t *testing.T, open func(map[string][]byte, protocol.Command) protocol.Event) {
	fs := fileGraph(60, func(i int) string {
		if i%10 == 9 {
			return []string{"", "NA", "-1"}[i%3]
		}
		return abc(i)
	})
	ev := open(fs, protocol.Command{})
	if ev.Loaded == nil || ev.Loaded.Unlabelled != 6 || ev.Loaded.Classes != 3 {
		t.Fatalf("%+v %q", ev.Loaded, ev.Error)
	}
}

func filesText(t *testing.T, open func(map[string][]byte, protocol.Command) protocol.Event) {
	fs := fileGraph(60, func(i int) string { return []string{"caf\xe9", "th\xe9", "lait"}[i%3] })
	refusedNaming(t, open(fs, protocol.Command{}), "labels.csv:2:", "byte 0xE9 is not UTF-8")
	fs = fileGraph(60, abc)
	fs["labels.csv"] = bytes.ReplaceAll(fs["labels.csv"], []byte("\n"), []byte("\r"))
	if ev := open(fs, protocol.Command{}); ev.Loaded == nil || ev.Loaded.Nodes != 60 {
		t.Errorf("lines ending in CR alone: %+v %q", ev.Loaded, ev.Error)
	}
}

func filesStructure(t *testing.T, open func(map[string][]byte, protocol.Command) protocol.Event) {
	fs := fileGraph(60, abc)
	fs["labels.csv"] = append(fs["labels.csv"], []byte("7,a\n")...)
	refusedNaming(t, open(fs, protocol.Command{}), "labels.csv:62:1", `node "7" was listed on line 9 already`)
}

func filesCompressed(t *testing.T, open func(map[string][]byte, protocol.Command) protocol.Event) {
	fs := fileGraph(600, abc)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(fs["edges.csv"])
	zw.Close()
	delete(fs, "edges.csv")
	fs["edges.csv.gz"] = b.Bytes()[:b.Len()/2]
	refusedNaming(t, open(fs, protocol.Command{}), "edges.csv.gz", "cut short")
}

// filesColumns: a link's columns the files do not have are said and
// dropped, the files read with the columns the reader finds.
func filesColumns(t *testing.T, open func(map[string][]byte, protocol.Command) protocol.Event) {
	ev := open(fileGraph(60, abc), protocol.Command{Target: "nosuch"})
	said := false
	if ev.Loaded != nil {
		for _, n := range ev.Loaded.Notes {
			said = said || strings.Contains(n.String(), "the link's columns (target=nosuch) did not fit these files")
		}
	}
	if !said {
		t.Errorf("%+v %q", ev.Loaded, ev.Error)
	}
}

package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestBundleRoundTrip(t *testing.T) {
	d := defaultData()
	d.PerClass = 40
	g, err := Synthetic(d)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteBundle(dir, g); err != nil {
		t.Fatal(err)
	}
	h, err := ReadBundle(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.X, h.X) || !reflect.DeepEqual(g.EdgeX, h.EdgeX) || !reflect.DeepEqual(g.Src, h.Src) ||
		!reflect.DeepEqual(g.Dst, h.Dst) || !reflect.DeepEqual(g.Kind, h.Kind) || !reflect.DeepEqual(g.Labels, h.Labels) ||
		!reflect.DeepEqual(g.Splits, h.Splits) || g.C != h.C {
		t.Error("the bundle did not read back to the same graph, bit for bit")
	}
	if h.Meta["name"] != "synthetic" {
		t.Errorf("meta name = %v", h.Meta["name"])
	}
}

// writeFiles writes a tiny valid bundle with the given overrides.
func writeFiles(t *testing.T, over map[string]string) string {
	files := map[string]string{
		"meta.json": `{"name": "tiny", "classes": 2}`,
		"nodes.csv": "id,label,split,x0,x1\n0,0,train,1,2\n1,1,test,3,4\n2,1,val,5,6\n",
		"edges.csv": "source,target,kind,e0\n0,1,inter,0.5\n1,2,intra,1.5\n",
	}
	for k, v := range over {
		files[k] = v
	}
	dir := t.TempDir()
	for name, body := range files {
		if body == "<none>" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadBundleAcceptsTiny(t *testing.T) {
	g, err := ReadBundle(writeFiles(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if g.N != 3 || g.F != 2 || g.E() != 2 || g.D != 1 || g.C != 2 || g.Splits[2] != Val || g.Kind[1] != KindIntra {
		t.Errorf("read %v", g)
	}
	g, err = ReadBundle(writeFiles(t, map[string]string{"edges.csv": "source,target,e0,e1\n0,2,1,2\n"}))
	if err != nil || g.Kind != nil || g.D != 2 {
		t.Errorf("bundle without kind: %v, %v", g, err)
	}
}

func TestReadBundleRejects(t *testing.T) {
	for _, tc := range []struct {
		name, file, body, want string
	}{
		{"missing column", "nodes.csv", "id,label,split,x0,x1\n0,0,train,1\n", "nodes.csv:2: missing column"},
		{"extra column", "edges.csv", "source,target,kind,e0\n0,1,inter,0.5,9\n", "edges.csv:2: extra column"},
		{"non-numeric", "nodes.csv", "id,label,split,x0,x1\n0,0,train,1,abc\n", "nodes.csv:2: column x1: \"abc\" is not a number"},
		{"NaN", "edges.csv", "source,target,kind,e0\n0,1,inter,NaN\n", "edges.csv:2: column e0: \"NaN\" is not a finite number"},
		{"Inf", "nodes.csv", "id,label,split,x0,x1\n0,0,train,+Inf,1\n", "nodes.csv:2: column x0"},
		{"id out of range", "edges.csv", "source,target,kind,e0\n0,7,inter,0.5\n", "edges.csv:2: column target: 7 is out of range [0, 2]"},
		{"negative id", "edges.csv", "source,target,kind,e0\n-1,1,inter,0.5\n", "edges.csv:2: column source"},
		{"self-loop", "edges.csv", "source,target,kind,e0\n0,1,inter,1\n2,2,intra,1\n", "edges.csv:3: column target: self-loop"},
		{"repeated pair", "edges.csv", "source,target,kind,e0\n0,1,inter,1\n1,0,inter,1\n", "edges.csv:3: column target: the pair (1,0) repeats line 2"},
		{"label out of range", "nodes.csv", "id,label,split,x0,x1\n0,2,train,1,2\n", "nodes.csv:2: column label: 2 is out of range [0, 1]"},
		{"ids out of order", "nodes.csv", "id,label,split,x0,x1\n1,0,train,1,2\n", "nodes.csv:2: column id"},
		{"bad split", "nodes.csv", "id,label,split,x0,x1\n0,0,dev,1,2\n", "nodes.csv:2: column split"},
		{"bad kind", "edges.csv", "source,target,kind,e0\n0,1,both,1\n", "edges.csv:2: column kind"},
		{"bad header", "nodes.csv", "id,label,x0\n0,0,1\n", "nodes.csv:1: header must start with id,label,split"},
		{"bad feature name", "edges.csv", "source,target,e1\n0,1,1\n", "edges.csv:1: column e1: want e0"},
		{"no meta", "meta.json", "<none>", "meta.json: cannot read"},
		{"meta without name", "meta.json", `{"classes": 2}`, "meta.json: column name"},
		{"meta not json", "meta.json", `{`, "meta.json: not a JSON object"},
		{"no nodes file", "nodes.csv", "<none>", "nodes.csv: cannot open"},
		{"empty nodes", "nodes.csv", "", "nodes.csv:1: empty file"},
		{"bad quote", "edges.csv", "source,target,kind,e0\n0,1,\"inter,1\n", "edges.csv:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadBundle(writeFiles(t, map[string]string{tc.file: tc.body}))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

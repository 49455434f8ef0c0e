package datasets

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// tinyMUSAE is a valid MUSAE folder of four nodes, in the published form:
// target.csv out of order, an edge listed both ways and a self-loop.
var tinyMUSAE = map[string]string{
	"target.csv":    "id,facebook_id,page_name,page_type\n1,145647315578475,The Voice of China,tvshow\n0,145647315578476,\"Capitol, Hill\",politician\n3,1,x,company\n2,2,y,tvshow\n",
	"edges.csv":     "id_1,id_2\n0,1\n1,0\n1,2\n3,3\n2,3\n",
	"features.json": `{"0": [1, 4], "1": [4, 4, 0], "2": [], "3": [2]}`,
}

func musaeFS(over map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for k, v := range tinyMUSAE {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	for k, v := range over {
		if v == "<none>" {
			delete(fsys, k)
			continue
		}
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys
}

func TestReadMUSAE(t *testing.T) {
	fsys := musaeFS(nil)
	if !IsMUSAE(fsys) {
		t.Fatal("not recognised")
	}
	g, err := ReadMUSAEFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	// Classes by name in sorted order: company 0, politician 1, tvshow 2.
	if g.N != 4 || g.C != 3 || !reflect.DeepEqual(g.Labels, []int{1, 2, 2, 0}) {
		t.Errorf("N %d C %d labels %v", g.N, g.C, g.Labels)
	}
	if !reflect.DeepEqual(g.Src, []int32{0, 1, 2}) || !reflect.DeepEqual(g.Dst, []int32{1, 2, 3}) {
		t.Errorf("edges %v %v", g.Src, g.Dst)
	}
	want := []float64{0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}
	if g.F != 5 || !reflect.DeepEqual(g.DenseX(), want) {
		t.Errorf("F %d features %v", g.F, g.DenseX())
	}
	if got := g.Meta["class_names"]; !reflect.DeepEqual(got, []string{"company", "politician", "tvshow"}) {
		t.Errorf("class names %v", got)
	}
}

// badMUSAE are MUSAE folders a reader refuses, with the message.
var badMUSAE = []struct {
	name, file, body, want string
}{
	{"no features", "features.json", "<none>", "features.json: cannot read: missing"},
	{"features not an object", "features.json", `[1, 2]`, "features.json: want an object of node ids"},
	{"features syntax error on line 2", "features.json", "{\"0\": [1],\n\"1\": [2,,]}", "features.json:2: want an object"},
	{"feature not a node", "features.json", `{"7": [1]}`, `features.json: column 7: not a node id in [0, 3]`},
	{"feature negative", "features.json", `{"0": [-1]}`, `features.json: column 0: feature "-1" is not a whole number`},
	{"feature fractional", "features.json", `{"0": [1.5]}`, `feature "1.5" is not a whole number`},
	{"feature huge", "features.json", `{"0": [1e300]}`, `feature "1e300" is not a whole number in [0, 1048575]`},
	{"bad target header", "target.csv", "node,class\n0,a\n", "target.csv:1: header must start with id"},
	{"target id twice", "target.csv", "id,page_type\n0,a\n1,b\n0,c\n", "target.csv:4: column id: node 0 was listed on line 2 already"},
	{"target id missing", "target.csv", "id,page_type\n0,a\n2,b\n", "target.csv: node 1 is missing"},
	{"target id huge", "target.csv", "id,page_type\n2000000000,a\n", "target.csv:2:1: column id: 2000000000 is out of range"},
	{"target short row", "target.csv", "id,page_type\n0\n", "target.csv:2: missing column"},
	{"target empty", "target.csv", "id,page_type\n", "target.csv: no nodes"},
	{"bad edges header", "edges.csv", "source,target\n0,1\n", "edges.csv:1: header must be id_1,id_2"},
	{"edge not a node", "edges.csv", "id_1,id_2\n0,9\n", "edges.csv:2:3: column id_2: 9 is out of range [0, 3]"},
	{"edge not a number", "edges.csv", "id_1,id_2\nx,1\n", `edges.csv:2:1: column id_1: "x" is not a whole number`},
}

func TestReadMUSAERejects(t *testing.T) {
	for _, tc := range badMUSAE {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadMUSAEFS(musaeFS(map[string]string{tc.file: tc.body}))
			var be *BundleError
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || !errors.As(err, &be) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

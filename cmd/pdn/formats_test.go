package main

import (
	"archive/zip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFolder writes files into a new folder under parent.
func writeFolder(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// twitchFiles is a Twitch MUSAE folder: new_id is the node, mature the class.
var twitchFiles = map[string]string{
	"musae_DE_target.csv":    "id,days,mature,views,partner,new_id\n37905227,1920,True,5051,False,2\n2145,9,False,100,False,0\n55,42,True,9000,True,1\n88,100,False,7,False,3\n77,5,True,70,False,4\n66,6,False,60,True,5\n",
	"musae_DE_edges.csv":     "from,to\n0,1\n1,2\n2,3\n3,4\n4,5\n5,0\n",
	"musae_DE_features.json": `{"0": [1], "1": [2], "2": [0], "3": [1, 2], "4": [0], "5": [2]}`,
}

// Your own graph on the command line: a Twitch folder (its columns found
// or named by -id-column and -target), the same folder zipped as Finder
// zips it, a bundle whose edge columns are named layers (attention names
// them, never as tie-strength scores), and table4 on two graphs whose
// folders share a name.
func TestOwnFormatsCLI(t *testing.T) {
	root := t.TempDir()
	twitch := writeFolder(t, filepath.Join(root, "twitch"), twitchFiles)
	zipped := filepath.Join(root, "twitch.zip")
	f, _ := os.Create(zipped)
	zw := zip.NewWriter(f)
	for name, body := range twitchFiles {
		w, _ := zw.Create("twitch/" + name)
		w.Write([]byte(body))
	}
	w, _ := zw.Create("__MACOSX/twitch/._musae_DE_edges.csv")
	w.Write([]byte{0, 5, 22, 7})
	zw.Close()
	f.Close()
	train := []string{"train", "-epochs", "2", "-json", "-quiet", "-shots", "1"}
	for _, args := range [][]string{{"-data", twitch}, {"-data", twitch, "-target", "partner"}, {"-data", twitch, "-id-column", "new_id", "-target", "3"}, {"-data", zipped}} {
		out, errOut, code := runCLI(t, append(train, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if res := lastJSON(t, out); res["nodes"] != float64(6) {
			t.Errorf("%v: %v", args, res)
		}
	}
	_, errOut, code := runCLI(t, append(train, "-data", twitch, "-target", "maturity")...)
	if code == 0 || !strings.Contains(errOut, "musae_DE_target.csv:1: column maturity: no such column (target names it)") {
		t.Errorf("a column that is not there: exit %d: %s", code, errOut)
	}
	_, errOut, code = runCLI(t, append(train, "-data", "synthetic", "-target", "mature")...)
	if code == 0 || !strings.Contains(errOut, "target") {
		t.Errorf("-target on a generated graph: exit %d: %s", code, errOut)
	}

	movies := writeFolder(t, filepath.Join(root, "movies"), map[string]string{
		"meta.json": `{"name": "movies", "class_names": ["action", "drama"]}`,
		"nodes.csv": "id,label,split,x0\n0,0,train,1\n1,1,train,0\n2,0,test,1\n3,1,test,0\n4,0,test,1\n5,1,test,0\n",
		"edges.csv": "source,target,MAM,MDM\n0,2,1,0\n1,3,0,1\n2,4,1,1\n3,5,0,1\n0,5,1,0\n",
	})
	out, errOut, code := runCLI(t, "attention", "-datasets", movies, "-reps", "1", "-epochs", "2", "-out", filepath.Join(root, "att"), "-json")
	if code != 0 {
		t.Fatalf("attention: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "MAM") || !strings.Contains(out, "MDM") || strings.Contains(out, "adamic-adar") {
		t.Errorf("attention on named layers:\n%s", out)
	}

	a := writeFolder(t, filepath.Join(root, "a", "g"), twitchFiles)
	b := writeFolder(t, filepath.Join(root, "b", "g"), twitchFiles)
	out, errOut, code = runCLI(t, "table4", "-datasets", a+","+b, "-reps", "1", "-epochs", "2", "-models", "gcn", "-shots", "1", "-out", filepath.Join(root, "t4"), "-json")
	if code != 0 {
		t.Fatalf("table4: exit %d: %s", code, errOut)
	}
	var sum struct {
		Graphs  []string                  `json:"graphs"`
		Results map[string]map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(out[strings.LastIndex(strings.TrimRight(out, "\n"), "\n")+1:]), &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Graphs) != 2 || sum.Graphs[0] == sum.Graphs[1] || len(sum.Results) != 2 {
		t.Errorf("two graphs named g: %v, %v", sum.Graphs, sum.Results)
	}
}

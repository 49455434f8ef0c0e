package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

// A hidden folder (a dot name: the output writer's own .pdn-out, a .git)
// is never the graph's, on disk as in a zip or a dropped folder: a folder
// holding only one holds nothing (an interrupted pdn gen leaves just its
// .pdn-out; audit 2026-11-28 case 119 then read the writer's lock and
// runs/ as the files), and a graph beside one is read.
func TestHiddenFoldersAreNotTheGraphs(t *testing.T) {
	root := t.TempDir()
	put := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("interrupted/.pdn-out/lock", "")
	put("interrupted/.pdn-out/runs/1/nodes.csv", "id,label,split\n0,0,tr")
	put("git/.git/HEAD", "ref: refs/heads/main\n")
	for name, body := range tinyMUSAE {
		put("beside/.git/"+name, body)
		put("beside/graph/"+name, body)
	}
	d := experiment.Default().Data
	for _, dir := range []string{"interrupted", "git"} {
		_, err := Load(filepath.Join(root, dir), d, false)
		if err == nil || !strings.Contains(err.Error(), "the files hold nothing, which is not a graph") {
			t.Errorf("%s, holding only a hidden folder: %v", dir, err)
		}
	}
	if g, err := Load(filepath.Join(root, "beside"), d, false); err != nil || g.N != 4 {
		t.Errorf("a graph beside a hidden folder: %v", err)
	}
	files := []File{{Name: "interrupted/.pdn-out/lock"}, {Name: "interrupted/.pdn-out/runs/1/nodes.csv", Data: []byte("id,label,split\n")}}
	if _, _, err := OpenFiles(files, Columns{}); err == nil || !strings.Contains(err.Error(), "the files hold nothing") {
		t.Errorf("a dropped folder holding only a hidden folder: %v", err)
	}
}

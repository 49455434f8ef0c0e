package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The audit of 28 November 2026 tried 194 cases on the explorer as a new
// user and a tester of bad input would; testdata/audit-2026-11-28.jsonl
// holds the 184 it published, one JSON object a line (id, surface,
// action, observed, class). Every case has a test that asserts what the
// explorer does with it now, the clear message or the right result:
// audit1128Tests (audit1128cover_test.go) names them, and
// TestAudit1128IsCovered keeps the names in step with the file and the
// tests that exist. The command-line cases no other test asserts are the
// rows of audit1128CLI below, each on files built to the case's
// description (smaller, where the size was not the point).

// audit1128Case is one command-line case: args (DIR/name is the file or
// folder audit1128Files made of that name), and the exit status and the
// texts wanted on stderr (status 2) or stdout (status 0). A train row
// runs with -quiet -json -epochs 2 unless it sets them (-json=false for
// the plain report).
type audit1128Case struct {
	id   int
	args []string
	code int
	want []string
}

// audit1128CLI are the command-line rows, by audit id.
func audit1128CLI() []audit1128Case {
	rows := []audit1128Case{
		// Number syntax: an edit's value is decimal, as every number is.
		{1, []string{"train", "-epochs", "1", "-edits", "s0-2f0~0x1p-2"}, 2, []string{`edit 1 ("s0-2f0~0x1p-2"): "0x1p-2" is not a decimal number`, "s12-40f5~0.8 (set feature 5 to 0.8)"}},
		{1, []string{"train", "-epochs", "1", "-edits", "s0-2f0~Inf"}, 2, []string{`edit 1 ("s0-2f0~Inf"): "Inf" is not a decimal number`}},
		{23, []string{"train", "-data", "DIR/readme_top.zip"}, 0, []string{`"nodes":30`}},
		{35, []string{"merge", "-out", "DIR/mb", "DIR/bad"}, 2, []string{`a.shard-1-of-1.json: not a shard file of pdn sweep or pdn table4 (its command is "")`}},
		{42, []string{"train", "-epochs", "1", "-edits", strings.TrimSuffix(strings.Repeat("a0-700_", 101), "_")}, 2, []string{"for flag -edits: 101 edits; at most 100"}},
		{42, []string{"train", "-epochs", "1", "-edits", strings.Repeat("a0-1_", 40) + "x"}, 2, []string{`edit 41 ("x"): an edit starts with a (add), r (remove) or s (set)`}},
		{61, []string{"train", "-data", "DIR/bundle", "-target", "nosuchcolumn"}, 2, []string{`-target (target in a link) "nosuchcolumn": a bundle has no columns to choose (its classes are nodes.csv's label, its nodes its id): leave it out`}},
		{61, []string{"train", "-data", "DIR/bundle", "-id-column", "nosuch"}, 2, []string{`-id-column (id-column in a link) "nosuch": a bundle has no columns to choose`}},
		{61, []string{"train", "-data", "DIR/ogb", "-target", "nosuch"}, 2, []string{`-target (target in a link) "nosuch": an OGB folder has no columns to choose`}},
		{80, []string{"train", "-data", "DIR/wts", "-json=false"}, 0, []string{"20 nodes, 20 edges, 2 classes, F=3, D=2"}},
		{83, []string{"train", "-data", "DIR/gml_rep"}, 0, []string{"gml_rep.graphml: dropped 0 self-loops and 9 pairs listed again"}},
		{83, []string{"train", "-data", "DIR/gml_dir"}, 0, []string{"gml_dir.graphml: dropped 0 self-loops and 50 pairs listed again"}},
		{86, []string{"train", "-data", "DIR/musae_pub"}, 0, []string{`"nodes":30`}},
		{87, []string{"train", "-data", "DIR/selfloop"}, 0, []string{"edges.csv: dropped 2,000 self-loops"}},
		{87, []string{"train", "-data", "DIR/repeat"}, 2, []string{"edges.csv:", "repeat a pair or join a node to itself: is this an edge list?"}},
		{91, []string{"train", "-data", "DIR/npzdir"}, 2, []string{"amazon_photo.npz: is not a .npz file the explorer can read (numpy's zip of .npy arrays)"}},
		// The claims' flags.
		{101, []string{"claims", "-only", "nosuch"}, 2, []string{`flag -only: no claim "nosuch"; want some of inter-fades, pdn-beats-gcn`}},
		{103, []string{"claims", "-seeds", "-1", "-only", "nosuch"}, 2, []string{"flag -seeds: -1 is not allowed; want [0, 100]"}},
		{105, []string{"claims", "-with", "nosuch=1"}, 2, []string{`flag -with: "nosuch" is not a row the engine reads`}},
		{106, []string{"claims", "-with", "dropout=0x1p-1"}, 2, []string{`flag -with: dropout: "0x1p-1" is not allowed; want [0, 0.95]`}},
		{106, []string{"claims", "-with", "lr=NaN"}, 2, []string{`flag -with: lr: "NaN" is not allowed; want [1e-06, 10]`}},
		{108, []string{"claims", "-with", "data=/nonexistent", "-only", "q-high", "-seeds", "1"}, 2, []string{`flag -with: data: "/nonexistent" is not allowed; want one of synthetic, xor, scale-free, multiplex, cora, citeseer, local`}},
		{111, []string{"claims", "-json", "-only", "q-high", "-seeds", "1"}, 0, []string{`{"all_hold":`, `"claims":[{"id":"q-high"`, `"with":""}`}},
		// structure's flags.
		{112, []string{"structure"}, 2, []string{"flag -out: a directory is required"}},
		{112, []string{"structure", "-out", "DIR/afile"}, 2, []string{`afile" is a file; want a directory`}},
		{113, []string{"structure", "-out", "DIR/st", "-models", ""}, 2, []string{`flag -models: "" is not allowed; want 2 to 4 of pdn, pdn-linear`}},
		{113, []string{"structure", "-out", "DIR/st", "-models", "foo"}, 2, []string{`flag -models: "foo" is not allowed; want 2 to 4 of`}},
		{114, []string{"structure", "-out", "DIR/st", "-workers", "0"}, 2, []string{"flag -workers: 0 is not allowed; want [1, 64]"}},
		{114, []string{"structure", "-out", "DIR/st", "-workers", "-3"}, 2, []string{"flag -workers: -3 is not allowed; want [1, 64]"}},
		{118, []string{"gen", "-out", "DIR/mine4", "-per-class", "16"}, 2, []string{`mine4" holds "nodes.csv", which pdn did not write: choose a new or empty folder, or add -force`}},
		// What an interrupted gen leaves (its .pdn-out alone) opens as nothing.
		{119, []string{"train", "-data", "DIR/interrupted"}, 2, []string{"the files hold nothing, which is not a graph: open a bundle"}},
		// bins.
		{127, []string{"train", "-data", "DIR/cham", "-bins", "5"}, 0, []string{"the column target, a measurement, was cut by quantile into 5 classes of 30 to 30 nodes (bins)"}},
		{128, []string{"train", "-data", "DIR/cham", "-bins", "1"}, 2, []string{"target.csv: column target: bins=1 makes one class, which leaves nothing to learn; allowed: 2 to 20"}},
		{129, []string{"train", "-data", "DIR/tw", "-bins", "5"}, 2, []string{`target.csv:2: column mature: holds "true", which is no number: bins=5 cuts a column of numbers into classes`}},
		{130, []string{"train", "-bins", "5"}, 2, []string{"flag -bins: graph synthetic does not read it (only local (your own files) reads it)"}},
		{130, []string{"train", "-data", "DIR/bundle", "-bins", "3"}, 2, []string{`-bins (bins in a link) "3": a bundle has no columns to choose`}},
		// Perturbations, the graph a model trains over, the models.
		{133, []string{"train", "-perturb", "add-edges", "-perturb-rate", "1e-400"}, 2, []string{"flag -perturb: read only when perturb-rate is above 0", "perturb-rate is 0"}},
		{133, []string{"train", "-perturb", "add-edges", "-perturb-rate", " 0.5", "-per-class", "16"}, 0, []string{`"model":"pdn"`}},
		{137, []string{"train", "-perturb", "mask-features", "-perturb-rate", "1", "-per-class", "16"}, 0, []string{`"model":"pdn"`}},
		{138, []string{"train", "-perturb", "Add-Edges"}, 2, []string{`invalid value "Add-Edges" for flag -perturb: want one of none, add-edges, add-inter, drop-edges, mask-features`}},
		{140, []string{"train", "-model", "gcn", "-graph-from", "PDN"}, 2, []string{`invalid value "PDN" for flag -graph-from: want one of input, pdn`}},
		{144, []string{"train", "-data", "cora", "-model", "sage"}, 0, []string{`"model":"sage"`, `"nodes":2708`}},
		{144, []string{"train", "-data", "cora", "-model", "cheb"}, 0, []string{`"model":"cheb"`, `"nodes":2708`}},
		{145, []string{"train", "-data", "cora", "-model", "sage", "-perturb", "drop-edges", "-perturb-rate", "1"}, 2, []string{"the graph has no edges: perturb drop-edges at perturb-rate 1 dropped them all, and model sage passes messages along edges: lower perturb-rate, or use model mlp"}},
		{146, []string{"train", "-model", "cheb", "-per-class", "64", "-hidden", "512", "-epochs", "1"}, 0, []string{`"model":"cheb"`}},
		// Numbers in files: decimal only, named by file, line and column.
		{184, []string{"train", "-data", "DIR/bundle_hex"}, 2, []string{`nodes.csv:2:11: column x0: "0x1p-2" is not a decimal number`}},
		{185, []string{"train", "-data", "DIR/plain_hexw"}, 2, []string{`edges.csv:7:5: column weight: "0x1p-2" is not a decimal number`}},
		{186, []string{"train", "-data", "DIR/plain_hexf"}, 0, []string{`labels.csv: column score holds text (\"0x1p-2\" on line 9), so it is no node feature`}},
		{193, []string{"structure", "-data", "DIR/cham", "-out", "DIR/st_ch0", "-epochs", "2", "-models", "gcn,mlp"}, 2, []string{
			"target.csv: column target: holds 150 different whole numbers that are not class numbers 0 to K-1",
			"cut this one into K classes by quantile with -bins K (bins=K in a link)", "target cut by quantile with -bins 5 (5 classes:", `nothing was written into "`}},
		{193, []string{"structure", "-data", "DIR/cham", "-out", "DIR/st_ch5", "-bins", "5", "-epochs", "2", "-models", "gcn,mlp"}, 0, []string{"wrote 6 files"}},
	}
	// -shard takes i/n and nothing else (32).
	for _, s := range []string{"0/3", "4/3", "1/0", "a/b", "1/3/", "-1/3", "1/100001", "2", "", "1/3x", "1.0/3"} {
		rows = append(rows, audit1128Case{32, []string{"sweep", "-scenario", "4", "-reps", "1", "-models", "gcn", "-shard", s, "-out", "DIR/x"}, 2,
			[]string{fmt.Sprintf("invalid value %q for flag -shard: want i/n, the i-th of n parts, 1 ≤ i ≤ n ≤ 100000 (as 2/8)", s)}})
	}
	// -bins and -perturb-rate: decimal, in their range (128, 132).
	for _, b := range []string{"21", "-1", "NaN", "0x5", "2.5", ""} {
		rows = append(rows, audit1128Case{128, []string{"train", "-data", "DIR/cham", "-bins", b}, 2, []string{fmt.Sprintf("invalid value %q for flag -bins: want a whole number in [0, 20]", b)}})
	}
	for _, r := range []string{"1.5", "-0.1", "NaN", "Inf", "0x1p-1", ""} {
		rows = append(rows, audit1128Case{132, []string{"train", "-perturb", "add-edges", "-perturb-rate", r}, 2, []string{fmt.Sprintf("invalid value %q for flag -perturb-rate: want [0, 1]", r)}})
	}
	return rows
}

// audit1128Files writes the rows' files under root.
func audit1128Files(t *testing.T, root string) {
	t.Helper()
	put := func(name string, files map[string][]byte) { putTree(t, filepath.Join(root, name), files) }
	tw := twitchFolder(30)
	top := map[string][]byte{"README.md": []byte("# data\n")}
	names := []string{"README.md"}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range tw {
			if !yield(k) {
				return
			}
		}
	}) {
		top["data/twitch/"+k] = tw[k]
		names = append(names, "data/twitch/"+k)
	}
	put("", map[string][]byte{"readme_top.zip": zipOf(t, names, top), "afile": []byte("not a folder\n")})
	put("bad", map[string][]byte{"a.shard-1-of-1.json": []byte(`{"x":1}`)})
	put("bundle", bundleAudit(40, ""))
	put("bundle_hex", bundleAudit(40, "0x1p-2"))
	put("ogb", ogbFolder(t, 60, false))
	put("tw", twitchFolder(60))
	put("cham", chameleon(150))
	pub := map[string][]byte{}
	for k, v := range tw {
		pub["musae_ENGB_"+k] = v
	}
	put("musae_pub", pub)
	put("npzdir", map[string][]byte{"amazon_photo.npz": []byte("PK\x03\x04not really")})
	put("mine4", map[string][]byte{"nodes.csv": []byte("keep\n")})
	put("interrupted", map[string][]byte{".pdn-out/lock": nil, ".pdn-out/runs/1/nodes.csv": []byte("id,label,split\n0,0,tr")})

	// Edge lists and labels files.
	labels := []byte("node,label\n" + labelRows(20, ",", classOf2))
	weighted := func(extra string, line7 string) []byte {
		var b strings.Builder
		b.WriteString("source,target,weight" + extra + "\n")
		for i := range 20 {
			w := "0.5"
			if i == 5 && line7 != "" {
				w = line7
			}
			fmt.Fprintf(&b, "%d,%d,%s", i, (i+1)%20, w)
			if extra != "" {
				b.WriteString(",1700000000")
			}
			b.WriteString("\n")
		}
		return []byte(b.String())
	}
	put("wts", map[string][]byte{"edges.csv": weighted(",timestamp", ""), "labels.csv": labels})
	put("plain_hexw", map[string][]byte{"edges.csv": weighted("", "0x1p-2"), "labels.csv": labels})
	score := "node,label,score\n" + labelRows(20, ",", func(i int) string {
		if i == 7 { // line 9
			return "1,0x1p-2"
		}
		return fmt.Sprintf("%d,0.%d", i%2, i)
	})
	put("plain_hexf", map[string][]byte{"edges.csv": weighted("", ""), "labels.csv": []byte(score)})
	loops := twitchFolder(8000) // 2,000 self-loops among 8,000 edges, as among Twitch's 35,324
	for k := range 2000 {
		loops["edges.csv"] = append(loops["edges.csv"], fmt.Sprintf("%d,%d\n", k*4, k*4)...)
	}
	put("selfloop", loops)
	again := twitchFolder(60)
	again["edges.csv"] = append(again["edges.csv"], strings.Repeat("0,1\n", 40000)...)
	put("repeat", again)

	// GraphML: pairs listed again, undirected and directed.
	rep := graphML(60, true, false)
	var more strings.Builder
	for i := range 9 {
		fmt.Fprintf(&more, `<edge source="%d" target="%d"><data key="weight">1.0</data></edge>`+"\n", i+1, i) // the ring's i–i+1 again
	}
	put("gml_rep", map[string][]byte{"gml_rep.graphml": []byte(strings.Replace(rep, "</graph>", more.String()+"</graph>", 1))})
	more.Reset()
	for i := range 50 {
		fmt.Fprintf(&more, `<edge source="%d" target="%d"><data key="weight">1.0</data></edge>`+"\n", i+1, i)
	}
	dir := strings.Replace(rep, `edgedefault="undirected"`, `edgedefault="directed"`, 1)
	put("gml_dir", map[string][]byte{"gml_dir.graphml": []byte(strings.Replace(dir, "</graph>", more.String()+"</graph>", 1))})
}

// bundleAudit is a bundle of n nodes (classes i%2, a feature x0, a ring of
// edges with one edge feature); x0, if not "", is node 0's x0 as written.
func bundleAudit(n int, x0 string) map[string][]byte {
	var nodes, edges strings.Builder
	nodes.WriteString("id,label,split,x0\n")
	for i := range n {
		v := strconv.Itoa(i % 5)
		if i == 0 && x0 != "" {
			v = x0
		}
		split := "test"
		if i < n/2 {
			split = "train"
		}
		fmt.Fprintf(&nodes, "%d,%d,%s,%s\n", i, i%2, split, v)
	}
	edges.WriteString("source,target,e0\n")
	for i := range n {
		fmt.Fprintf(&edges, "%d,%d,1\n", i, (i+1)%n)
	}
	return map[string][]byte{"meta.json": []byte(`{"name": "mydata"}`), "nodes.csv": []byte(nodes.String()), "edges.csv": []byte(edges.String())}
}

// TestAudit1128CLI runs the command-line rows, a subtest by audit id.
func TestAudit1128CLI(t *testing.T) {
	root := t.TempDir()
	audit1128Files(t, root)
	for _, c := range audit1128CLI() {
		t.Run(strconv.Itoa(c.id), func(t *testing.T) {
			got, code := runAuditCase(t, root, c.args)
			for _, w := range c.want {
				if code != c.code || !strings.Contains(got, w) {
					t.Errorf("audit case %d, pdn %q: exit %d, %s\nwant exit %d and %q", c.id, c.args, code, strings.TrimSpace(got), c.code, w)
				}
			}
		})
	}
	// The refused gen kept the user's file (118).
	if b, _ := os.ReadFile(filepath.Join(root, "mine4", "nodes.csv")); string(b) != "keep\n" {
		t.Errorf("audit case 118: mine4/nodes.csv is now %q", b)
	}
}

// Audit case 41: a table4 job of one run in 7 shards: shards 2 to 7 hold
// no run and say so, and merge gives one machine's table4.csv, byte for
// byte.
func TestAudit1128Table4InSevenShards(t *testing.T) {
	root := t.TempDir()
	job := []string{"table4", "-datasets", "cora", "-reps", "1", "-models", "gcn", "-epochs", "2"}
	whole, shards, merged := filepath.Join(root, "whole"), filepath.Join(root, "shards"), filepath.Join(root, "merged")
	if _, errOut, code := runCLI(t, append(job, "-out", whole)...); code != 0 {
		t.Fatalf("the whole job: exit %d: %s", code, errOut)
	}
	for i := 1; i <= 7; i++ {
		out, errOut, code := runCLI(t, append(job, "-shard", fmt.Sprintf("%d/7", i), "-out", shards)...)
		runs := "1 runs"
		if i > 1 {
			runs = "0 runs"
		}
		if code != 0 || !strings.Contains(out, fmt.Sprintf("table4, shard %d/7: %s", i, runs)) {
			t.Errorf("shard %d/7: exit %d: %s%s", i, code, out, errOut)
		}
	}
	if out, errOut, code := runCLI(t, "merge", "-out", merged, shards); code != 0 {
		t.Fatalf("merge: exit %d: %s%s", code, out, errOut)
	}
	a, errA := os.ReadFile(filepath.Join(whole, "table4.csv"))
	b, errB := os.ReadFile(filepath.Join(merged, "table4.csv"))
	if errA != nil || errB != nil || string(a) != string(b) {
		t.Errorf("the merged table4.csv differs from one machine's (%v, %v):\n%s\n%s", errA, errB, a, b)
	}
}

// Audit case 163: make bench-compare on a working tree with a change not
// committed builds BASE and the tree as it is, compares them row by row,
// and leaves no worktree of BASE behind. Run on a repository of its own,
// with a go that builds benchmarks that print fixed lines (the script's
// GO), so that nothing is built or timed.
func TestAudit1128BenchCompareOnADirtyTree(t *testing.T) {
	for _, need := range []string{"bash", "git"} {
		if _, err := exec.LookPath(need); err != nil {
			t.Skipf("no %s to run scripts/bench-compare.sh", need)
		}
	}
	script, err := os.ReadFile(filepath.Join("..", "..", "scripts", "bench-compare.sh"))
	if err != nil {
		t.Fatal(err)
	}
	repo, bin := filepath.Join(t.TempDir(), "repo"), t.TempDir()
	putTree(t, repo, map[string][]byte{"scripts/bench-compare.sh": script, "pdn/doc.go": []byte("package pdn\n")})
	fakeGo := filepath.Join(bin, "go")
	putTree(t, bin, map[string][]byte{"go": []byte(`#!/bin/sh
# install: a benchstat that names its inputs; test -c -o OUT: a benchmark binary.
case "$1" in
install) mkdir -p "$GOBIN" && printf '#!/bin/sh\necho benchstat "$@"\n' >"$GOBIN/benchstat" && chmod +x "$GOBIN/benchstat" ;;
test) printf '#!/bin/sh\necho "BenchmarkEpochGCN-2 1 1000 ns/op"\n' >"$4" && chmod +x "$4" ;;
*) exit 3 ;;
esac
`)})
	if err := os.Chmod(fakeGo, 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.org"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	putTree(t, repo, map[string][]byte{"pdn/doc.go": []byte("package pdn\n\n// dirty\n")})
	cmd := exec.Command("bash", "scripts/bench-compare.sh", "HEAD")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GO="+fakeGo, "ROUNDS=1", "BENCHTIME=1x")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "and the working tree") || !regexp.MustCompile(`BenchmarkEpochGCN-2 +1000 +1000 +1\.00x`).Match(out) {
		t.Errorf("bench-compare BASE=HEAD on a dirty tree: %v\n%s", err, out)
	}
	if list := git("worktree", "list"); strings.Count(strings.TrimSpace(list), "\n") != 0 {
		t.Errorf("a worktree was left behind:\n%s", list)
	}
}

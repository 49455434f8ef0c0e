package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pdnexplorer/experiment"
)

// claimsReport is `pdn claims -json`'s last line.
type claimsReport struct {
	Claims  []claimResult `json:"claims"`
	AllHold bool          `json:"all_hold"`
}

func runClaims(t *testing.T, args ...string) (claimsReport, int, string) {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"claims", "-json"}, args...)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var r claimsReport
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Fatalf("claims -json: %v (exit %d: %s)", err, code, errOut)
	}
	return r, code, errOut
}

// Every claim the explorer states holds at its rate at the defaults, over
// the seeds its row gives the test: the claims are checked on every change.
func TestEveryClaimHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("trains every claim's runs")
	}
	r, code, errOut := runClaims(t, "-test")
	checks := experiment.ChecksOf(experiment.Claims)
	if len(r.Claims) != len(checks) {
		t.Fatalf("%d checks reported, the table has %d", len(r.Claims), len(checks))
	}
	for i, c := range r.Claims {
		k := checks[i]
		switch {
		case c.ID != k.Claim.ID || c.Family != k.Family.Name:
			t.Errorf("check %d is %s on %s, want %s on %s", i, c.ID, c.Family, k.Claim.ID, k.Family.Name)
		case k.Family.Folder != "":
			// Read from a folder no test has: listed, never run, never held.
			if c.NotRun == "" || c.Holds || len(c.PerSeed) > 0 {
				t.Errorf("claim %s on %s without its folder: %+v; want listed as not run", c.ID, c.Family, c)
			}
		case !c.Holds:
			t.Errorf("claim %s on %s does not hold as the page states it (%s): held in %d of %d seeds, wanted %s: %+v", c.ID, c.Family, c.Stated, c.Held, c.Seeds, c.Rate, c.PerSeed)
		}
	}
	if !r.AllHold || code != 0 {
		t.Errorf("all_hold %v, exit %d: %s", r.AllHold, code, errOut)
	}
}

// A default that breaks a finding fails its claim: at the bag-of-words
// recipe's dropout of 0.9 the attention lab's multi-scale PDN weighs the
// second hop most (Figure 7 upside down), and the command says so. (Figure
// 8, read on the scaled scores, holds at 0.9 too.)
func TestClaimFailsUnderABrokenDefault(t *testing.T) {
	r, code, errOut := runClaims(t, "-only", "fig7-first-hop", "-family", "cora", "-seeds", "2", "-with", "dropout=0.9")
	if len(r.Claims) != 1 || r.Claims[0].Holds || r.AllHold {
		t.Fatalf("Figure 7's claim holds at dropout 0.9: %+v", r.Claims)
	}
	if code != 1 || !strings.Contains(errOut, "fig7-first-hop") {
		t.Errorf("exit %d, %q: want 1 naming the claim", code, errOut)
	}
}

func TestClaimsFlagsAreChecked(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"-only nosuch", "no claim"},
		{"-with lab=graph", "not a row the engine reads"},
		{"-with dropout=2", "dropout"},
		{"-seeds 1000", "flag -seeds: 1000 is not allowed; want [0, 100]"},
		{"-family nosuch", "no family"},
		{"-family cora,cora", "named twice"},
		{"-folder cora=x", "not a family read from a folder"},
		{"-folder facebook", "not NAME=DIR"},
		{"-folder facebook=a -folder facebook=b", "given twice"},
		{"-folder facebook=", "not NAME=DIR"},
	} {
		_, errOut, code := runCLI(t, append([]string{"claims"}, strings.Fields(tc.args)...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("claims %s: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// A family read from a folder is refused when the folder holds another
// kind of graph: the default synthetic graph, written by pdn gen, calls
// for the paper's recipe, not the social graph's bag-of-words one, and
// its checks would not be the family's.
func TestClaimsRefuseAFolderOfAnotherFamily(t *testing.T) {
	dir := t.TempDir() + "/g"
	if _, errOut, code := runCLI(t, "gen", "-out", dir, "-per-class", "16"); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	_, errOut, code := runCLI(t, "claims", "-only", "inter-fades", "-family", "facebook", "-seeds", "1", "-folder", "facebook="+dir)
	if code != 2 || !strings.Contains(errOut, "recipe") || !strings.Contains(errOut, "facebook") {
		t.Errorf("exit %d, %q; want 2 naming the recipe and the family", code, errOut)
	}
}

// claims -with reads a row as a link reads it: by the name a link once
// gave it too (graph= for data=), so a state that opens as a link is
// checked as it opens; the old and the new name together are one row
// given twice.
func TestClaimsWithReadsRowsAsALink(t *testing.T) {
	aliases := experiment.RenamedRows()
	if len(aliases) == 0 {
		t.Fatal("no renamed rows: this test walks them")
	}
	for old, now := range aliases {
		p, _ := experiment.Lookup(now)
		v := p.Default
		if p.Choices != nil {
			v = p.Choices[len(p.Choices)-1]
		}
		want, err := withRows(experiment.Default(), now+"="+v)
		if err != nil {
			t.Fatalf("%s=%s: %v", now, v, err)
		}
		got, err := withRows(experiment.Default(), old+"="+v)
		if err != nil || got.Encode() != want.Encode() {
			t.Errorf("-with %s=%s: %v, state %q; want read as %s=%s, %q", old, v, err, got.Encode(), now, v, want.Encode())
		}
		if _, err := withRows(experiment.Default(), old+"="+v+"&"+now+"="+v); err == nil || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("-with %s and %s: %v; want one row given twice", old, now, err)
		}
	}
}

// The same graph trains to the same bits however it arrives: the default
// synthetic graph written by pdn gen, with the generator's mark taken out
// of its meta.json, gets the same recipe and accuracy as generated.
func TestSameGraphSameDefaultsHoweverItArrives(t *testing.T) {
	dir := t.TempDir() + "/g"
	if _, errOut, code := runCLI(t, "gen", "-out", dir); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	stripGeneratorMark(t, dir)
	var got []map[string]any
	for _, data := range []string{"synthetic", dir} {
		out, errOut, code := runCLI(t, "train", "-data", data, "-json", "-quiet")
		if code != 0 {
			t.Fatalf("train -data %s: %s", data, errOut)
		}
		got = append(got, lastJSON(t, out))
	}
	for _, k := range []string{"test_accuracy", "w_intra", "w_inter", "recipe", "dropout", "weight_decay"} {
		if got[0][k] != got[1][k] {
			t.Errorf("%s: generated %v, from plain files %v", k, got[0][k], got[1][k])
		}
	}
	if got[0]["recipe"] != experiment.RecipePaper {
		t.Errorf("recipe %v", got[0]["recipe"])
	}
	cora := t.TempDir() + "/cora"
	if _, errOut, code := runCLI(t, "gen", "-data", "cora", "-out", cora); code != 0 {
		t.Fatalf("gen cora: %s", errOut)
	}
	out, errOut, code := runCLI(t, "train", "-data", cora, "-json", "-quiet", "-epochs", "2")
	if m := lastJSON(t, out); code != 0 || m["recipe"] != experiment.RecipeBagOfWords || m["dropout"] != 0.9 {
		t.Errorf("Cora from files: exit %d %s, %v", code, errOut, m)
	}
}

// stripGeneratorMark takes "generator" out of the bundle's meta.json, as
// the official code's data and any plain files come.
func stripGeneratorMark(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "meta.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["generator"]; !ok {
		t.Fatalf("pdn gen wrote no generator mark: %v", m)
	}
	delete(m, "generator")
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

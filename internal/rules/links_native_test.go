//go:build !js

package rules

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// This test asks the go command which packages the page links, so it runs
// natively only (under Node there is no go command to run).

// speakThroughOthers are the packages the page's programs link whose
// errors are not made as phrases by the words rule, each with why: a new
// package linked into the page must join pageSpeakers or say here why
// its errors never reach the page in English.
var speakThroughOthers = map[string]string{
	"datasets":             "its readers' errors are phrases (internal/input's located errors); binary.go's are of the worker's own handoff, said inside a phrase by wasm/worker",
	"internal/input":       "its errors are located phrases; its few sentinels are worded by the readers that meet them",
	"pdn":                  "its refusals are phrases (cost.go, train.go); vectors.go's are the command line's environment, regraph.go's a state the worker refuses in a phrase",
	"pdn/internal/kernels": "it makes no error a user sees: a helper's death ends the worker, said by the page",
	"wasm/protocol":        "a message it cannot unpack is a fault of the page's own, said inside the phrase 'bad message from the engine'",
	"wasm/ui":              "the page's main makes no error; site.go's are the site command's, natively",
	"i18n/phrase":          "it is the phrases",
	"edgekind":             "it makes no error",
	"tiestrength":          "it makes no error",
	"xorstate":             "it makes no error",
	"internal/numtext":     "its errors are phrases",
	"internal/fmath":       "it makes no error",
	"internal/pagemem":     "it makes no error",
	"internal/tsne":        "it makes no error",
	"viz/force":            "it makes no error",
}

// Every package the page's programs (the worker and the page's own) link
// either makes its errors as phrases (pageSpeakers) or says why its
// errors never reach the page in English (speakThroughOthers).
func TestEveryPackageThePageLinksSaysItsErrors(t *testing.T) {
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-tags=noasm,simd128", "-deps", "./wasm/worker", "./wasm/ui")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		dir, ok := strings.CutPrefix(pkg, "pdnexplorer/")
		if !ok {
			continue
		}
		if !slices.Contains(pageSpeakers, dir) && speakThroughOthers[dir] == "" {
			t.Errorf("the page links %s, which is neither in pageSpeakers nor says in speakThroughOthers why its errors never reach the page in English", pkg)
		}
	}
}

//go:build !js

package datasets

import (
	"io/fs"
	"slices"
	"testing"
)

// The shipped folder holds a folder for each shipped graph with exactly
// ShippedFiles, and the licence: the page's engine fetches those files
// and no others, and the site's build writes what this folder holds.
func TestShippedFolderIsWhatThePageFetches(t *testing.T) {
	var want, got []string
	for _, g := range shippedGraphs {
		for _, f := range ShippedFiles {
			want = append(want, g+"/"+f)
		}
	}
	want = append(want, "LICENSE.planetoid")
	err := fs.WalkDir(Shipped(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			got = append(got, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("the shipped folder holds %v, want %v", got, want)
	}
	for _, g := range shippedGraphs {
		if _, err := ShapeOfBuiltin(g); err != nil {
			t.Errorf("%s: %v", g, err)
		}
	}
	if _, err := Builtin("karate"); err == nil {
		t.Errorf("a graph the explorer does not ship was opened")
	}
}

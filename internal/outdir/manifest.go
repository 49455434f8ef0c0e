package outdir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Meta is the hidden folder in an output folder where the writer keeps its
// manifest, locks, and the files of runs not yet committed. Readers of
// graphs skip hidden folders.
const Meta = ".pdn-out"

// ManifestFile is the manifest's name in Meta.
const ManifestFile = "manifest.json"

// Manifest is what the writer put in a folder: each file it put in place,
// by its path in the folder (with /), and the runs that wrote them.
type Manifest struct {
	Files map[string]Entry   `json:"files"`
	Runs  map[string]RunInfo `json:"runs"`
}

// Entry is one file the writer put in place.
type Entry struct {
	Part   string `json:"part"`
	Run    string `json:"run"` // a key of Manifest.Runs
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// ModTime is the file's modification time (ns) once written: a file
	// of the same size and time is taken as unchanged without hashing it.
	ModTime int64 `json:"mtime_ns"`
	// Holds says what the file's run made of the folder, where it is the
	// folder's alone (Options.Exclusive: "a graph bundle").
	Holds string `json:"holds,omitempty"`
}

// RunInfo says which run wrote files.
type RunInfo struct {
	holder
	Committed string `json:"committed"`
}

// ReadManifest reads the manifest of the output folder dir: an empty one
// where the writer never committed a run there.
func ReadManifest(dir string) (Manifest, error) {
	return readManifest(filepath.Join(dir, Meta))
}

func readManifest(meta string) (Manifest, error) {
	m := Manifest{Files: map[string]Entry{}, Runs: map[string]RunInfo{}}
	b, err := os.ReadFile(metaPath(meta, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, &RefusedError{Msg: metaPath(meta, ManifestFile) + " is not the writer's manifest (" + err.Error() + "); move it away to write into this folder"}
	}
	if m.Files == nil {
		m.Files = map[string]Entry{}
	}
	if m.Runs == nil {
		m.Runs = map[string]RunInfo{}
	}
	return m, nil
}

// writeManifest replaces the manifest whole (a new file renamed over it),
// keeping only the runs its files name.
func writeManifest(meta string, m Manifest) error {
	used := map[string]bool{}
	for _, e := range m.Files {
		used[e.Run] = true
	}
	for id := range m.Runs {
		if !used[id] {
			delete(m.Runs, id)
		}
	}
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	return replaceFile(metaPath(meta, ManifestFile), append(b, '\n'))
}

// replaceFile writes data to path under a temporary name, syncs it and
// renames it over path.
func replaceFile(p string, data []byte) error {
	tmp := p + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err := errors.Join(err, f.Close()); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(filepath.Dir(p))
	return nil
}

// syncDir makes a folder's renames durable, where the system allows.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func metaPath(meta string, parts ...string) string {
	return filepath.Join(append([]string{meta}, parts...)...)
}

// fileSum is a file's SHA-256 in hex.
func fileSum(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// unchanged reports whether the file at p is still as e records it.
func unchanged(p string, info fs.FileInfo, e Entry) bool {
	if !info.Mode().IsRegular() || info.Size() != e.Size {
		return false
	}
	if info.ModTime().UnixNano() == e.ModTime {
		return true
	}
	sum, err := fileSum(p)
	return err == nil && sum == e.SHA256
}

// Foreign is a file or folder in an output folder that the writer did not
// write (or that was changed since it did).
type Foreign struct {
	Name    string // its path in the folder, with /; a folder's ends with /
	Changed bool   // the writer wrote it, and it was changed since
}

// maxForeign bounds the walk for files the writer did not write: enough
// to name a few and say there are more.
const maxForeign = 1000

// foreign lists what dir holds that m does not account for: a file not in
// m or changed since, or a folder holding no file of m (named whole,
// never walked). It stops after maxForeign.
func foreign(dir string, m Manifest) ([]Foreign, error) {
	var out []Foreign
	folders := map[string]bool{} // the folders m's files lie in
	for name := range m.Files {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			folders[d] = true
		}
	}
	var walk func(rel string) error
	walk = func(rel string) error {
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			if rel == "" && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		for _, de := range entries {
			if len(out) >= maxForeign {
				return nil
			}
			name := path.Join(rel, de.Name())
			if rel == "" && de.Name() == Meta {
				continue
			}
			p := filepath.Join(dir, filepath.FromSlash(name))
			if de.IsDir() && folders[name] {
				if err := walk(name); err != nil {
					return err
				}
				continue
			}
			e, mine := m.Files[name]
			info, err := de.Info()
			switch {
			case err != nil:
				continue // gone as we looked
			case de.IsDir():
				out = append(out, Foreign{Name: name + "/"})
			case !mine:
				out = append(out, Foreign{Name: name})
			case !unchanged(p, info, e):
				out = append(out, Foreign{Name: name, Changed: true})
			}
		}
		return nil
	}
	err := walk("")
	slices.SortFunc(out, func(a, b Foreign) int { return strings.Compare(a.Name, b.Name) })
	return out, err
}

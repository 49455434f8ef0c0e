package datasets

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing/fstest"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/pagemem"
)

// MaxLocalBytes bounds the files a page may open as its own graph, packed
// or unpacked: the browser must hold the files, the parsed graph and the
// model at once (package pagemem).
const MaxLocalBytes = pagemem.FileBytes

// pageGunzipLimit bounds what a .gz file in the page inflates to.
const pageGunzipLimit = pagemem.GunzipBytes

// MaxPageEdges bounds the edges of a graph the page reads, counted while
// it reads them: where the graph alone would fill the page's memory
// (pagemem.Edges).
const MaxPageEdges = pagemem.Edges

// pageCells bounds the cells of a node table the page holds as text, and
// what the numbers a file gives (node features, edge features) hold while
// they are read is half the page's memory, each reader's bytes a value
// counted (valuesAt; readingLimits): a gzip member of 2,708 lines of
// 60,000 zeros (321 kB) is refused at its first line, not after it has
// filled the worker's memory. Cora's 3.9 million features fit either way.
const pageCells = 8 << 20

// Bytes a value each reader holds at the peak of the heap while it reads
// a file's numbers, measured in a review of issue 58 (runtime.MemStats at
// GOGC=5): MUSAE's features.json as a map of raw JSON lists, its entries
// and the CSR made of them, 104 (4 million indices of an 8 MB file peaked
// at 416 MB); an OGB table's slice grown by append and copied into the
// graph, 20 for node-feat and 29 for edge-feat; a bundle's features.csv,
// its 32-byte entries and the CSR. An array read whole (a .npz's, a
// Matrix Market array's) holds its values, their column indices and the
// graph's copy: 24, counted, not measured.
const (
	musaeValueBytes = 104
	ogbValueBytes   = 29
	csvValueBytes   = 48
	arrayValueBytes = 24
)

// valuesAt is how many numbers a file may give where each holds each bytes
// while it is read.
func (l limits) valuesAt(each int) int { return l.valueBytes / each }

// pageElements bounds the nodes and edges the page holds as items while
// it reads a graph's file (GraphML, GEXF, node-link JSON: held.go). The
// files stream, but what each node and edge becomes until the graph is
// made (a graphmlItem, its values and their lines in maps of their own,
// then its row of the node table) takes 0.5 to 1.5 kB at the peak of the
// heap. Measured (runtime.ReadMemStats' HeapAlloc sampled every
// millisecond while Open reads the file with the page's limits, less the
// file's own bytes; two to four runs each), for (a) N nodes without
// values, (b) N/2 nodes and N/2 edges with a value each:
//
//	           a, 1M        b, 300k      b, 500k      b, 1M
//	GraphML    0.45-0.57 GB 0.39-0.45 GB 0.67-0.71 GB 1.34-1.56 GB
//	GEXF       0.47-0.58 GB 0.38-0.43 GB 0.63-0.65 GB 1.45-1.47 GB
//	node-link  0.53-0.57 GB 0.28-0.32 GB 0.48-0.49 GB 1.06-1.15 GB
//	edge list  -            0.05 GB      0.08-0.10 GB 0.15-0.16 GB
//
// So a GraphML file within the page's 64 MB bound (3 million tiny nodes,
// 62 MB: 1.95 GB; or (b) with 1 million, 59 MB) would not pass a
// worker's memory (then 1 GiB, pdn.BrowserLimits), and 500,000 (0.70 to 0.74
// GB with the file) left too little beside it. 300,000 peak at 0.41 to
// 0.47 GB with the file, and a file past them (its items let go at the
// budget, the rest only counted) at no more. Facebook Page-Page's
// 193,293 (22,470 nodes and 170,823 edges) fit, at 0.17 to 0.28 GB. An
// edge list and a labels file (the edge list row) hold no items.
const pageElements = 300_000

// pageItemBytes bounds what the nodes and edges the page holds as items
// take with their values (held.go): its estimate, from each reader's
// measured costs (itemCost), at the peak of the heap. With a file of the
// page's 64 MB beside them (its bound then), 420 MB kept the peak at
// about 0.5 GB, half of what the worker then allowed; the bound on files
// is now 128 MB, and the budget a fifth of what a graph and its models
// may hold (pagemem.Bytes). Measured as pageElements' table, with the file,
// two runs, for files whose estimate is 0.99 times the budget (opened)
// and 1.01 times it (refused where it passes, the items let go), by what
// each node gives (values, and edges a node):
//
//	                          GraphML      GEXF         node-link
//	31 values, 1 edge         0.42-0.43 GB 0.36 GB      0.41 GB       opened
//	                          0.39 GB      0.33 GB      0.37-0.38 GB  refused
//	61 values, 0.2 edge       0.41-0.45 GB 0.38 GB      0.41-0.42 GB  opened
//	                          0.39-0.40 GB 0.45 GB      0.43-0.45 GB  refused
//	5 of 500 keys, 1 edge     0.41-0.42 GB 0.39-0.43 GB 0.39-0.43 GB  opened
//	                          0.05 GB      0.05-0.06 GB 0.04-0.05 GB  refused
//	2 values, 6 edges of 3    -            0.42-0.48 GB -             opened
//	                          -            0.38-0.39 GB -             refused
//
// (files of 54, 57 and 7 MB in GraphML, 63, 67, 9 and 59 MB in GEXF, 39,
// 42 and 5 MB in node-link JSON; where a row has none, the count of nodes
// and edges, pageElements, is met first). Before this budget, 85,000 nodes
// of 31 values and 85,000 edges (GraphML, 73 MB) peaked at 0.71 GB, and
// 140,000 nodes of 40 in node-link JSON (68 MB) at 1.33 GB: both are now
// refused at 0.39-0.46 GB. Facebook Page-Page with 30 values a node
// besides its class (22,470 nodes, 170,823 edges) opens, estimated at 289
// MB in GraphML, 320 MB in GEXF and 252 MB in node-link JSON (31%, 24% and
// 40% to spare: up to 51, 46 and 60 values a node), and peaks at 0.28,
// 0.30-0.35 and 0.27-0.29 GB. With its 4,714 features as keys, each node
// giving about 16, its node table would be 106 million cells, which peaked
// at 3.7 GB: it is refused near its 2,870th node, at 0.05-0.08 GB.
const pageItemBytes = 420_000_000

// maxZipEntries bounds the files of an archive: a graph is a handful.
const maxZipEntries = 10000

// maxZipDepth bounds zips inside zips: one, as a mail attachment of a download.
const maxZipDepth = 1

// File is one file the user opened: its name (with the folders it was
// dropped in, if any) and its bytes.
type File struct {
	Name string
	Data []byte
}

// limits bound what a set of files may unpack to and what reading them
// may hold, so that a limit is met while reading, before memory is spent.
// A file is read as it streams (a zip's files too, inflated as they are
// read) within gunzip bytes; only what cannot stream is held whole, within
// held bytes: a zip archive named on the command line (its directory is
// at its end) or inside another, a GraphML file named alone, a JSON file.
type limits struct {
	bytes, gunzip int64
	held          int64
	valueBytes    int // what a file's numbers hold while read (valuesAt)
	cells         int // node-table cells held
	edges         int // distinct edges
	elements      int // nodes and edges held as items till the graph is made (held.go)
	itemBytes     int // the estimate of what they take at the peak of the heap (held.go)
	where         phrase.Text
	last          bool // no reader elsewhere reads more: tooMany sends nowhere
}

var pageLimits = readingLimits(pagemem.Bytes, limits{bytes: MaxLocalBytes, gunzip: pageGunzipLimit, held: MaxLocalBytes, edges: MaxPageEdges, elements: pageElements, where: phrase.New("the browser")})

// readingLimits sets, in lim, the bounds on what reading a file may hold
// before its graph is made, where a graph and its models may hold
// memBytes at their peak: the bytes of the numbers it gives (valueBytes),
// the node table's cells, and the items a GraphML, GEXF or node-link file
// holds, as the page's bounds (pagemem.ValueBytes, pageCells,
// pageItemBytes) scaled from the page's memory to memBytes. The one rule for every place
// a file is read: the command line had none, and a labels file of 40
// lines of 8 million cells (623 kB gzipped) held 10.7 GB before its
// reader failed for memory.
func readingLimits(memBytes int64, lim limits) limits {
	scale := func(n int) int { return int(float64(n) * (float64(memBytes) / pagemem.Bytes)) }
	lim.valueBytes, lim.cells, lim.itemBytes = scale(pagemem.ValueBytes), scale(pageCells), scale(pageItemBytes)
	return lim
}

// limitedFS is a folder read within limits.
type limitedFS struct {
	input.FS
	lim limits
}

// limitedTo is fsys read within lim.
func limitedTo(fsys fs.FS, lim limits) limitedFS { return limitedFS{input.FS{FS: fsys}, lim} }

func (l limitedFS) limits() limits { return l.lim }

// anywhere are the limits of the explorer's own bounds (MaxNodes), which
// no reader exceeds, for tooMany.
func anywhere(lim limits) limits {
	lim.last, lim.where = true, phrase.New("the explorer")
	return lim
}

// limiter is a folder read within limits.
type limiter interface{ limits() limits }

// limitsOf are the limits fsys is read within: the command line's unless
// it says otherwise.
func limitsOf(fsys fs.FS) limits {
	if l, ok := fsys.(limiter); ok {
		return l.limits()
	}
	return nativeLimits
}

// tooMany says a file holds more of something (what: "more than N
// numbers") than is read here, and what to do: open it with the command
// line, which reads more, or, where nothing reads more (the command
// line's limits, or the explorer's own bounds, as MaxNodes), keep a part.
// It is said at line:col, where the caller knows them (0 where not).
func tooMany(file string, line, col int, lim limits, what phrase.Text) error {
	if lim.last {
		return &BundleError{File: file, Line: line, Col: col, Msg: phrase.New("holds %s, more than %s reads: keep a part of the graph (the nodes you study and the edges between them) in a file of its own, and open that", what, lim.where)}
	}
	return &BundleError{File: file, Line: line, Col: col, Msg: phrase.New("holds %s, more than %s reads: the command line, pdn train -data, reads it", what, lim.where)}
}

// FilesFS is the folder the user's files make: the files themselves (a
// dropped folder's paths kept below its top folder), or the contents of a
// zip archive opened alone, as people make them: under one top folder or
// none, with macOS's __MACOSX/ and hidden files ignored, a zip inside a
// zip opened. Where the files hold one graph in a folder, that folder is
// the root. It refuses more than MaxLocalBytes, in all or unpacked, two
// files of one name, a zip beside other files, names that leave the
// archive, and two graphs at once.
func FilesFS(files []File) (fs.FS, error) {
	return filesFS(files, pageLimits)
}

func filesFS(files []File, lim limits) (fs.FS, error) {
	total := int64(0)
	for _, f := range files {
		total += int64(len(f.Data))
	}
	if total > lim.bytes {
		return nil, &BundleError{File: files[0].Name, Msg: phrase.New("the files hold %s; the explorer opens up to %s", phrase.Bytes(total), phrase.Bytes(lim.bytes))}
	}
	for _, f := range files {
		if isZip(f.Name) {
			if len(files) > 1 {
				return nil, &BundleError{File: baseName(f.Name), Msg: phrase.New("a zip archive is unpacked only when it is opened alone, and it came with %d other files: open the zip by itself, or the graph's files without it", len(files)-1)}
			}
			return unzip(baseName(f.Name), f.Data, lim, 0)
		}
	}
	m := fstest.MapFS{}
	for _, f := range files {
		name, skip, err := entryName(f.Name)
		if err != nil {
			return nil, &BundleError{File: f.Name, Msg: phrase.Of(err)}
		}
		if skip {
			continue
		}
		if _, dup := m[name]; dup {
			return nil, &BundleError{File: name, Msg: phrase.New("given twice; open one folder's files at a time")}
		}
		m[name] = &fstest.MapFile{Data: f.Data, Mode: 0o444}
	}
	return rootOf("the files", m, lim, 0)
}

func isZip(name string) bool { return strings.EqualFold(path.Ext(name), ".zip") }

func baseName(name string) string { return path.Base(strings.ReplaceAll(name, "\\", "/")) }

// entryName cleans a file's path as a folder holds it; skip says it is
// not the graph's (a hidden file, macOS's __MACOSX/ copies, a folder).
func entryName(name string) (clean string, skip bool, err error) {
	raw := strings.ReplaceAll(name, "\\", "/")
	if strings.HasSuffix(raw, "/") {
		return "", true, nil
	}
	for _, part := range strings.Split(raw, "/") {
		if part == ".." {
			return "", false, phrase.Errorf("the name %s leaves its folder (..): refused", quote(name))
		}
		if hiddenName(part) {
			return "", true, nil
		}
	}
	clean = strings.TrimLeft(path.Clean("/"+raw), "/")
	return clean, clean == "", nil
}

// hiddenName says a file or folder of that name is not the graph's, in a
// zip or a folder alike: a hidden one (a dot name: .DS_Store, a .git, the
// output writer's own .pdn-out) or macOS's __MACOSX/ copies.
func hiddenName(name string) bool {
	return name == "__MACOSX" || strings.HasPrefix(name, ".") && name != "."
}

// shownEntries are the entries of dir in fsys that may be the graph's,
// hidden ones left out: a folder holding only the writer's .pdn-out (an
// interrupted gen's) holds nothing, not the writer's files.
func shownEntries(fsys fs.FS, dir string) []fs.DirEntry {
	entries, _ := input.ReadDir(fsys, dir)
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool { return hiddenName(e.Name()) })
}

// unzip opens a zip archive's files, depth zips deep, as a folder whose
// files are inflated as they are read (input.ZipFS), never unpacked whole:
// their declared sizes are checked first (against lim.bytes, what the page
// may unpack), and each file is refused while it inflates past lim.gunzip,
// as a .gz file is. The archive itself is held in memory (data).
func unzip(name string, data []byte, lim limits, depth int) (fs.FS, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && err != zip.ErrInsecurePath {
		return nil, &BundleError{File: name, Msg: phrase.New("is not a zip archive the explorer can read: %s", err)}
	}
	if len(zr.File) > maxZipEntries {
		return nil, &BundleError{File: name, Msg: phrase.New("holds %s files; a graph is a handful (at most %s)", numtext.Group(len(zr.File)), numtext.Group(maxZipEntries))}
	}
	var unpacked uint64
	for _, zf := range zr.File {
		unpacked += zf.UncompressedSize64
	}
	if unpacked > uint64(lim.bytes) {
		return nil, &BundleError{File: name, Msg: phrase.New("unpacks to %s; the explorer opens up to %s", phrase.Bytes(min(unpacked, 1<<62)), phrase.Bytes(lim.bytes))}
	}
	files := map[string]*zip.File{}
	for _, zf := range zr.File {
		clean, skip, err := entryName(zf.Name)
		if err != nil {
			return nil, &BundleError{File: name, Msg: phrase.Of(err)}
		}
		if skip || zf.FileInfo().IsDir() {
			continue
		}
		if _, dup := files[clean]; dup {
			return nil, &BundleError{File: name, Msg: phrase.New("holds the name %s twice, as two files: which is the graph's cannot be told: zip the graph's files again", plainOrQuoted(clean))}
		}
		files[clean] = zf
	}
	if len(files) == 0 {
		return nil, &BundleError{File: name, Msg: phrase.New("is empty (or holds only folders and hidden files): zip the graph's files")}
	}
	zfs, err := input.NewZipFS(name, files, lim.gunzip)
	if err != nil {
		return nil, located(err)
	}
	return rootOf(name, zfs, lim, depth)
}

// rootOf finds the graph in the files fsys: at their root, under a single
// top folder, in a zip that is the only file, or in the one folder that
// holds a graph. It names what it found when that is none or several.
func rootOf(what string, fsys fs.FS, lim limits, depth int) (fs.FS, error) {
	for {
		entries := shownEntries(fsys, ".")
		if len(entries) == 1 && entries[0].IsDir() && !namedAsFile(entries[0].Name()) {
			sub, err := input.Sub(fsys, entries[0].Name())
			if err != nil {
				return nil, &BundleError{File: what, Msg: phrase.Of(err)}
			}
			fsys = sub
			continue
		}
		if len(entries) == 1 && isZip(entries[0].Name()) {
			if depth+1 > maxZipDepth {
				return nil, &BundleError{File: entries[0].Name(), Msg: phrase.New("a zip inside a zip inside a zip: unpack it first")}
			}
			if info, err := entries[0].Info(); err == nil && info.Size() > lim.held {
				return nil, tooLargeToHold(entries[0].Name(), info.Size(), lim)
			}
			b, err := readBytes(fsys, entries[0].Name(), lim.held)
			if err != nil {
				return nil, err
			}
			return unzip(entries[0].Name(), b, lim, depth+1)
		}
		break
	}
	root := limitedTo(fsys, lim)
	if _, ok := formatOf(root); ok {
		return root, nil // Open refuses another graph below it
	}
	graphs := graphFolders(fsys, ".", maxGraphDepth, new(int))
	switch len(graphs) {
	case 0:
		return root, nil // Open names what it holds
	case 1:
		sub, _ := input.Sub(fsys, graphs[0])
		return limitedTo(sub, lim), nil
	}
	slices.Sort(graphs)
	return nil, &BundleError{File: what, Msg: phrase.New("holds %d graphs (%s): open one graph at a time", len(graphs), someOf(folderNames(graphs)))}
}

// folderNames are the names of folders as a message shows them: graph/.
func folderNames(dirs []string) []string {
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = plainOrQuoted(d) + "/"
	}
	return out
}

// tooLargeToHold refuses a file that must be held whole in memory to be
// read (a zip archive, a GraphML file named alone) and is larger than the
// limit: a folder is read as its files stream.
func tooLargeToHold(name string, size int64, lim limits) error {
	return &BundleError{File: name, Msg: phrase.New("is a file of %s, and %s holds at most %s in memory to read one file whole (a zip archive, or a file named alone): unzip it, and open the folder, whose files are read as they stream", phrase.Bytes(min(size, 1<<62)), lim.where, phrase.Bytes(min(lim.held, 1<<62)))}
}

// maxGraphDepth is how many folders down rootOf looks for a graph: a
// download's README beside data/twitch/ holds it two down.
const maxGraphDepth = 3

// maxFoldersLooked bounds the folders rootOf reads looking for a graph,
// so that a path to a home folder is answered at once.
const maxFoldersLooked = 200

// graphFolders lists the folders under dir, depth deep, that hold a graph
// (not looking inside one that does), reading at most maxFoldersLooked;
// skip are folders of dir that are not looked in (a format's own: an OGB
// folder's raw/, which holds its raw files as a graph of its own).
func graphFolders(fsys fs.FS, dir string, depth int, looked *int, skip ...string) []string {
	if depth == 0 || *looked >= maxFoldersLooked {
		return nil
	}
	*looked++
	var out []string
	for _, e := range shownEntries(fsys, dir) {
		if !e.IsDir() || slices.Contains(skip, e.Name()) {
			continue // nor a link to a folder: a link to its own folder would loop
		}
		name := path.Join(dir, e.Name())
		sub, err := input.Sub(fsys, name)
		if err != nil {
			continue
		}
		if _, ok := formatOf(sub); ok {
			out = append(out, name)
			continue
		}
		out = append(out, graphFolders(fsys, name, depth-1, looked)...)
	}
	return out
}

// OpenFiles reads the user's files as a graph ready to train, as Load
// reads a folder (see FilesFS for the forms they may take). resplit says
// the graph came without a split, so ShotSplit must draw one.
func OpenFiles(files []File, cols Columns) (g *Graph, resplit bool, err error) {
	if len(files) == 0 {
		return nil, false, &BundleError{Msg: phrase.New("no files: open %s", phrase.New(Formats))}
	}
	fsys, err := FilesFS(files)
	if err != nil {
		return nil, false, err
	}
	return Open(fsys, cols)
}

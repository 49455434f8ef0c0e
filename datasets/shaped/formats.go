package shaped

import (
	"bytes"
	"compress/gzip"
	"strconv"
)

// Files is the graph in the files its shape's graph is published as: a
// MUSAE folder for sparse features, an OGB folder for dense ones.
func (g *Graph) Files() []File {
	if g.Sparse != nil {
		return g.MUSAE()
	}
	return g.OGB()
}

// MUSAE is the graph as its authors publish Facebook Page-Page:
// musae_NAME_target.csv (id,facebook_id,page_name,page_type), _edges.csv
// (id_1,id_2) and _features.json ({"0": [3, 17, …], …}). It needs a
// sparse shape.
func (g *Graph) MUSAE() []File {
	prefix := "musae_" + g.Shape.Name + "_"
	var target, edges, feats bytes.Buffer
	target.WriteString("id,facebook_id,page_name,page_type\n")
	for i, c := range g.Class {
		b := strconv.AppendInt(target.AvailableBuffer(), int64(i), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, 100000000000000+7919*int64(i), 10)
		b = append(b, ",Page "...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ',')
		b = append(b, g.className(c)...)
		target.Write(append(b, '\n'))
	}
	edges.WriteString("id_1,id_2\n")
	writePairs(&edges, g.Pairs)
	feats.WriteByte('{')
	for i, row := range g.Sparse {
		if i > 0 {
			feats.WriteString(", ")
		}
		b := append(feats.AvailableBuffer(), '"')
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, "\": ["...)
		for j, f := range row {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendInt(b, int64(f), 10)
		}
		feats.Write(append(b, ']'))
	}
	feats.WriteByte('}')
	return []File{
		{prefix + "target.csv", target.Bytes()},
		{prefix + "edges.csv", edges.Bytes()},
		{prefix + "features.json", feats.Bytes()},
	}
}

// OGB is the graph as the Open Graph Benchmark publishes a node-property
// task: headerless gzipped CSVs under raw/ (edge, node-label, node-feat,
// num-node-list) and split/random/ (train, valid, test) when the shape
// has a split. It needs a dense shape.
func (g *Graph) OGB() []File {
	var edge, label, feat, count bytes.Buffer
	writePairs(&edge, g.Pairs)
	for _, c := range g.Class {
		label.Write(strconv.AppendInt(label.AvailableBuffer(), int64(c), 10))
		label.WriteByte('\n')
	}
	f := g.Shape.Features
	for i := range g.Shape.Nodes {
		b := feat.AvailableBuffer()
		for j, x := range g.Dense[i*f : (i+1)*f] {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, float64(x), 'f', 6, 32)
		}
		feat.Write(append(b, '\n'))
	}
	count.WriteString(strconv.Itoa(g.Shape.Nodes) + "\n")
	files := []File{
		{"raw/edge.csv.gz", gz(edge.Bytes())},
		{"raw/node-label.csv.gz", gz(label.Bytes())},
		{"raw/node-feat.csv.gz", gz(feat.Bytes())},
		{"raw/num-node-list.csv.gz", gz(count.Bytes())},
	}
	if g.Split == nil {
		return files
	}
	var parts [3]bytes.Buffer
	for i, s := range g.Split {
		parts[s].Write(strconv.AppendInt(parts[s].AvailableBuffer(), int64(i), 10))
		parts[s].WriteByte('\n')
	}
	for k, name := range []string{"train", "valid", "test"} {
		files = append(files, File{"split/random/" + name + ".csv.gz", gz(parts[k].Bytes())})
	}
	return files
}

// writePairs writes one u,v line a pair.
func writePairs(w *bytes.Buffer, pairs [][2]int32) {
	for _, p := range pairs {
		b := strconv.AppendInt(w.AvailableBuffer(), int64(p[0]), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p[1]), 10)
		w.Write(append(b, '\n'))
	}
}

// gz is data gzipped, as OGB ships its files.
func gz(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data) // a bytes.Buffer does not fail
	w.Close()
	return b.Bytes()
}

// Package pagemem is what the page's engine worker may hold, stated once:
// the reader of a user's files (package datasets), the engine's cost model
// (pdn.BrowserLimits), the protocol's bound on files and the worker take
// their bounds from here, so that no bound on a graph the page opens is a
// constant of its own.
//
// The worker is a Go program in WebAssembly: one linear memory of at most
// 4 GiB (wasm32), which Go's collector, left alone, grows to twice the
// live heap. So the worker sets Go's memory limit to GoLimit, and the
// collector works harder near it instead of doubling: a Go program in
// WebAssembly kept 3.1 GB live under a 3.5 GiB limit, and failed to
// allocate past 4 GiB without one. Of that, Bytes is what the cost model
// lets a graph and the models trained on it hold at their peak; the rest
// is for the graph handed over in its binary form, what reading it leaves
// for the collector, and the views' snapshots. The user's files are held
// by the page and read by the reader worker, whose memory holds them and
// the graph it reads from them, and no model.
//
// The graph's own bytes per edge are the cost model's (GraphEdgeBytes),
// and the most edges a page reads, Edges, is where the graph alone would
// fill Bytes with the tie-strength scores the page computes over a graph
// whose files bring no edge features: a reader stops there, before it
// holds more, and the cost model refuses each model whose epoch or memory
// the browser cannot afford on a smaller graph before it is built.
package pagemem

// GoLimit is the worker's Go memory limit (debug.SetMemoryLimit).
const GoLimit = 3584 << 20

// Bytes is the memory a graph and the models trained on it may hold at
// their peak in the page (pdn.BrowserLimits.MaxBytes).
const Bytes = 2 << 30

// NativeBytes is the memory a graph and the models trained on it may hold
// at their peak on the command line (pdn.NativeLimits.MaxBytes). Its
// readers' bounds on what a file may make them hold before the graph is
// made (package datasets, readingLimits) are the page's, scaled from Bytes
// to it: a file whose reading alone would pass what the command line
// allows is refused at the line that passes it, not after.
const NativeBytes = 8 << 30

// FileBytes bounds the files the page opens, in all, packed or not: an
// ogbn-arxiv-sized OGB folder is 91 MB, its features gzipped text. The
// page reads them into its own memory (and keeps them while their graph
// is open, to be read again with other columns), and the reader worker
// reads them: a sixteenth of Bytes.
const FileBytes = Bytes / 16

// GunzipBytes bounds what one gzipped file in the page inflates to. The
// text streams (it is never held whole), so this bounds the time a file
// that inflates without end takes; what its numbers become is bounded by
// ValueBytes, its edges by Edges: ogbn-arxiv's features inflate from 84 MB to
// 206 MB, and a gigabyte inflates in seconds.
const GunzipBytes = 1 << 30

// EdgeBytes is what a graph holds per edge besides its edge features:
// its two ends and their index (9 bytes), and the map the graph's check
// keeps of every pair while it looks for repeats (64).
const EdgeBytes = 9 + 64

// TieStrengthScores is the edge features the page computes over a graph
// whose files bring none (datasets.TieStrengthNames, which a test keeps
// equal).
const TieStrengthScores = 11

// GraphEdgeBytes is what a graph holds per edge with d edge features of
// float64 each.
func GraphEdgeBytes(d int) int { return EdgeBytes + 8*d }

// Edges is the most edges the page reads: a graph of as many, with the
// tie-strength scores, holds Bytes by its edges alone.
const Edges = Bytes / (EdgeBytes + 8*TieStrengthScores)

// ValueBytes bounds what the numbers one of a user's files gives (node or
// edge features) hold at the peak of the heap while it is read: half of
// Bytes. Each reader holds its own bytes a value (package datasets), so
// the count it reads is this over those.
const ValueBytes = Bytes / 2

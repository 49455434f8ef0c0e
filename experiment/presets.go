package experiment

// Preset is a situation of the paper one click away: a link (a lab and the
// rows that differ from its defaults) and what it shows.
type Preset struct {
	Name, Title, Link string
}

// Presets are the named situations the explorer offers, in the order a
// lesson would take them.
var Presets = []Preset{
	{"default", "The paper's default: inter-class edges fade", "lab=graph"},
	{"sigma-d-1", "σD = 1: nothing for the pathfinder to learn", "lab=compare&models=pdn,gcn&sigma-d=1"},
	{"q-high", "Q high: PDN far above GCN", "lab=compare&models=pdn,gcn&per-class=128&q=0.0625"},
	{"xor", "XOR needs a hidden layer", "lab=xor"},
	{"degree", "GAT's weights shrink with degree", "lab=degree"},
	{"attention", "A real graph's attention (Cora)", "lab=attention"},
}

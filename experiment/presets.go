package experiment

import "slices"

// Preset is a situation of the paper one click away: a link (a lab and the
// rows that differ from its defaults) and what it shows.
type Preset struct {
	Name, Title, Link string
}

// Presets are the named situations the explorer offers, in the order a
// lesson would take them.
var Presets = slices.DeleteFunc([]Preset{
	{"default", "The paper's default: inter-class edges fade", "lab=graph"},
	{"sigma-d-1", "σD = 1: nothing for the pathfinder to learn", "lab=compare&models=pdn,gcn&sigma-d=1"},
	{"q-high", "Q high: many inter-class edges", "lab=compare&models=pdn,gcn&per-class=128&q=0.0625"},
	labPreset("xor"),
	labPreset("degree"),
	{"attention", "A real graph's attention (Cora)", "lab=attention"},
	labPreset("structure"),
	{"heterophily", "Heterophily: more edges between classes than within", "lab=structure&p=0.005&q=0.02"},
	{"misleading", "Edges that mislead: features alone tell the classes", "lab=compare&models=pdn,mlp&q=0.015&sigma-f=0.5&node-features=64"},
	{"cora-weights", "What the pathfinder learns on Cora", "lab=graph&data=cora"},
	{"induction", "Induction: a pathfinder on a graph it never saw", "lab=compare&models=pdn,gcn&graph-from=pdn&pathfinder-seed=99"},
	{"induction-size", "Induction from a graph a quarter the size", "lab=compare&models=pdn,gcn&graph-from=pdn&pathfinder-seed=99&pathfinder-rows=per-class%3D128"},
	{"induction-stops", "Where induction stops: a pathfinder learned at σD = 0.5", "lab=compare&models=pdn,gcn&graph-from=pdn&pathfinder-seed=99&pathfinder-rows=sigma-d%3D0.5"},
}, func(p Preset) bool { return withheldLink(p.Link) })

// labPreset is the preset that opens a lab as it starts, named and titled
// as the lab is.
func labPreset(name string) Preset {
	l, ok := LabNamed(name)
	if !ok && Withheld(name) {
		return Preset{Name: name, Link: "lab=" + name} // left out with its lab
	}
	if !ok {
		panic("experiment: no lab " + name)
	}
	return Preset{Name: l.Name, Title: l.Title, Link: "lab=" + l.Name}
}

// presetNamed returns the preset called name.
func presetNamed(name string) Preset {
	p, ok := rowNamed(Presets, func(p Preset) string { return p.Name }, name)
	if !ok {
		panic("experiment: no preset " + name)
	}
	return p
}

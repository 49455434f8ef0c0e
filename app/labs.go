package app

import "pdnexplorer/experiment"

// rooms are the labs' components by name: each lab's file adds its own
// (in an init function), so a new lab is a row of experiment.Labs and one
// file here. A test checks that the two agree.
var rooms = map[string]func(*page) room{}

// addRoom adds the component of the lab called name.
func addRoom(name string, newRoom func(*page) room) {
	if experiment.Withheld(name) {
		return // a build that stands for a version without it
	}
	if _, ok := experiment.LabNamed(name); !ok {
		panic("app: no lab " + name + " in experiment.Labs")
	}
	rooms[name] = newRoom
}

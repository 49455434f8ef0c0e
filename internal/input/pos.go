package input

// Pos is a place in a text: its line and byte column, from 1.
type Pos struct{ Line, Col int }

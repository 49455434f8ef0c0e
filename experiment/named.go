package experiment

import "slices"

// rowNamed is the row of a table whose name (name of the row) is want:
// the one look-up by name every table of this package uses.
func rowNamed[T any](rows []T, name func(T) string, want string) (T, bool) {
	i := slices.IndexFunc(rows, func(r T) bool { return name(r) == want })
	if i < 0 {
		var zero T
		return zero, false
	}
	return rows[i], true
}

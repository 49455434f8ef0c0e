//go:build purego

package kernels

// PureGo reports that this build has the purego tag: every platform path
// is off, the reference loops run alone.
const PureGo = true

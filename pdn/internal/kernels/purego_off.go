//go:build !purego

package kernels

// PureGo reports that this build has the purego tag: it has not.
const PureGo = false

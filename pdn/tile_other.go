//go:build !wasm

package pdn

// mulTile is the width of mulPair's register blocks: 3 natively (see
// mulPair2x3).
const mulTile = 3

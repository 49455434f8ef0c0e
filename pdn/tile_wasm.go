package pdn

// mulTile is the width of mulPair's register blocks: 4 in WebAssembly (see
// mulPair2x3).
const mulTile = 4

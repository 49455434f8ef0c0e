package kernels

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// PCG's constants, as math/rand/v2 steps its 128-bit state: s ← s·mul + inc
// (mod 2¹²⁸).
const (
	pcgMulHi = 2549297995355413924
	pcgMulLo = 4865540595714422341
	pcgIncHi = 6364136223846793005
	pcgIncLo = 1442695040888963407
)

// u128 is a 128-bit integer, modulo 2¹²⁸.
type u128 struct{ hi, lo uint64 }

func (x u128) mul(y u128) u128 {
	hi, lo := bits.Mul64(x.lo, y.lo)
	return u128{hi + x.hi*y.lo + x.lo*y.hi, lo}
}

func (x u128) add(y u128) u128 {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	hi, _ := bits.Add64(x.hi, y.hi, c)
	return u128{hi, lo}
}

// pcgChains is how many states pcgBlock steps side by side, and
// pcgJump the step that takes a state pcgChains states on: s ← s·mul + inc
// taken pcgChains times is s·mul^k + inc·(mul^(k−1) + … + 1).
const pcgChains = 4

var pcgJump = func() (j struct{ mul, inc u128 }) {
	j.mul = u128{0, 1}
	for range pcgChains {
		j.mul = j.mul.mul(u128{pcgMulHi, pcgMulLo})
		j.inc = j.inc.mul(u128{pcgMulHi, pcgMulLo}).add(u128{pcgIncHi, pcgIncLo})
	}
	return j
}()

// pcgOut is PCG's DXSM output for the state s: math/rand/v2's Uint64.
func pcgOut(s u128) uint64 {
	const cheapMul = 0xda942042e4dd58b5
	hi := s.hi
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	return hi * (s.lo | 1)
}

// pcgBlock fills raw with the next len(raw) numbers of p, a multiple of
// pcgChains, and leaves p after them: the numbers p.Uint64 would give one
// by one. Each number's state waits on the one before, a 128-bit multiply
// and two additions; pcgChains states pcgChains apart step side by side
// instead, each by pcgJump, so that the multiplier is never idle. p's
// state is read and written through its binary form, the only access
// math/rand/v2 gives.
func pcgBlock(p *rand.PCG, raw []uint64) {
	var buf [20]byte
	b, _ := p.AppendBinary(buf[:0])
	be := binary.BigEndian
	s := u128{be.Uint64(b[4:]), be.Uint64(b[12:])}
	step := u128{pcgMulHi, pcgMulLo}
	inc := u128{pcgIncHi, pcgIncLo}
	var c [pcgChains]u128
	for k := range c {
		s = s.mul(step).add(inc)
		c[k] = s
	}
	raw = raw[:len(raw)/pcgChains*pcgChains]
	for k := 0; k < len(raw); k += pcgChains {
		r := (*[pcgChains]uint64)(raw[k : k+pcgChains])
		r[0], r[1], r[2], r[3] = pcgOut(c[0]), pcgOut(c[1]), pcgOut(c[2]), pcgOut(c[3])
		s = c[3]
		c[0] = c[0].mul(pcgJump.mul).add(pcgJump.inc)
		c[1] = c[1].mul(pcgJump.mul).add(pcgJump.inc)
		c[2] = c[2].mul(pcgJump.mul).add(pcgJump.inc)
		c[3] = c[3].mul(pcgJump.mul).add(pcgJump.inc)
	}
	b = append(buf[:0], "pcg:"...)
	b = be.AppendUint64(be.AppendUint64(b, s.hi), s.lo)
	if err := p.UnmarshalBinary(b); err != nil {
		panic(err) // the form AppendBinary gives
	}
}

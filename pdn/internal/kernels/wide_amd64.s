//go:build goexperiment.simd && amd64 && !purego

#include "textflag.h"

// The two products the pathfinder spends its time in, written for AVX-512
// by hand (wide_asm.go says why): each keeps every multiply and add of the
// scalar loops, unfused, in their order, so the bits are theirs. And the
// chains of fused multiply-adds that measure the core's peak.

// ACC4 adds to the four accumulators u0…u3 the products of the broadcast
// x with the four vectors y0…y3, each product in its own register.
#define ACC4(x, y0, y1, y2, y3, t0, t1, t2, t3, u0, u1, u2, u3) \
	VMULPD y0, x, t0 \
	VADDPD t0, u0, u0 \
	VMULPD y1, x, t1 \
	VADDPD t1, u1, u1 \
	VMULPD y2, x, t2 \
	VADDPD t2, u2, u2 \
	VMULPD y3, x, t3 \
	VADDPD t3, u3, u3

// STORE4 stores a row's 32 columns from four registers at R12 + BX.
#define STORE4(z0, z1, z2, z3) \
	VMOVUPD z0, (R12)(BX*1) \
	VMOVUPD z1, 64(R12)(BX*1) \
	VMOVUPD z2, 128(R12)(BX*1) \
	VMOVUPD z3, 192(R12)(BX*1)

// ADD4 adds the bias, in Z16–Z19, to a row's four registers.
#define ADD4(z0, z1, z2, z3) \
	VADDPD Z16, z0, z0 \
	VADDPD Z17, z1, z1 \
	VADDPD Z18, z2, z2 \
	VADDPD Z19, z3, z3

// RELU sets z to max(z, 0) with NaN kept, given Z16 all ones.
#define RELU(z) \
	VPCMPGTQ Z16, z, K1 \
	VCMPPD $3, z, z, K2 \
	KORW K1, K2, K1 \
	VMOVAPD.Z z, K1, z

// func mulQuadWide(c0, c1, c2, c3, a0, a1, a2, a3, bt, bias *float64, k, m int, rectify bool)
//
// c_r[j] = (Σ_p a_r[p]·bt[p·m+j]) + bias[j] for the four rows r and every
// column j < m (m a multiple of 32): each sum from +0 in order of p, as
// mulPairWide's, 32 columns of the four rows in 16 registers; with rectify,
// then max(c, 0) as reluOf.
TEXT ·mulQuadWide(SB), NOSPLIT, $0-97
	MOVQ a0+32(FP), R8
	MOVQ a1+40(FP), R9
	MOVQ a2+48(FP), R10
	MOVQ a3+56(FP), R11
	MOVQ bt+64(FP), DI
	MOVQ k+80(FP), CX
	MOVQ m+88(FP), DX
	SHLQ $3, DX // bt's row, in bytes
	XORQ BX, BX // the block's first column, in bytes

block:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
	LEAQ (DI)(BX*1), SI
	XORQ AX, AX
	// The four rows after a0's, fetched while these are summed: 32 bytes
	// a step, 4k·8 over the k steps (the next four rows, when the rows lie
	// in order, as the unmasked product's do).
	MOVQ CX, R12
	SHLQ $5, R12
	ADDQ R8, R12
	TESTQ CX, CX
	JEQ bias

step:
	VMOVUPD (SI), Z16
	VMOVUPD 64(SI), Z17
	VMOVUPD 128(SI), Z18
	VMOVUPD 192(SI), Z19
	VBROADCASTSD (R8)(AX*8), Z20
	VBROADCASTSD (R9)(AX*8), Z21
	VBROADCASTSD (R10)(AX*8), Z22
	VBROADCASTSD (R11)(AX*8), Z23
	PREFETCHT1 (R12)
	ADDQ $32, R12
	ACC4(Z20, Z16, Z17, Z18, Z19, Z24, Z25, Z26, Z27, Z0, Z1, Z2, Z3)
	ACC4(Z21, Z16, Z17, Z18, Z19, Z28, Z29, Z30, Z31, Z4, Z5, Z6, Z7)
	ACC4(Z22, Z16, Z17, Z18, Z19, Z24, Z25, Z26, Z27, Z8, Z9, Z10, Z11)
	ACC4(Z23, Z16, Z17, Z18, Z19, Z28, Z29, Z30, Z31, Z12, Z13, Z14, Z15)
	ADDQ DX, SI
	INCQ AX
	CMPQ AX, CX
	JLT step

bias:
	MOVQ bias+72(FP), R12
	TESTQ R12, R12
	JEQ act
	VMOVUPD (R12)(BX*1), Z16
	VMOVUPD 64(R12)(BX*1), Z17
	VMOVUPD 128(R12)(BX*1), Z18
	VMOVUPD 192(R12)(BX*1), Z19
	ADD4(Z0, Z1, Z2, Z3)
	ADD4(Z4, Z5, Z6, Z7)
	ADD4(Z8, Z9, Z10, Z11)
	ADD4(Z12, Z13, Z14, Z15)

act:
	// max(x, 0), NaN kept, as reluOf: a lane stays if its sign is clear
	// (its bits as an integer > −1) or it is NaN, else becomes +0.
	MOVBQZX rectify+96(FP), R12
	TESTQ R12, R12
	JEQ store
	VPTERNLOGQ $0xff, Z16, Z16, Z16
	RELU(Z0)
	RELU(Z1)
	RELU(Z2)
	RELU(Z3)
	RELU(Z4)
	RELU(Z5)
	RELU(Z6)
	RELU(Z7)
	RELU(Z8)
	RELU(Z9)
	RELU(Z10)
	RELU(Z11)
	RELU(Z12)
	RELU(Z13)
	RELU(Z14)
	RELU(Z15)

store:
	MOVQ c0+0(FP), R12
	STORE4(Z0, Z1, Z2, Z3)
	MOVQ c1+8(FP), R12
	STORE4(Z4, Z5, Z6, Z7)
	MOVQ c2+16(FP), R12
	STORE4(Z8, Z9, Z10, Z11)
	MOVQ c3+24(FP), R12
	STORE4(Z12, Z13, Z14, Z15)
	ADDQ $256, BX
	CMPQ BX, DX
	JLT block
	VZEROUPPER
	RET

// LOADQ loads one vector of 32 columns, at off, of the four rows of b
// from R12 (stride DX, and R9 for the fourth) into Z16–Z19.
#define LOADQ(off) \
	VMOVUPD off(R12), Z16 \
	VMOVUPD off(R12)(DX*1), Z17 \
	VMOVUPD off(R12)(DX*2), Z18 \
	VMOVUPD off(R12)(R9*1), Z19

// SUMQ adds to u the group's sum (((s0·r0 + s1·r1) + s2·r2) + s3·r3) of
// the rows' vectors LOADQ loaded, in t, with p for each product after the
// first.
#define SUMQ(s0, s1, s2, s3, t, p, u) \
	VMULPD Z16, s0, t \
	VMULPD Z17, s1, p \
	VADDPD p, t, t \
	VMULPD Z18, s2, p \
	VADDPD p, t, t \
	VMULPD Z19, s3, p \
	VADDPD p, t, t \
	VADDPD t, u, u

// GROUPQ is one row of c's group sum for the vector at off.
#define GROUPQ(off, s0, s1, s2, s3, t, p, u) \
	LOADQ(off) \
	SUMQ(s0, s1, s2, s3, t, p, u)

// ROWGROUP is GROUPQ for the row's four vectors, u0…u3.
#define ROWGROUP(s0, s1, s2, s3, u0, u1, u2, u3) \
	GROUPQ(0, s0, s1, s2, s3, Z20, Z21, u0) \
	GROUPQ(64, s0, s1, s2, s3, Z22, Z23, u1) \
	GROUPQ(128, s0, s1, s2, s3, Z24, Z25, u2) \
	GROUPQ(192, s0, s1, s2, s3, Z26, Z27, u3)

// FACTORS broadcasts a row of c's four factors of this group, at off from
// R11 (a column of a: rows m·8 = R13 bytes apart, the fourth at CX).
#define FACTORS(off, s0, s1, s2, s3) \
	VBROADCASTSD off(R11), s0 \
	VBROADCASTSD off(R11)(R13*1), s1 \
	VBROADCASTSD off(R11)(R13*2), s2 \
	VBROADCASTSD off(R11)(CX*1), s3

// PAIRQ is GROUPQ for both rows of c at once, u for row j (factors in
// Z8–Z11) and v for row j+1 (Z12–Z15), sharing the loads of b.
#define PAIRQ(off, u, v, t, p, w, o) \
	LOADQ(off) \
	SUMQ(Z8, Z9, Z10, Z11, t, p, u) \
	SUMQ(Z12, Z13, Z14, Z15, w, o, v)

// func foldTileWide(c, a, b, next *float64, rows, groups, k, m, fetch int)
//
// For rows j = 0, 2, 4, … < rows (rows even) of c, 32 columns each at c +
// j·k: adds to row j, over groups of four of b's rows (32 columns each at
// b + i·k), the group's sum Σ a[i·m + j]·b_i in order, and skips a group
// whose four factors are all zero (either sign), as foldRowWide does;
// rows j and j+1 share the loads of b. The factors are broadcast from a's
// rows where they lie, so no tile of a is transposed first. Meanwhile it
// fetches fetch rows of 32 columns from next (b's next tile; nil for
// none), a row a group: without it the fold waited on memory for a third
// of its time.
TEXT ·foldTileWide(SB), NOSPLIT, $0-72
	MOVQ c+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ next+24(FP), R10
	MOVQ k+48(FP), DX
	SHLQ $3, DX // a row of b and of c, in bytes
	LEAQ (DX)(DX*2), R9
	MOVQ m+56(FP), R13
	SHLQ $3, R13 // a row of a, in bytes
	LEAQ (R13)(R13*2), CX

rows:
	CMPQ rows+32(FP), $2
	JLT done
	VMOVUPD (DI), Z0
	VMOVUPD 64(DI), Z1
	VMOVUPD 128(DI), Z2
	VMOVUPD 192(DI), Z3
	VMOVUPD (DI)(DX*1), Z4
	VMOVUPD 64(DI)(DX*1), Z5
	VMOVUPD 128(DI)(DX*1), Z6
	VMOVUPD 192(DI)(DX*1), Z7
	MOVQ SI, R11 // this group's factor of row j; of row j+1 at 8(R11)
	MOVQ b+16(FP), R12
	MOVQ groups+40(FP), AX
	TESTQ AX, AX
	JEQ stored

group:
	TESTQ R10, R10
	JEQ fetched
	PREFETCHT0 (R10)
	PREFETCHT0 64(R10)
	PREFETCHT0 128(R10)
	PREFETCHT0 192(R10)
	ADDQ DX, R10
	DECQ fetch+64(FP)
	JNE fetched
	XORQ R10, R10

fetched:
	// Four factors are all zero, of either sign, when their bits ORed
	// and shifted past the sign are.
	MOVQ 8(R11), R8
	ORQ 8(R11)(R13*1), R8
	ORQ 8(R11)(R13*2), R8
	ORQ 8(R11)(CX*1), R8
	SHLQ $1, R8
	MOVQ (R11), BX
	ORQ (R11)(R13*1), BX
	ORQ (R11)(R13*2), BX
	ORQ (R11)(CX*1), BX
	SHLQ $1, BX
	JEQ firstzero
	FACTORS(0, Z8, Z9, Z10, Z11)
	TESTQ R8, R8
	JEQ firstonly
	FACTORS(8, Z12, Z13, Z14, Z15)
	PAIRQ(0, Z0, Z4, Z20, Z21, Z22, Z23)
	PAIRQ(64, Z1, Z5, Z24, Z25, Z26, Z27)
	PAIRQ(128, Z2, Z6, Z20, Z21, Z22, Z23)
	PAIRQ(192, Z3, Z7, Z24, Z25, Z26, Z27)
	JMP next

firstonly:
	ROWGROUP(Z8, Z9, Z10, Z11, Z0, Z1, Z2, Z3)
	JMP next

firstzero:
	TESTQ R8, R8
	JEQ next
	FACTORS(8, Z12, Z13, Z14, Z15)
	ROWGROUP(Z12, Z13, Z14, Z15, Z4, Z5, Z6, Z7)

next:
	LEAQ (R11)(R13*4), R11
	LEAQ (R12)(DX*4), R12
	DECQ AX
	JNE group

stored:
	VMOVUPD Z0, (DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVUPD Z4, (DI)(DX*1)
	VMOVUPD Z5, 64(DI)(DX*1)
	VMOVUPD Z6, 128(DI)(DX*1)
	VMOVUPD Z7, 192(DI)(DX*1)
	LEAQ (DI)(DX*2), DI
	ADDQ $16, SI
	SUBQ $2, rows+32(FP)
	JMP rows

done:
	VZEROUPPER
	RET

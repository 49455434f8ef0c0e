// The engine's hot loops for the browser's worker, compiled to WebAssembly
// with 128-bit SIMD (make builds kernels.wasm with clang; pdn/internal/kernels/wasm_simd128.go
// calls them through //go:wasmimport, sharing the Go program's memory).
//
// Why C and not Go: Go's WebAssembly has no SIMD and turns every jump back
// in a loop into a trip through the function's dispatch table; clang's
// loops over two lanes of f64 run the same additions 2.5-3.5 times as fast
// in the worker. Why by hand: no library offers these products with the
// order of every sum fixed, and the order is what keeps the bits.
//
// Each function below computes exactly what the Go kernel it names
// computes, with the same operations in the same order for every entry:
// a lane runs across entries that are independent (the columns of a row,
// two rows), never across the terms of one sum. WebAssembly's f64 and
// f64x2 arithmetic is IEEE 754 with round-to-nearest and has no fused
// multiply-add, so the bits are those of the Go loops, natively and in the
// browser (the golden digests check it under Node, with these kernels).
//
// The module holds no data and no globals of its own but the stack pointer
// clang may use, which the Go side points into a buffer it owns
// (startKernels, pdn/internal/kernels/wasm_simd128.go). The functions
// check nothing: they index memory by the sizes, row pointers and indices
// they are given, and a wrong one reads or writes outside its operand,
// into whatever Go keeps beside it. That nothing here writes outside Go's
// slices holds only because the wrappers in wasm_simd128.go check, before
// every call, that each operand holds every value the function touches
// (at), and that every row pointer and index it reads lies within what it
// indexes (rowPtrs, indices, through the scans at the end of this file,
// which only read); a function added here needs a wrapper that checks as
// much (TestWasmBounds, TestWasmAddressesChecked).
// Sizes are int (32 bits), pointers are offsets into the Go memory.

#include <wasm_simd128.h>

typedef double f64;
typedef long long i64;
typedef int i32;

#define LOAD(p) wasm_v128_load(p)
#define STORE(p, v) wasm_v128_store((p), (v))
#define SPLAT(x) wasm_f64x2_splat(x)
#define ADD(a, b) wasm_f64x2_add((a), (b))
#define MUL(a, b) wasm_f64x2_mul((a), (b))

// abi is the version of these functions' signatures; wasm_simd128.go runs
// the Go loops rather than a module of another. 2: max_index and
// ordered_i32/i64, the wrappers' scans of index arrays. 3: add_atb,
// sp_accum_atb and pathfinder1_backward over a range of columns (the
// pool's pieces). 4: pool_run's status, when a helper dies in a batch
// (pool_helper_died). 5: the pool knows which helpers hold a piece, and
// pool_helper_died which helper died.
i32 abi(void) { return 5; }

// mul_abt is MulABTBias (with mulABTShort) and MulABTKept
// (pdn/internal/kernels/dense.go): c (n×m) = a (n×k) · bᵀ for b (m×k)
// given as bt = bᵀ (k×m), each entry ((0 + a₀b₀) + a₁b₁) + … in order of
// k, then + bias[j] when bias is not null; with keep not null, only the
// rows whose keep is not 0, the others left as they were.
void mul_abt(f64 *c, const f64 *a, const f64 *bt, const f64 *bias, const f64 *keep, i32 n, i32 k, i32 m) {
	for (i32 i = 0; i < n; i++) {
		if (keep && keep[i] == 0) {
			continue;
		}
		f64 *ci = c + (i64)i * m;
		const f64 *ai = a + (i64)i * k;
		i32 j = 0;
		for (; j + 8 <= m; j += 8) {
			v128_t s0 = SPLAT(0), s1 = SPLAT(0), s2 = SPLAT(0), s3 = SPLAT(0);
			const f64 *b = bt + j;
			for (i32 p = 0; p < k; p++, b += m) {
				v128_t x = SPLAT(ai[p]);
				s0 = ADD(s0, MUL(x, LOAD(b)));
				s1 = ADD(s1, MUL(x, LOAD(b + 2)));
				s2 = ADD(s2, MUL(x, LOAD(b + 4)));
				s3 = ADD(s3, MUL(x, LOAD(b + 6)));
			}
			if (bias) {
				s0 = ADD(s0, LOAD(bias + j));
				s1 = ADD(s1, LOAD(bias + j + 2));
				s2 = ADD(s2, LOAD(bias + j + 4));
				s3 = ADD(s3, LOAD(bias + j + 6));
			}
			STORE(ci + j, s0);
			STORE(ci + j + 2, s1);
			STORE(ci + j + 4, s2);
			STORE(ci + j + 6, s3);
		}
		for (; j + 2 <= m; j += 2) {
			v128_t s = SPLAT(0);
			const f64 *b = bt + j;
			for (i32 p = 0; p < k; p++, b += m) {
				s = ADD(s, MUL(SPLAT(ai[p]), LOAD(b)));
			}
			if (bias) {
				s = ADD(s, LOAD(bias + j));
			}
			STORE(ci + j, s);
		}
		for (; j < m; j++) {
			f64 s = 0;
			for (i32 p = 0; p < k; p++) {
				s = s + ai[p] * bt[(i64)p * m + j];
			}
			if (bias) {
				s = s + bias[j];
			}
			ci[j] = s;
		}
	}
}

// mul_abt_narrow is mul_abt for m = 1 (a layer with one output: the
// pathfinder's last): two rows at a time, one per lane, each sum still in
// order of k.
void mul_abt_narrow(f64 *c, const f64 *a, const f64 *b, const f64 *bias, const f64 *keep, i32 n, i32 k) {
	i32 i = 0;
	for (; i + 2 <= n; i += 2) {
		if (keep && keep[i] == 0 && keep[i + 1] == 0) {
			continue;
		}
		const f64 *a0 = a + (i64)i * k, *a1 = a0 + k;
		v128_t s = SPLAT(0);
		for (i32 p = 0; p < k; p++) {
			s = ADD(s, MUL(wasm_f64x2_make(a0[p], a1[p]), SPLAT(b[p])));
		}
		if (bias) {
			s = ADD(s, SPLAT(bias[0]));
		}
		if (!keep || keep[i] != 0) {
			c[i] = wasm_f64x2_extract_lane(s, 0);
		}
		if (!keep || keep[i + 1] != 0) {
			c[i + 1] = wasm_f64x2_extract_lane(s, 1);
		}
	}
	for (; i < n; i++) {
		if (keep && keep[i] == 0) {
			continue;
		}
		const f64 *ai = a + (i64)i * k;
		f64 s = 0;
		for (i32 p = 0; p < k; p++) {
			s = s + ai[p] * b[p];
		}
		if (bias) {
			s = s + bias[0];
		}
		c[i] = s;
	}
}

// add_atb is AddATBCols (pdn/internal/kernels/dense.go): the rows
// j0..j1-1 of c (m×k) += aᵀ·b for a (n×m), b (n×k). Rows go four at a
// time: an entry adds ((s₀b₀ + s₁b₁) + s₂b₂) + s₃b₃ to itself, and is
// left alone where the four factors are zero; the last n mod 4 rows add
// one product each. An entry's sum reads only its own row of c, so a
// range gives the bits of the whole, and ranges can run at once (the
// pool's pieces).
void add_atb(f64 *c, const f64 *a, const f64 *b, i32 n, i32 m, i32 k, i32 j0, i32 j1) {
	i32 i = 0;
	for (; i + 4 <= n; i += 4) {
		const f64 *b0 = b + (i64)i * k, *b1 = b0 + k, *b2 = b1 + k, *b3 = b2 + k;
		const f64 *ai = a + (i64)i * m;
		for (i32 j = j0; j < j1; j++) {
			f64 s0 = ai[j], s1 = ai[m + j], s2 = ai[2 * m + j], s3 = ai[3 * m + j];
			if (s0 == 0 && s1 == 0 && s2 == 0 && s3 == 0) {
				continue;
			}
			f64 *cj = c + (i64)j * k;
			v128_t v0 = SPLAT(s0), v1 = SPLAT(s1), v2 = SPLAT(s2), v3 = SPLAT(s3);
			i32 p = 0;
			for (; p + 2 <= k; p += 2) {
				v128_t t = ADD(ADD(ADD(MUL(v0, LOAD(b0 + p)), MUL(v1, LOAD(b1 + p))), MUL(v2, LOAD(b2 + p))), MUL(v3, LOAD(b3 + p)));
				STORE(cj + p, ADD(LOAD(cj + p), t));
			}
			for (; p < k; p++) {
				cj[p] = cj[p] + (((s0 * b0[p] + s1 * b1[p]) + s2 * b2[p]) + s3 * b3[p]);
			}
		}
	}
	for (; i < n; i++) {
		const f64 *bi = b + (i64)i * k;
		for (i32 j = j0; j < j1; j++) {
			f64 s = a[(i64)i * m + j];
			f64 *cj = c + (i64)j * k;
			v128_t v = SPLAT(s);
			i32 p = 0;
			for (; p + 2 <= k; p += 2) {
				STORE(cj + p, ADD(LOAD(cj + p), MUL(v, LOAD(bi + p))));
			}
			for (; p < k; p++) {
				cj[p] = cj[p] + s * bi[p];
			}
		}
	}
}

// propagate_rows is Propagation.propagateRows
// (pdn/internal/kernels/propagation.go), as Propagation.Rows runs it:
// rows lo..hi-1 of y (n×m) = Â h,
// row i = self_i·h_i + coef_{e₁}·h_{j₁} + coef_{e₂}·h_{j₂} + …
// added left to right.
void propagate_rows(f64 *y, const f64 *h, i32 m, i32 lo, i32 hi,
                    const i32 *row_ptr, const i32 *col, const i32 *eid, const f64 *coef, const f64 *self) {
	for (i32 i = lo; i < hi; i++) {
		f64 *yi = y + (i64)i * m;
		const f64 *own = h + (i64)i * m;
		i32 k0 = row_ptr[i], end = row_ptr[i + 1];
		f64 s = self[i];
		i32 j = 0;
		// Sixteen or eight columns in registers across the whole row, then
		// the rest.
		for (; j + 16 <= m; j += 16) {
			v128_t sv = SPLAT(s);
			v128_t y0 = MUL(sv, LOAD(own + j)), y1 = MUL(sv, LOAD(own + j + 2));
			v128_t y2 = MUL(sv, LOAD(own + j + 4)), y3 = MUL(sv, LOAD(own + j + 6));
			v128_t y4 = MUL(sv, LOAD(own + j + 8)), y5 = MUL(sv, LOAD(own + j + 10));
			v128_t y6 = MUL(sv, LOAD(own + j + 12)), y7 = MUL(sv, LOAD(own + j + 14));
			for (i32 k = k0; k < end; k++) {
				v128_t c = SPLAT(coef[eid[k]]);
				const f64 *hj = h + (i64)col[k] * m + j;
				y0 = ADD(y0, MUL(c, LOAD(hj)));
				y1 = ADD(y1, MUL(c, LOAD(hj + 2)));
				y2 = ADD(y2, MUL(c, LOAD(hj + 4)));
				y3 = ADD(y3, MUL(c, LOAD(hj + 6)));
				y4 = ADD(y4, MUL(c, LOAD(hj + 8)));
				y5 = ADD(y5, MUL(c, LOAD(hj + 10)));
				y6 = ADD(y6, MUL(c, LOAD(hj + 12)));
				y7 = ADD(y7, MUL(c, LOAD(hj + 14)));
			}
			STORE(yi + j, y0);
			STORE(yi + j + 2, y1);
			STORE(yi + j + 4, y2);
			STORE(yi + j + 6, y3);
			STORE(yi + j + 8, y4);
			STORE(yi + j + 10, y5);
			STORE(yi + j + 12, y6);
			STORE(yi + j + 14, y7);
		}
		for (; j + 8 <= m; j += 8) {
			v128_t sv = SPLAT(s);
			v128_t y0 = MUL(sv, LOAD(own + j)), y1 = MUL(sv, LOAD(own + j + 2));
			v128_t y2 = MUL(sv, LOAD(own + j + 4)), y3 = MUL(sv, LOAD(own + j + 6));
			for (i32 k = k0; k < end; k++) {
				v128_t c = SPLAT(coef[eid[k]]);
				const f64 *hj = h + (i64)col[k] * m + j;
				y0 = ADD(y0, MUL(c, LOAD(hj)));
				y1 = ADD(y1, MUL(c, LOAD(hj + 2)));
				y2 = ADD(y2, MUL(c, LOAD(hj + 4)));
				y3 = ADD(y3, MUL(c, LOAD(hj + 6)));
			}
			STORE(yi + j, y0);
			STORE(yi + j + 2, y1);
			STORE(yi + j + 4, y2);
			STORE(yi + j + 6, y3);
		}
		for (; j + 2 <= m; j += 2) {
			v128_t y0 = MUL(SPLAT(s), LOAD(own + j));
			for (i32 k = k0; k < end; k++) {
				y0 = ADD(y0, MUL(SPLAT(coef[eid[k]]), LOAD(h + (i64)col[k] * m + j)));
			}
			STORE(yi + j, y0);
		}
		for (; j < m; j++) {
			f64 v = s * own[j];
			for (i32 k = k0; k < end; k++) {
				v = v + coef[eid[k]] * h[(i64)col[k] * m + j];
			}
			yi[j] = v;
		}
	}
}

// dot is Dot (pdn/internal/kernels/dense.go): Σ a[i]·b[i] from 0, in order.
static f64 dot(const f64 *a, const f64 *b, i32 m) {
	f64 s = 0;
	for (i32 j = 0; j < m; j++) {
		s = s + a[j] * b[j];
	}
	return s;
}

// accumulate_edges is AccumulateEdges (pdn/internal/kernels/propagation.go)
// over the edges lo..hi-1: gCoef_e += dot(dy_u, h_v) + dot(dy_v, h_u),
// each dot in order from 0. Two edges go at once, one per lane, each
// lane its edge's two sums.
void accumulate_edges(f64 *g_coef, const f64 *dy, const f64 *h, i32 m, i32 lo, i32 hi, const i32 *src, const i32 *dst) {
	i32 e = lo;
	for (; e + 2 <= hi; e += 2) {
		const f64 *p0 = dy + (i64)src[e] * m, *q0 = h + (i64)dst[e] * m, *r0 = dy + (i64)dst[e] * m, *s0 = h + (i64)src[e] * m;
		const f64 *p1 = dy + (i64)src[e + 1] * m, *q1 = h + (i64)dst[e + 1] * m, *r1 = dy + (i64)dst[e + 1] * m, *s1 = h + (i64)src[e + 1] * m;
		v128_t t = SPLAT(0), u = SPLAT(0);
		for (i32 j = 0; j < m; j++) {
			t = ADD(t, MUL(wasm_f64x2_make(p0[j], p1[j]), wasm_f64x2_make(q0[j], q1[j])));
			u = ADD(u, MUL(wasm_f64x2_make(r0[j], r1[j]), wasm_f64x2_make(s0[j], s1[j])));
		}
		v128_t sum = ADD(LOAD(g_coef + e), ADD(t, u));
		STORE(g_coef + e, sum);
	}
	for (; e < hi; e++) {
		i64 u = src[e], v = dst[e];
		g_coef[e] = g_coef[e] + (dot(dy + u * m, h + v * m, m) + dot(dy + v * m, h + u * m, m));
	}
}

// accumulate_self is AccumulateSelf: gSelf_i += dot(dy_i, h_i).
void accumulate_self(f64 *g_self, const f64 *dy, const f64 *h, i32 m, i32 n) {
	for (i32 i = 0; i < n; i++) {
		g_self[i] = g_self[i] + dot(dy + (i64)i * m, h + (i64)i * m, m);
	}
}

// sp_mul_abt is SpMulABT (pdn/internal/kernels/sparse.go): rows lo..hi-1
// of the sparse a (CSR: ptr, col, val) times bᵀ (bt: k×m), written from
// c's first row: each entry from 0, adding v·bt[j] over the row's
// non-zeros in order.
void sp_mul_abt(f64 *c, const i64 *ptr, const i32 *col, const f64 *val, i32 lo, i32 hi, const f64 *bt, i32 m) {
	for (i32 i = lo; i < hi; i++) {
		f64 *ci = c + (i64)(i - lo) * m;
		i64 p0 = ptr[i], p1 = ptr[i + 1];
		i32 o = 0;
		for (; o + 8 <= m; o += 8) {
			v128_t c0 = SPLAT(0), c1 = SPLAT(0), c2 = SPLAT(0), c3 = SPLAT(0);
			for (i64 p = p0; p < p1; p++) {
				v128_t v = SPLAT(val[p]);
				const f64 *row = bt + (i64)col[p] * m + o;
				c0 = ADD(c0, MUL(v, LOAD(row)));
				c1 = ADD(c1, MUL(v, LOAD(row + 2)));
				c2 = ADD(c2, MUL(v, LOAD(row + 4)));
				c3 = ADD(c3, MUL(v, LOAD(row + 6)));
			}
			STORE(ci + o, c0);
			STORE(ci + o + 2, c1);
			STORE(ci + o + 4, c2);
			STORE(ci + o + 6, c3);
		}
		for (; o < m; o++) {
			f64 s = 0;
			for (i64 p = p0; p < p1; p++) {
				s = s + val[p] * bt[(i64)col[p] * m + o];
			}
			ci[o] = s;
		}
	}
}

// sp_accum_atb is SpAccumATBCols (sparse.go): for the rows lo..hi-1 of
// the sparse b and the dense a (whose first row is row lo), the columns
// o0..o1-1 of ct[j] += v·a_i over each row's non-zeros (j, v), rows in
// order. Each entry is its own sum, so a range of columns gives the bits
// of the whole, and ranges can run at once (the pool's pieces).
void sp_accum_atb(f64 *ct, const f64 *a, const i64 *ptr, const i32 *col, const f64 *val, i32 lo, i32 hi, i32 m, i32 o0, i32 o1) {
	for (i32 i = lo; i < hi; i++) {
		const f64 *ai = a + (i64)(i - lo) * m;
		for (i64 p = ptr[i]; p < ptr[i + 1]; p++) {
			v128_t v = SPLAT(val[p]);
			f64 *row = ct + (i64)col[p] * m;
			i32 o = o0;
			for (; o + 2 <= o1; o += 2) {
				STORE(row + o, ADD(LOAD(row + o), MUL(v, LOAD(ai + o))));
			}
			for (; o < o1; o++) {
				row[o] = row[o] + val[p] * ai[o];
			}
		}
	}
}

// relu is Relu (pdn/internal/kernels/dense.go): y = x where x's sign bit
// is clear or x is NaN, else +0.
void relu(f64 *y, const f64 *x, i32 n) {
	i32 i = 0;
	for (; i + 2 <= n; i += 2) {
		v128_t v = LOAD(x + i);
		v128_t neg = wasm_i64x2_shr(v, 63);                  // all ones where the sign bit is set
		v128_t nan = wasm_f64x2_ne(v, v);                   // all ones where NaN
		STORE(y + i, wasm_v128_and(v, wasm_v128_or(wasm_v128_not(neg), nan)));
	}
	for (; i < n; i++) {
		f64 v = x[i];
		if (v != v) {
			y[i] = v;
			continue;
		}
		y[i] = (__builtin_bit_cast(i64, v) < 0) ? 0.0 : v;
	}
}

// relu_backward is ReluBackward (pdn/internal/kernels/dense.go): dx = dy
// where the bits of y, as a signed integer, negated, are negative (y > 0,
// or y = -0), else +0.
void relu_backward(f64 *dx, const f64 *dy, const f64 *y, i32 n) {
	i32 i = 0;
	for (; i + 2 <= n; i += 2) {
		v128_t on = wasm_i64x2_shr(wasm_i64x2_neg(LOAD(y + i)), 63);
		STORE(dx + i, wasm_v128_and(LOAD(dy + i), on));
	}
	for (; i < n; i++) {
		i64 b = __builtin_bit_cast(i64, y[i]);
		i64 on = (i64)(0 - (unsigned long long)b) >> 63;
		dx[i] = __builtin_bit_cast(f64, __builtin_bit_cast(i64, dy[i]) & on);
	}
}

// sum_rows_add is SumRowsAdd (pdn/internal/kernels/dense.go): c (m) +=
// the column sums of a (n×m), each column down the rows in order.
void sum_rows_add(f64 *c, const f64 *a, i32 n, i32 m) {
	i32 j = 0;
	for (; j + 8 <= m; j += 8) {
		v128_t c0 = LOAD(c + j), c1 = LOAD(c + j + 2), c2 = LOAD(c + j + 4), c3 = LOAD(c + j + 6);
		for (i32 i = 0; i < n; i++) {
			const f64 *ai = a + (i64)i * m + j;
			c0 = ADD(c0, LOAD(ai));
			c1 = ADD(c1, LOAD(ai + 2));
			c2 = ADD(c2, LOAD(ai + 4));
			c3 = ADD(c3, LOAD(ai + 6));
		}
		STORE(c + j, c0);
		STORE(c + j + 2, c1);
		STORE(c + j + 4, c2);
		STORE(c + j + 6, c3);
	}
	for (; j + 2 <= m; j += 2) {
		v128_t c0 = LOAD(c + j);
		for (i32 i = 0; i < n; i++) {
			c0 = ADD(c0, LOAD(a + (i64)i * m + j));
		}
		STORE(c + j, c0);
	}
	for (; j < m; j++) {
		f64 s = c[j];
		for (i32 i = 0; i < n; i++) {
			s = s + a[(i64)i * m + j];
		}
		c[j] = s;
	}
}

// mul_into is MulInto (pdn/internal/kernels/dense.go): y = x ⊙ k.
void mul_into(f64 *y, const f64 *x, const f64 *k, i32 n) {
	i32 i = 0;
	for (; i + 2 <= n; i += 2) {
		STORE(y + i, MUL(LOAD(x + i), LOAD(k + i)));
	}
	for (; i < n; i++) {
		y[i] = x[i] * k[i];
	}
}

// add_rows is AddRows (pdn/internal/kernels/dense.go): every row of
// c (n×m) += v (m).
void add_rows(f64 *c, const f64 *v, i32 n, i32 m) {
	for (i32 i = 0; i < n; i++) {
		f64 *ci = c + (i64)i * m;
		i32 j = 0;
		for (; j + 2 <= m; j += 2) {
			STORE(ci + j, ADD(LOAD(ci + j), LOAD(v + j)));
		}
		for (; j < m; j++) {
			ci[j] = ci[j] + v[j];
		}
	}
}

// ---- The pathfinder with one hidden layer, fused ----

typedef unsigned long long u64;

static f64 from_bits(u64 b) { return __builtin_bit_cast(f64, b); }
static u64 bits_of(f64 x) { return __builtin_bit_cast(u64, x); }

// ldexp is Go's math.Ldexp (math/ldexp.go), which fmath.Exp calls for
// results near the ends of the range.
static f64 ldexp_go(f64 frac, i64 exp) {
	if (frac == 0 || frac != frac || frac - frac != frac - frac) {
		return frac; // ±0, NaN, ±Inf
	}
	if ((frac < 0 ? -frac : frac) < 2.2250738585072014e-308) {
		frac = frac * (f64)(1LL << 52);
		exp -= 52;
	}
	u64 x = bits_of(frac);
	exp += (i64)((x >> 52) & 0x7ff) - 1023;
	if (exp < -1075) {
		return (x >> 63) ? -0.0 : 0.0;
	}
	if (exp > 1023) {
		return frac < 0 ? -__builtin_inf() : __builtin_inf();
	}
	f64 m = 1;
	if (exp < -1022) {
		exp += 53;
		m = 1.0 / (f64)(1LL << 53);
	}
	x &= ~((u64)0x7ff << 52);
	x |= (u64)(exp + 1023) << 52;
	return m * from_bits(x);
}

// exp_go is fmath.Exp (internal/fmath): the same operations in the same
// order, so the same bits.
static f64 exp_go(f64 x) {
	const f64 ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10,
	          log2e = 1.44269504088896338700e+00, overflow = 7.09782712893383973096e+02,
	          underflow = -7.45133219101941108420e+02, nearZero = 1.0 / (1 << 28),
	          p1 = 1.66666666666666657415e-01, p2 = -2.77777777770155933842e-03,
	          p3 = 6.61375632143793436117e-05, p4 = -1.65339022054652515390e-06,
	          p5 = 4.13813679705723846039e-08;
	if (x != x) {
		return x;
	}
	if (x > overflow) {
		return __builtin_inf();
	}
	if (x < underflow) {
		return 0;
	}
	if (-nearZero < x && x < nearZero) {
		return 1 + x;
	}
	i64 k = 0;
	if (x < 0) {
		k = (i64)(log2e * x - 0.5);
	} else if (x > 0) {
		k = (i64)(log2e * x + 0.5);
	}
	f64 hi = x - (f64)k * ln2Hi;
	f64 lo = (f64)k * ln2Lo;
	f64 r = hi - lo;
	f64 t = r * r;
	f64 c = r - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))));
	f64 y = 1 - ((lo - (r * c) / (2 - c)) - hi);
	if (k > -1021 && k < 1022) {
		return y * from_bits((u64)(k + 1023) << 52);
	}
	return ldexp_go(y, k);
}

// sigmoid_go is fmath.Sigmoid.
static f64 sigmoid_go(f64 x) {
	if (x >= 0) {
		return 1 / (1 + exp_go(-x));
	}
	f64 e = exp_go(x);
	return e / (1 + e);
}

// sigmoid_kept is Sigmoids (pdn/internal/kernels/elem.go), the
// pathfinder's last step: w = σ(s) for the rows whose keep is not 0
// (every row for a null keep).
void sigmoid_kept(f64 *w, const f64 *s, const f64 *keep, i32 n) {
	for (i32 e = 0; e < n; e++) {
		if (!keep || keep[e] != 0) {
			w[e] = sigmoid_go(s[e]);
		}
	}
}

// sigmoid_common reports whether both lanes of x take exp_go's main path
// (neither NaN, nor below 2⁻²⁸ in size, nor beyond ±700, where k leaves
// (−1021, 1022)): there sigmoid_v gives sigmoid_go's bits.
static int sigmoid_common(v128_t x) {
	v128_t a = wasm_f64x2_abs(x);
	return wasm_i64x2_all_true(wasm_v128_and(wasm_f64x2_ge(a, SPLAT(1.0 / (1 << 28))), wasm_f64x2_le(a, SPLAT(700))));
}

// sigmoid_v is sigmoid_go on two lanes that sigmoid_common accepts: the
// same operations, lane by lane.
static v128_t sigmoid_v(v128_t x) {
	const f64 ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10,
	          log2e = 1.44269504088896338700e+00, p1 = 1.66666666666666657415e-01,
	          p2 = -2.77777777770155933842e-03, p3 = 6.61375632143793436117e-05,
	          p4 = -1.65339022054652515390e-06, p5 = 4.13813679705723846039e-08;
	v128_t neg = wasm_f64x2_lt(x, SPLAT(0));
	v128_t arg = wasm_v128_bitselect(x, wasm_f64x2_neg(x), neg); // x < 0: Exp(x); else Exp(−x)
	v128_t aneg = wasm_f64x2_lt(arg, SPLAT(0));
	v128_t kf = wasm_f64x2_trunc(ADD(MUL(SPLAT(log2e), arg), wasm_v128_bitselect(SPLAT(-0.5), SPLAT(0.5), aneg)));
	v128_t hi = wasm_f64x2_sub(arg, MUL(kf, SPLAT(ln2Hi)));
	v128_t lo = MUL(kf, SPLAT(ln2Lo));
	v128_t r = wasm_f64x2_sub(hi, lo);
	v128_t t = MUL(r, r);
	v128_t poly = ADD(SPLAT(p4), MUL(t, SPLAT(p5)));
	poly = ADD(SPLAT(p3), MUL(t, poly));
	poly = ADD(SPLAT(p2), MUL(t, poly));
	poly = ADD(SPLAT(p1), MUL(t, poly));
	v128_t c = wasm_f64x2_sub(r, MUL(t, poly));
	v128_t y = wasm_f64x2_sub(SPLAT(1), wasm_f64x2_sub(wasm_f64x2_sub(lo, wasm_f64x2_div(MUL(r, c), wasm_f64x2_sub(SPLAT(2), c))), hi));
	v128_t k = wasm_i64x2_extend_low_i32x4(wasm_i32x4_trunc_sat_f64x2_zero(kf));
	v128_t e = MUL(y, wasm_i64x2_shl(wasm_i64x2_add(k, wasm_i64x2_splat(1023)), 52));
	v128_t d = ADD(SPLAT(1), e);
	return wasm_v128_bitselect(wasm_f64x2_div(e, d), wasm_f64x2_div(SPLAT(1), d), neg);
}

// relu_v is relu on two lanes: +0 where the sign bit is set, NaN kept.
static v128_t relu_v(v128_t v) {
	return wasm_v128_and(v, wasm_v128_or(wasm_v128_not(wasm_i64x2_shr(v, 63)), wasm_f64x2_ne(v, v)));
}

// LO and HI take the first and the second lanes of two vectors: the
// entries j of two rows, and the entries j+1.
#define LO(a, b) wasm_i64x2_shuffle((a), (b), 0, 2)
#define HI(a, b) wasm_i64x2_shuffle((a), (b), 1, 3)

// pf1_pair is pathfinder1_forward for the rows e0 and e1 (e1 may be e0:
// then it is computed twice and stored once). Both rows share each load
// of W₁ᵀ; the second layer's sums run one per lane, each in order of j.
static void pf1_pair(f64 *h, f64 *s, f64 *w, const f64 *z, const f64 *w1t, const f64 *b1, const f64 *w2, f64 b2,
                     i32 e0, i32 e1, i32 d, i32 nh) {
	const v128_t zero = SPLAT(0);
	const f64 *z0 = z + (i64)e0 * d, *z1 = z + (i64)e1 * d;
	f64 *h0 = h + (i64)e0 * nh, *h1 = h + (i64)e1 * nh;
	v128_t t = zero;
	for (i32 j = 0; j < nh; j += 8) {
		v128_t a0 = zero, a1 = zero, a2 = zero, a3 = zero, c0 = zero, c1 = zero, c2 = zero, c3 = zero;
		const f64 *b = w1t + j;
		for (i32 p = 0; p < d; p++, b += nh) {
			v128_t x = SPLAT(z0[p]), y = SPLAT(z1[p]);
			v128_t q0 = LOAD(b), q1 = LOAD(b + 2), q2 = LOAD(b + 4), q3 = LOAD(b + 6);
			a0 = ADD(a0, MUL(x, q0));
			a1 = ADD(a1, MUL(x, q1));
			a2 = ADD(a2, MUL(x, q2));
			a3 = ADD(a3, MUL(x, q3));
			c0 = ADD(c0, MUL(y, q0));
			c1 = ADD(c1, MUL(y, q1));
			c2 = ADD(c2, MUL(y, q2));
			c3 = ADD(c3, MUL(y, q3));
		}
		v128_t bb0 = LOAD(b1 + j), bb1 = LOAD(b1 + j + 2), bb2 = LOAD(b1 + j + 4), bb3 = LOAD(b1 + j + 6);
		a0 = relu_v(ADD(a0, bb0));
		a1 = relu_v(ADD(a1, bb1));
		a2 = relu_v(ADD(a2, bb2));
		a3 = relu_v(ADD(a3, bb3));
		c0 = relu_v(ADD(c0, bb0));
		c1 = relu_v(ADD(c1, bb1));
		c2 = relu_v(ADD(c2, bb2));
		c3 = relu_v(ADD(c3, bb3));
		STORE(h0 + j, a0);
		STORE(h0 + j + 2, a1);
		STORE(h0 + j + 4, a2);
		STORE(h0 + j + 6, a3);
		STORE(h1 + j, c0);
		STORE(h1 + j + 2, c1);
		STORE(h1 + j + 4, c2);
		STORE(h1 + j + 6, c3);
		const f64 *u = w2 + j;
		t = ADD(t, MUL(LO(a0, c0), SPLAT(u[0])));
		t = ADD(t, MUL(HI(a0, c0), SPLAT(u[1])));
		t = ADD(t, MUL(LO(a1, c1), SPLAT(u[2])));
		t = ADD(t, MUL(HI(a1, c1), SPLAT(u[3])));
		t = ADD(t, MUL(LO(a2, c2), SPLAT(u[4])));
		t = ADD(t, MUL(HI(a2, c2), SPLAT(u[5])));
		t = ADD(t, MUL(LO(a3, c3), SPLAT(u[6])));
		t = ADD(t, MUL(HI(a3, c3), SPLAT(u[7])));
	}
	t = ADD(t, SPLAT(b2));
	f64 t0 = wasm_f64x2_extract_lane(t, 0), t1 = wasm_f64x2_extract_lane(t, 1);
	f64 w0, w1;
	if (sigmoid_common(t)) {
		v128_t sv = sigmoid_v(t);
		w0 = wasm_f64x2_extract_lane(sv, 0), w1 = wasm_f64x2_extract_lane(sv, 1);
	} else {
		w0 = sigmoid_go(t0), w1 = sigmoid_go(t1);
	}
	s[e0] = t0;
	w[e0] = w0;
	if (e1 != e0) {
		s[e1] = t1;
		w[e1] = w1;
	}
}

// pathfinder1_forward is Pathfinder1Forward
// (pdn/internal/kernels/pathfinder.go): the pathfinder's forward pass over
// its layers for one hidden layer of H units over D inputs, for the rows
// lo..hi-1 whose keep is not 0 (all for a null keep):
//
//	h = ReLU(z·W₁ᵀ + b₁)  (as mul_abt, then relu)
//	s = h·w₂ + b₂          (as mul_abt_narrow)
//	w = σ(s)
//
// h and s are kept for the backward pass; the other rows are left as they
// were. H must be a multiple of 8 and at most 64; w1t is W₁ᵀ (D×H). The
// kept rows go two at a time.
void pathfinder1_forward(f64 *h, f64 *s, f64 *w, const f64 *z, const f64 *w1t, const f64 *b1, const f64 *w2, f64 b2,
                         const f64 *keep, i32 lo, i32 hi, i32 d, i32 nh) {
	i32 first = -1;
	for (i32 e = lo; e < hi; e++) {
		if (keep && keep[e] == 0) {
			continue;
		}
		if (first < 0) {
			first = e;
			continue;
		}
		pf1_pair(h, s, w, z, w1t, b1, w2, b2, first, e, d, nh);
		first = -1;
	}
	if (first >= 0) {
		pf1_pair(h, s, w, z, w1t, b1, w2, b2, first, first, d, nh);
	}
}

// gate_v is relu_backward on two lanes.
static v128_t gate_v(v128_t dy, v128_t y) {
	return wasm_v128_and(dy, wasm_i64x2_shr(wasm_i64x2_neg(y), 63));
}

// pathfinder1_backward is Pathfinder1Backward (pathfinder.go): the
// pathfinder's backward pass over its layers for one hidden layer, over
// the rows lo..hi-1 (lo a multiple of 4): from
// ∂L/∂w (gw) it accumulates the gradients of W₁ (H×D), b₁, w₂ and b₂,
// each entry summed over the rows in the order and groups the unfused
// kernels use:
//
//	g   = (gw·w)·(1 − w)                       per row
//	∂w₂ += add_atb(g, h)     ∂b₂ += sum_rows_add(g)
//	dh  = relu_backward(0 + g·w₂, h)
//	∂W₁ += add_atb(dh, z)    ∂b₁ += sum_rows_add(dh)
//
// add_atb folds four rows at a time (and skips an output whose four
// factors are zero), so groups of four rows go together here too; the
// last hi−lo mod 4 rows go one at a time, as in add_atb. Lanes run across
// the columns of ∂w₂, dh, ∂b₁ and a row of ∂W₁.
//
// Only the hidden units j0..j1-1 (multiples of 2) are taken: their
// entries of ∂w₂, ∂b₁ and rows of ∂W₁, and ∂b₂ where j0 is 0. Each entry
// is its own sum over the rows, so a range gives the bits of the whole,
// and ranges can run at once (the pool's pieces).
void pathfinder1_backward(f64 *gw1, f64 *gb1, f64 *gw2, f64 *gb2, const f64 *gw, const f64 *w, const f64 *h, const f64 *z,
                          const f64 *w2, i32 lo, i32 hi, i32 d, i32 nh, i32 j0, i32 j1) {
	f64 dh[4][64];
	i32 e = lo;
	for (; e + 4 <= hi; e += 4) {
		f64 g0 = (gw[e] * w[e]) * (1 - w[e]), g1 = (gw[e + 1] * w[e + 1]) * (1 - w[e + 1]);
		f64 g2 = (gw[e + 2] * w[e + 2]) * (1 - w[e + 2]), g3 = (gw[e + 3] * w[e + 3]) * (1 - w[e + 3]);
		const f64 *h0 = h + (i64)e * nh, *h1 = h0 + nh, *h2 = h1 + nh, *h3 = h2 + nh;
		v128_t v0 = SPLAT(g0), v1 = SPLAT(g1), v2 = SPLAT(g2), v3 = SPLAT(g3);
		if (!(g0 == 0 && g1 == 0 && g2 == 0 && g3 == 0)) {
			for (i32 p = j0; p < j1; p += 2) {
				v128_t t = ADD(ADD(ADD(MUL(v0, LOAD(h0 + p)), MUL(v1, LOAD(h1 + p))), MUL(v2, LOAD(h2 + p))), MUL(v3, LOAD(h3 + p)));
				STORE(gw2 + p, ADD(LOAD(gw2 + p), t));
			}
		}
		if (j0 == 0) {
			*gb2 = (((*gb2 + g0) + g1) + g2) + g3;
		}
		const v128_t zero = SPLAT(0);
		for (i32 j = j0; j < j1; j += 2) {
			v128_t u = LOAD(w2 + j);
			v128_t d0 = gate_v(ADD(zero, MUL(v0, u)), LOAD(h0 + j));
			v128_t d1 = gate_v(ADD(zero, MUL(v1, u)), LOAD(h1 + j));
			v128_t d2 = gate_v(ADD(zero, MUL(v2, u)), LOAD(h2 + j));
			v128_t d3 = gate_v(ADD(zero, MUL(v3, u)), LOAD(h3 + j));
			STORE(&dh[0][j], d0);
			STORE(&dh[1][j], d1);
			STORE(&dh[2][j], d2);
			STORE(&dh[3][j], d3);
			STORE(gb1 + j, ADD(ADD(ADD(ADD(LOAD(gb1 + j), d0), d1), d2), d3));
		}
		const f64 *z0 = z + (i64)e * d, *z1 = z0 + d, *z2 = z1 + d, *z3 = z2 + d;
		for (i32 j = j0; j < j1; j++) {
			f64 s0 = dh[0][j], s1 = dh[1][j], s2 = dh[2][j], s3 = dh[3][j];
			if (s0 == 0 && s1 == 0 && s2 == 0 && s3 == 0) {
				continue;
			}
			f64 *cj = gw1 + (i64)j * d;
			v128_t x0 = SPLAT(s0), x1 = SPLAT(s1), x2 = SPLAT(s2), x3 = SPLAT(s3);
			i32 p = 0;
			for (; p + 2 <= d; p += 2) {
				v128_t t = ADD(ADD(ADD(MUL(x0, LOAD(z0 + p)), MUL(x1, LOAD(z1 + p))), MUL(x2, LOAD(z2 + p))), MUL(x3, LOAD(z3 + p)));
				STORE(cj + p, ADD(LOAD(cj + p), t));
			}
			for (; p < d; p++) {
				cj[p] = cj[p] + (((s0 * z0[p] + s1 * z1[p]) + s2 * z2[p]) + s3 * z3[p]);
			}
		}
	}
	for (; e < hi; e++) {
		f64 g = (gw[e] * w[e]) * (1 - w[e]);
		const f64 *he = h + (i64)e * nh, *ze = z + (i64)e * d;
		for (i32 p = j0; p < j1; p++) {
			gw2[p] = gw2[p] + g * he[p];
		}
		if (j0 == 0) {
			*gb2 = *gb2 + g;
		}
		for (i32 j = j0; j < j1; j++) {
			f64 v = 0 + g * w2[j];
			i64 on = (i64)(0 - bits_of(he[j])) >> 63;
			f64 s = from_bits(bits_of(v) & (u64)on);
			gb1[j] = gb1[j] + s;
			f64 *cj = gw1 + (i64)j * d;
			for (i32 p = 0; p < d; p++) {
				cj[p] = cj[p] + s * ze[p];
			}
		}
	}
}

// ---- The graph convolution's backward pass, fused ----

// row_dots sets dots[k] = dot(dy_v, h_u) for the entries k0..end-1 of row
// u (neighbour v = col[k]): four neighbours at once, two lanes each, each
// lane's sum in order of j from 0; the rows of dy were just read by the
// row's propagation, so they come from the cache.
static void row_dots(f64 *dots, const f64 *dy, const f64 *hu, i32 m, i32 k, i32 end, const i32 *col) {
	for (; k + 4 <= end; k += 4) {
		const f64 *a0 = dy + (i64)col[k] * m, *a1 = dy + (i64)col[k + 1] * m;
		const f64 *a2 = dy + (i64)col[k + 2] * m, *a3 = dy + (i64)col[k + 3] * m;
		v128_t s01 = SPLAT(0), s23 = SPLAT(0);
		i32 j = 0;
		for (; j + 2 <= m; j += 2) {
			v128_t x0 = wasm_v128_load64_splat(hu + j), x1 = wasm_v128_load64_splat(hu + j + 1);
			v128_t p0 = LOAD(a0 + j), p1 = LOAD(a1 + j), p2 = LOAD(a2 + j), p3 = LOAD(a3 + j);
			s01 = ADD(s01, MUL(LO(p0, p1), x0));
			s23 = ADD(s23, MUL(LO(p2, p3), x0));
			s01 = ADD(s01, MUL(HI(p0, p1), x1));
			s23 = ADD(s23, MUL(HI(p2, p3), x1));
		}
		for (; j < m; j++) {
			v128_t x = SPLAT(hu[j]);
			s01 = ADD(s01, MUL(wasm_f64x2_make(a0[j], a1[j]), x));
			s23 = ADD(s23, MUL(wasm_f64x2_make(a2[j], a3[j]), x));
		}
		STORE(dots + k, s01);
		STORE(dots + k + 2, s23);
	}
	for (; k < end; k++) {
		dots[k] = dot(dy + (i64)col[k] * m, hu, m);
	}
}

// propagate_dots is PropagateDots (pdn/internal/kernels/propagation.go):
// for the rows lo..hi-1, Propagation.Rows (y = Â dy) and the rows' share
// of AccumulateEdges and AccumulateSelf in one pass over the neighbours:
// for the k-th entry of row u, neighbour v,
//
//	dots[k] = dot(dy_v, h_u)     gSelf_u += dot(dy_u, h_u)
//
// so that AccumulateEdges' dot(dy_src, h_dst) is the entry of row dst and
// dot(dy_dst, h_src) that of row src (combine_dots adds them). Each dot is
// summed in order from 0, as dot.
void propagate_dots(f64 *y, const f64 *dy, const f64 *h, i32 m, i32 lo, i32 hi, const i32 *row_ptr, const i32 *col,
                    const i32 *eid, const f64 *coef, const f64 *self, f64 *dots, f64 *g_self) {
	for (i32 u = lo; u < hi; u++) {
		propagate_rows(y, dy, m, u, u + 1, row_ptr, col, eid, coef, self);
		const f64 *hu = h + (i64)u * m;
		row_dots(dots, dy, hu, m, row_ptr[u], row_ptr[u + 1], col);
		g_self[u] = g_self[u] + dot(dy + (i64)u * m, hu, m);
	}
}

// combine_dots is CombineDots, the rest of AccumulateEdges for the edges
// lo..hi-1: gCoef_e += dot(dy_src, h_dst) + dot(dy_dst, h_src), from the
// entries at_dst[e] (in row dst) and at_src[e] (in row src) of dots.
void combine_dots(f64 *g_coef, const f64 *dots, const i32 *at_src, const i32 *at_dst, i32 lo, i32 hi) {
	for (i32 e = lo; e < hi; e++) {
		g_coef[e] = g_coef[e] + (dots[at_dst[e]] + dots[at_src[e]]);
	}
}

// ---- Dropout's draws ----

// pcg_uint64 is math/rand/v2's PCG.Uint64 on the state {hi, lo}: the
// 128-bit LCG step, then DXSM; 64×64-bit products as math/bits.Mul64.
static u64 pcg_uint64(u64 *state) {
	const u64 mulHi = 2549297995355413924ULL, mulLo = 4865540595714422341ULL;
	const u64 incHi = 6364136223846793005ULL, incLo = 1442695040888963407ULL;
	u64 shi = state[0], slo = state[1];
	// hi, lo = bits.Mul64(slo, mulLo)
	u64 x0 = slo & 0xffffffff, x1 = slo >> 32, y0 = mulLo & 0xffffffff, y1 = mulLo >> 32;
	u64 w0 = x0 * y0;
	u64 t = x1 * y0 + (w0 >> 32);
	u64 w1 = t & 0xffffffff, w2 = t >> 32;
	w1 += x0 * y1;
	u64 hi = x1 * y1 + w2 + (w1 >> 32);
	u64 lo = slo * mulLo;
	hi += shi * mulLo + slo * mulHi;
	u64 sum = lo + incLo;
	u64 carry = ((lo & incLo) | ((lo | incLo) & ~sum)) >> 63;
	lo = sum;
	hi = hi + incHi + carry;
	state[0] = hi;
	state[1] = lo;
	hi ^= hi >> 32;
	hi *= 0xda942042e4dd58b5ULL;
	hi ^= hi >> 48;
	hi *= (lo | 1);
	return hi;
}

// dropout_draw is DropoutDraw (pdn/internal/kernels/elem.go): each of n
// units kept with probability keep = thresh/2³², as mask = scale·[x <
// thresh] for the low and then the high 32 bits of each draw.
void dropout_draw(f64 *mask, i32 n, u64 *state, u64 thresh, f64 scale) {
	for (i32 i = 0; i < n; i += 2) {
		u64 r = pcg_uint64(state);
		mask[i] = scale * (f64)(((r & 0xffffffff) - thresh) >> 63);
		if (i + 1 < n) {
			mask[i + 1] = scale * (f64)(((r >> 32) - thresh) >> 63);
		}
	}
}

// ---- The symmetric normalisation ----

// norm_forward is NormForward (pdn/internal/kernels/norm.go): degrees,
// r = d^{-1/2}, self-loops and coefficients.
void norm_forward(f64 *deg, f64 *r, f64 *self, f64 *coef, const f64 *w, i32 n, i32 ne, const i32 *row_ptr,
                  const i32 *eid, const i32 *src, const i32 *dst) {
	for (i32 i = 0; i < n; i++) {
		f64 d = 1.0;
		for (i32 k = row_ptr[i]; k < row_ptr[i + 1]; k++) {
			d = d + w[eid[k]];
		}
		deg[i] = d;
		r[i] = d > 0 ? 1 / __builtin_sqrt(d) : 0;
		self[i] = r[i] * r[i];
	}
	for (i32 e = 0; e < ne; e++) {
		coef[e] = (r[src[e]] * w[e]) * r[dst[e]];
	}
}

// norm_backward is NormBackward (norm.go): gw from the gradients of
// the coefficients and self-loops.
void norm_backward(f64 *gw, f64 *g_r, const f64 *g_self, const f64 *g_coef, const f64 *r, const f64 *w, i32 n, i32 ne,
                   const i32 *src, const i32 *dst) {
	for (i32 i = 0; i < n; i++) {
		g_r[i] = (2 * g_self[i]) * r[i];
	}
	for (i32 e = 0; e < ne; e++) {
		i32 u = src[e], v = dst[e];
		f64 gc = g_coef[e] * w[e];
		g_r[u] = g_r[u] + gc * r[v];
		g_r[v] = g_r[v] + gc * r[u];
		gw[e] = (g_coef[e] * r[u]) * r[v];
	}
	for (i32 i = 0; i < n; i++) {
		f64 ri = r[i];
		g_r[i] = ((-0.5 * g_r[i]) * (ri * ri)) * ri;
	}
	for (i32 e = 0; e < ne; e++) {
		gw[e] = gw[e] + (g_r[src[e]] + g_r[dst[e]]);
	}
}

// add_transposed is AddTransposed (pdn/internal/kernels/sparse.go):
// c (m×k) += ctᵀ for ct (k×m).
void add_transposed(f64 *c, const f64 *ct, i32 m, i32 k) {
	for (i32 o = 0; o < m; o++) {
		f64 *co = c + (i64)o * k;
		for (i32 j = 0; j < k; j++) {
			co[j] = co[j] + ct[(i64)j * m + o];
		}
	}
}

// transpose is Transpose (pdn/internal/kernels/dense.go): t (m×n) = aᵀ
// for a (n×m).
void transpose(f64 *t, const f64 *a, i32 n, i32 m) {
	for (i32 i = 0; i < n; i++) {
		const f64 *ai = a + (i64)i * m;
		for (i32 j = 0; j < m; j++) {
			t[(i64)j * n + i] = ai[j];
		}
	}
}

// adam_step is AdamStep (pdn/internal/kernels/adam.go), with Go's
// constants passed in (c1 = 1−β₁ and c2 = 1−β₂ as Go rounds them):
//
//	g ← g + λθ (λ ≠ 0),  m ← β₁m + c1·g,  v ← β₂v + (c2·g)·g,
//	θ ← θ − (step·m) / (√v/bc2 + ε).
void adam_step(f64 *val, const f64 *grad, f64 *m, f64 *v, i32 n, f64 wd, f64 b1, f64 c1, f64 b2, f64 c2, f64 step,
               f64 bc2, f64 eps) {
	for (i32 i = 0; i < n; i++) {
		f64 g = grad[i];
		if (wd != 0) {
			g = g + wd * val[i];
		}
		m[i] = b1 * m[i] + c1 * g;
		v[i] = b2 * v[i] + (c2 * g) * g;
		val[i] = val[i] - (step * m[i]) / (__builtin_sqrt(v[i]) / bc2 + eps);
	}
}

// ---- The wrappers' scans ----
//
// Before each call of a function that reads an index array, its wrapper
// (wasm_simd128.go: indices, rowPtrs) checks every value it will read:
// these scans, O(e) a call, took a tenth of an epoch on the largest graphs
// in Go; here they take four lanes at a time, 6-10 times as fast. They
// only read, the n values from their pointer, which the wrapper has
// checked its slice holds (at), and answer; the wrapper decides, and on a
// bad answer runs its Go scan to name the value.

// max_index is the largest of idx[0..n-1] taken as unsigned (a negative
// value is then above any size), 0 for n = 0: every value lies in [0, size)
// when it is below size. Sixteen values a pass into four maxima of four
// lanes, then the lanes, then the last n mod 4.
i32 max_index(const i32 *idx, i32 n) {
	v128_t m0 = wasm_i32x4_splat(0), m1 = m0, m2 = m0, m3 = m0;
	i32 k = 0;
	for (; k + 16 <= n; k += 16) {
		m0 = wasm_u32x4_max(m0, LOAD(idx + k));
		m1 = wasm_u32x4_max(m1, LOAD(idx + k + 4));
		m2 = wasm_u32x4_max(m2, LOAD(idx + k + 8));
		m3 = wasm_u32x4_max(m3, LOAD(idx + k + 12));
	}
	for (; k + 4 <= n; k += 4) {
		m0 = wasm_u32x4_max(m0, LOAD(idx + k));
	}
	m0 = wasm_u32x4_max(wasm_u32x4_max(m0, m1), wasm_u32x4_max(m2, m3));
	m0 = wasm_u32x4_max(m0, wasm_i32x4_shuffle(m0, m0, 2, 3, 0, 1));
	m0 = wasm_u32x4_max(m0, wasm_i32x4_shuffle(m0, m0, 1, 0, 3, 2));
	unsigned m = wasm_u32x4_extract_lane(m0, 0);
	for (; k < n; k++) {
		unsigned v = (unsigned)idx[k];
		m = v > m ? v : m;
	}
	return (i32)m;
}

// ordered_i32 is 1 if p[0..n-1] never decrease (p[k-1] <= p[k] for every
// k), else 0: row pointers of 32 bits. Eight pairs a pass, each value
// against the one before it, the lanes' failures or'ed together.
i32 ordered_i32(const i32 *p, i32 n) {
	v128_t bad = wasm_i32x4_splat(0);
	i32 k = 1;
	for (; k + 8 <= n; k += 8) {
		bad = wasm_v128_or(bad, wasm_i32x4_lt(LOAD(p + k), LOAD(p + k - 1)));
		bad = wasm_v128_or(bad, wasm_i32x4_lt(LOAD(p + k + 4), LOAD(p + k + 3)));
	}
	i32 ok = !wasm_v128_any_true(bad);
	for (; k < n; k++) {
		ok &= p[k - 1] <= p[k];
	}
	return ok;
}

// ordered_i64 is ordered_i32 for row pointers of 64 bits (Go's int).
i32 ordered_i64(const i64 *p, i32 n) {
	v128_t bad = wasm_i32x4_splat(0);
	i32 k = 1;
	for (; k + 8 <= n; k += 8) {
		bad = wasm_v128_or(bad, wasm_i64x2_lt(LOAD(p + k), LOAD(p + k - 1)));
		bad = wasm_v128_or(bad, wasm_i64x2_lt(LOAD(p + k + 2), LOAD(p + k + 1)));
		bad = wasm_v128_or(bad, wasm_i64x2_lt(LOAD(p + k + 4), LOAD(p + k + 3)));
		bad = wasm_v128_or(bad, wasm_i64x2_lt(LOAD(p + k + 6), LOAD(p + k + 5)));
	}
	i32 ok = !wasm_v128_any_true(bad);
	for (; k < n; k++) {
		ok &= p[k - 1] <= p[k];
	}
	return ok;
}

// ---- The pool: the pieces of a product on several threads ----
//
// Built with atomics (kernels-threads.wasm, over a shared memory), the
// worker's products run in pieces on helper threads, each a Web Worker
// (or a Node worker thread) with its own instance of this module over the
// Go program's memory and its own stack, waiting in pool_helper. The Go
// side (pool_simd128.go) collects a product's pieces as calls of the
// functions above, with their arguments, and pool_run hands them out: each
// thread claims a piece at a time and runs its calls in order. A piece
// computes its own entries of the output, each one sum in one order, so the
// bits are those of one thread, however many run and whichever claims what.
#ifdef __wasm_atomics__

typedef unsigned long long u64;
typedef unsigned int u32;

// call is one call of a function above: its number (pool_simd128.go's
// k* constants) and its arguments, each 64 bits (a pointer or int in the
// low 32, an f64 as its bits).
typedef struct {
	i32 fn, _;
	u64 a[15];
} call;

// pool is the control block, in Go's memory. claim packs the batch's
// generation (bits 40-63), its number of pieces (20-39) and the next piece
// to claim (0-19), so that one atomic add claims a piece of the batch it
// names, and a thread late from the last batch finds it spent.
typedef struct {
	i32 wake;    // raised, and notified, when a batch is ready
	i32 pending; // pieces of the batch not yet done
	i32 quit;    // helpers return
	i32 helped;  // pieces the helpers ran, ever (tests read it)
	u64 claim;
	const call *calls;   // the batch's calls
	const i32 *pieces;   // piece i is calls[pieces[i]] .. calls[pieces[i+1]-1]
	i32 active;          // the helpers that may claim its pieces: those numbered below
	i32 dead;            // a helper died (pool_helper_died): no batch runs again
	u32 holding;         // bit i: helper i is running a piece
	i32 _;
} pool;

static f64 f64_of(u64 b) { return __builtin_bit_cast(f64, b); }

#define P(i) ((void *)(u32)c->a[i])
#define I(i) ((i32)(u32)c->a[i])

static void trap_on_helper(pool *p, i32 helper);
void pool_helper_died(pool *p, i32 index);

// run_call runs c on thread helper: 0 the caller, i + 1 helper i.
static void run_call(const call *c, pool *p, i32 helper) {
	switch (c->fn) {
	case 1: mul_abt(P(0), P(1), P(2), P(3), P(4), I(5), I(6), I(7)); break;
	case 2: mul_abt_narrow(P(0), P(1), P(2), P(3), P(4), I(5), I(6)); break;
	case 3: add_atb(P(0), P(1), P(2), I(3), I(4), I(5), I(6), I(7)); break;
	case 4: sp_mul_abt(P(0), P(1), P(2), P(3), I(4), I(5), P(6), I(7)); break;
	case 5: sp_accum_atb(P(0), P(1), P(2), P(3), P(4), I(5), I(6), I(7), I(8), I(9)); break;
	case 6: relu(P(0), P(1), I(2)); break;
	case 7: propagate_rows(P(0), P(1), I(2), I(3), I(4), P(5), P(6), P(7), P(8), P(9)); break;
	case 8: propagate_dots(P(0), P(1), P(2), I(3), I(4), I(5), P(6), P(7), P(8), P(9), P(10), P(11), P(12)); break;
	case 9: combine_dots(P(0), P(1), P(2), P(3), I(4), I(5)); break;
	case 10: accumulate_edges(P(0), P(1), P(2), I(3), I(4), I(5), P(6), P(7)); break;
	case 11: pathfinder1_forward(P(0), P(1), P(2), P(3), P(4), P(5), P(6), f64_of(c->a[7]), P(8), I(9), I(10), I(11), I(12)); break;
	case 12: pathfinder1_backward(P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), I(9), I(10), I(11), I(12), I(13), I(14)); break;
	case 13: trap_on_helper(p, helper); break;
	case 14: pool_helper_died(p, I(0)); break; // tests: helper I(0)'s host says it died

	default: __builtin_trap(); // a call the Go side does not defer
	}
}

#undef P
#undef I

// claim_and_run runs pieces of the batch until none is left unclaimed, on
// thread helper (0 the caller, i + 1 helper i). A helper marks the piece
// it runs as held, so that if it dies there its host's pool_helper_died
// counts that piece lost, and only then.
static void claim_and_run(pool *p, i32 helper) {
	for (;;) {
		u64 w = __atomic_fetch_add(&p->claim, 1, __ATOMIC_SEQ_CST);
		u32 count = (u32)(w >> 20) & 0xfffff, i = (u32)w & 0xfffff;
		if (i >= count) {
			return;
		}
		u32 bit = helper ? 1u << (helper - 1) : 0;
		__atomic_fetch_or(&p->holding, bit, __ATOMIC_SEQ_CST);
		for (i32 k = p->pieces[i]; k < p->pieces[i + 1]; k++) {
			run_call(&p->calls[k], p, helper);
		}
		if (helper) {
			__atomic_fetch_add(&p->helped, 1, __ATOMIC_SEQ_CST);
		}
		__atomic_fetch_and(&p->holding, ~bit, __ATOMIC_SEQ_CST);
		if (__atomic_sub_fetch(&p->pending, 1, __ATOMIC_SEQ_CST) == 0) { // the caller may wait for this one
			__builtin_wasm_memory_atomic_notify(&p->pending, 1);
		}
	}
}

// spins is how many times a thread reads a word before it sleeps on it:
// a batch follows the last within microseconds while an epoch runs, and
// a browser's wake-up from memory.atomic.wait takes tens of them, paid
// twice a batch (the helpers woken, the caller woken by the last piece).
// Measured in Chromium on 2 cores, the graph lab's largest synthetic
// graph: without the spin 2 threads ran 0.69 times as fast as one.
#define SPINS (1 << 15)

// spin_while reads *w until it differs from v, SPINS times at most, and
// returns what it read last.
static i32 spin_while(i32 *w, i32 v) {
	i32 now = v;
	for (i32 i = 0; i < SPINS && now == v; i++) {
		now = __atomic_load_n(w, __ATOMIC_SEQ_CST);
	}
	return now;
}

// pool_helper is the life of helper number index (from 0): wait for a
// batch, run pieces of it if the batch lets that many helpers in (a run
// given its share of the cores, beside the page's other runs, lets in
// fewer than have started), wait again; it returns once quit is set (and
// wake notified).
void pool_helper(pool *p, i32 index) {
	for (;;) {
		i32 seen = __atomic_load_n(&p->wake, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&p->quit, __ATOMIC_SEQ_CST)) {
			return;
		}
		// A helper the batch does not let in sleeps at once: its spin
		// would only take a core from those that work.
		i32 in = index < __atomic_load_n(&p->active, __ATOMIC_SEQ_CST);
		if (in) {
			claim_and_run(p, index + 1);
		}
		if (!in || spin_while(&p->wake, seen) == seen) {
			__builtin_wasm_memory_atomic_wait32(&p->wake, seen, -1);
		}
	}
}

// pool_run runs the n pieces of calls on this thread and the first active
// helpers, and returns 0 when all are done, or -1 once a helper has died
// (pool_helper_died), whether or not it took a piece of this batch with
// it. Only the Go side's one thread calls it.
i32 pool_run(pool *p, const call *calls, const i32 *pieces, i32 n, i32 active) {
	if (__atomic_load_n(&p->dead, __ATOMIC_SEQ_CST)) {
		return -1;
	}
	p->calls = calls;
	p->pieces = pieces;
	__atomic_store_n(&p->active, active, __ATOMIC_SEQ_CST);
	__atomic_store_n(&p->pending, n, __ATOMIC_SEQ_CST);
	u64 gen = (__atomic_load_n(&p->claim, __ATOMIC_SEQ_CST) >> 40) + 1;
	__atomic_store_n(&p->claim, (gen << 40) | ((u64)n << 20), __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&p->wake, 1, __ATOMIC_SEQ_CST);
	__builtin_wasm_memory_atomic_notify(&p->wake, 0xffffffffu);
	claim_and_run(p, 0);
	for (;;) {
		i32 left = __atomic_load_n(&p->pending, __ATOMIC_SEQ_CST);
		if (left == 0) {
			return __atomic_load_n(&p->dead, __ATOMIC_SEQ_CST) ? -1 : 0;
		}
		if (spin_while(&p->pending, left) == left) {
			__builtin_wasm_memory_atomic_wait32(&p->pending, left, -1);
		}
	}
}

// pool_helper_died is what the host of helper index calls when its
// pool_helper trapped: it marks the pool dead, and if the helper held a
// piece (a fault in it: the piece will never finish) counts that piece
// done, so that pool_run returns -1 once the live threads' pieces are,
// rather than waiting for ever. A helper that died holding none (between
// pieces, or asleep) takes nothing from the batch. Later batches are
// refused.
void pool_helper_died(pool *p, i32 index) {
	__atomic_store_n(&p->dead, 1, __ATOMIC_SEQ_CST);
	u32 bit = 1u << index;
	if (__atomic_fetch_and(&p->holding, ~bit, __ATOMIC_SEQ_CST) & bit) {
		__atomic_sub_fetch(&p->pending, 1, __ATOMIC_SEQ_CST);
	}
	__builtin_wasm_memory_atomic_notify(&p->pending, 0xffffffffu);
}

// trap_on_helper is call 13, for the tests of a helper's death: on a
// helper it traps; on the caller it waits until every piece of the batch
// is claimed, so that a helper runs the other, whichever thread claims
// first.
static void trap_on_helper(pool *p, i32 helper) {
	if (helper) {
		__builtin_trap();
	}
	for (;;) {
		u64 w = __atomic_load_n(&p->claim, __ATOMIC_SEQ_CST);
		if (((u32)w & 0xfffff) >= ((u32)(w >> 20) & 0xfffff)) {
			return;
		}
	}
}

// pool_threads says this build has the pool.
i32 pool_threads(void) { return 1; }

#else

i32 pool_threads(void) { return 0; }

#endif

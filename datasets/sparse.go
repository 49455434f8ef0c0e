package datasets

import (
	"math"

	"pdnexplorer/i18n/phrase"
)

// CSR is a sparse matrix of Rows×Cols in compressed sparse rows: row i's
// non-zero entries are at the columns Col[Ptr[i]:Ptr[i+1]], strictly
// increasing, with the values Val[Ptr[i]:Ptr[i+1]].
//
// Real graphs come with bag-of-words node features: Cora's 2,708 nodes have
// 1,433 binary features of which 1.3% are non-zero, so a product X·W costs
// O(nnz·H) in this form instead of O(N·F·H), and Facebook's 4,714 or
// Deezer's 31,240 features fit at all.
type CSR struct {
	Rows, Cols int
	Ptr        []int     // Rows+1 offsets into Col and Val
	Col        []int32   // column of each non-zero, increasing within a row
	Val        []float64 // value of each non-zero
}

// NNZ returns the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Val) }

// Check reports the first inconsistency: offsets that are not a
// non-decreasing run from 0 to NNZ, a column out of range or out of order
// within its row, a non-finite value.
func (m *CSR) Check() error {
	switch {
	case m.Rows < 0 || m.Cols < 0:
		return phrase.Errorf("sparse matrix: %d×%d", m.Rows, m.Cols)
	case len(m.Ptr) != m.Rows+1 || m.Ptr[0] != 0 || m.Ptr[m.Rows] != len(m.Col) || len(m.Col) != len(m.Val):
		return phrase.Errorf("sparse matrix: offsets do not span its %d entries in %d rows", len(m.Val), m.Rows)
	}
	for i := 0; i < m.Rows; i++ {
		lo, hi := m.Ptr[i], m.Ptr[i+1]
		if hi < lo {
			return phrase.Errorf("sparse matrix: row %d ends before it starts", i)
		}
		for p := lo; p < hi; p++ {
			c := m.Col[p]
			if c < 0 || int(c) >= m.Cols {
				return phrase.Errorf("sparse matrix: row %d: column %d out of range 0..%d", i, c, m.Cols-1)
			}
			if p > lo && c <= m.Col[p-1] {
				return phrase.Errorf("sparse matrix: row %d: column %d after column %d", i, c, m.Col[p-1])
			}
			if v := m.Val[p]; math.IsNaN(v) || math.IsInf(v, 0) {
				return phrase.Errorf("sparse matrix: row %d column %d is %v", i, c, v)
			}
		}
	}
	return nil
}

// Dense returns the matrix as Rows×Cols row-major values.
func (m *CSR) Dense() []float64 {
	out := make([]float64, m.Rows*m.Cols)
	for i := 0; i < m.Rows; i++ {
		for p := m.Ptr[i]; p < m.Ptr[i+1]; p++ {
			out[i*m.Cols+int(m.Col[p])] = m.Val[p]
		}
	}
	return out
}

// SparseOf returns the non-zeros of a rows×cols row-major matrix.
func SparseOf(x []float64, rows, cols int) *CSR {
	m := &CSR{Rows: rows, Cols: cols, Ptr: make([]int, rows+1)}
	for i := 0; i < rows; i++ {
		for j, v := range x[i*cols : (i+1)*cols] {
			if v != 0 {
				m.Col, m.Val = append(m.Col, int32(j)), append(m.Val, v)
			}
		}
		m.Ptr[i+1] = len(m.Val)
	}
	return m
}

// Select returns the rows of m listed in rows, in that order.
func (m *CSR) Select(rows []int) *CSR {
	out := &CSR{Rows: len(rows), Cols: m.Cols, Ptr: make([]int, len(rows)+1)}
	for i, r := range rows {
		lo, hi := m.Ptr[r], m.Ptr[r+1]
		out.Col, out.Val = append(out.Col, m.Col[lo:hi]...), append(out.Val, m.Val[lo:hi]...)
		out.Ptr[i+1] = len(out.Val)
	}
	return out
}

package linalg

import "gonum.org/v1/gonum/mat"

// SaddlePoint is a factorization of the symmetric KKT matrix [A Gᵀ; G 0] of seed 002,
// eq. 17, that solves in place: the dense KKT or the sparse SparseKKT.
type SaddlePoint interface {
	// FactorizeSym factorizes [A Gᵀ; G 0] (G may be nil when there are no constraints).
	FactorizeSym(A, G mat.Matrix) error
	// Solve overwrites x (holding r) and y (holding s) with the solution of
	// [A Gᵀ; G 0](x, y) = (r, s), without allocating.
	Solve(x, y []float64)
}

var (
	_ SaddlePoint = (*KKT)(nil)
	_ SaddlePoint = (*SparseKKT)(nil)
)

// KKT factorizes and solves saddle-point systems
//
//	[ A  Bᵀ ] [x]   [r]
//	[ C  D  ] [y] = [s]
//
// with A nq×nq, B and C nc×nq and D = d·I (d = 0 for the equations of motion, seed 002
// eq. 17), by dense LU with partial pivoting of the assembled (nq+nc)² matrix. Storage is
// owned by the KKT: refactorizing and solving do not allocate.
type KKT struct {
	nq, nc int
	lu     *LU
	buf    []float64
}

// NewKKT returns a KKT solver for nq unknowns x and nc unknowns y.
func NewKKT(nq, nc int) *KKT {
	return &KKT{nq: nq, nc: nc, lu: NewLU(nq + nc), buf: make([]float64, nq+nc)}
}

// Size returns (nq, nc).
func (k *KKT) Size() (nq, nc int) { return k.nq, k.nc }

// FactorizeSym factorizes [M Gᵀ; G 0].
func (k *KKT) FactorizeSym(M, G mat.Matrix) error { return k.Factorize(M, G, G, 0) }

// Factorize assembles and factorizes [A Bᵀ; C d·I]. B and C may be nil when nc = 0.
func (k *KKT) Factorize(A, B, C mat.Matrix, d float64) error {
	AssembleKKT(k.lu.Matrix().Data, k.nq, k.nc, A, B, C, d)
	return k.lu.Factor()
}

// AssembleKKT writes the saddle-point matrix [A Bᵀ; C d·I] (A nq×nq, B and C nc×nq, nil
// when nc = 0) row-major into dst, of length (nq+nc)², for factorizations that take an
// assembled matrix (LU, SparseLU). It does not allocate.
func AssembleKKT(dst []float64, nq, nc int, A, B, C mat.Matrix, d float64) {
	n := nq + nc
	if len(dst) != n*n {
		panic("linalg: AssembleKKT: dimension mismatch")
	}
	clear(dst)
	copyBlock(dst, n, 0, 0, A, false)
	if nc > 0 {
		copyBlock(dst, n, 0, nq, B, true)
		copyBlock(dst, n, nq, 0, C, false)
		for i := range nc {
			dst[(nq+i)*n+nq+i] = d
		}
	}
}

// copyBlock writes m (or mᵀ) into the n-column row-major data at (r0, c0).
func copyBlock(data []float64, n, r0, c0 int, m mat.Matrix, transpose bool) {
	r, c := m.Dims()
	if d, ok := m.(*mat.Dense); ok && !transpose {
		raw := d.RawMatrix()
		for i := range r {
			copy(data[(r0+i)*n+c0:(r0+i)*n+c0+c], raw.Data[i*raw.Stride:i*raw.Stride+c])
		}
		return
	}
	for i := range r {
		for j := range c {
			if transpose {
				data[(r0+j)*n+c0+i] = m.At(i, j)
			} else {
				data[(r0+i)*n+c0+j] = m.At(i, j)
			}
		}
	}
}

// Solve overwrites x (length nq, holding r) and y (length nc, holding s) with the solution.
func (k *KKT) Solve(x, y []float64) {
	if len(x) != k.nq || len(y) != k.nc {
		panic("linalg: KKT.Solve: dimension mismatch")
	}
	copy(k.buf, x)
	copy(k.buf[k.nq:], y)
	k.lu.Solve(k.buf)
	copy(x, k.buf[:k.nq])
	copy(y, k.buf[k.nq:])
}

// LU returns the factorization of the assembled matrix (for condition estimates).
func (k *KKT) LU() *LU { return k.lu }

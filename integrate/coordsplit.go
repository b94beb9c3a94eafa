package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// coordSplit evaluates the coordinate-splitting (CS) matrix P(q) of seed 003, Definition
// 3.1, an (nq − nc)×nq annihilator of the constraint forces, P(q) G(q)ᵀ = 0:
//
//	P(q) = Xᵀ − Q(q)ᵀ Yᵀ,   Q(q) = (G Y)⁻¹ G X                                  (eq. 3.7)
//
// with Y the nc coordinates an LU factorization of Gᵀ with row pivoting takes as pivots
// and X the others (eqs. 3.8-3.9), or, from a QR factorization of Gᵀ, P = X̃ᵀ with X̃ the
// last nq − nc columns of the orthogonal factor (eqs. 3.10-3.11).
//
// The seed prints the second form of eq. 3.7 as Xᵀ(I − Gᵀ(GY)⁻¹Yᵀ); P Gᵀ = 0 needs
// (GY)⁻ᵀ there (and s = −(GY)⁻ᵀ Yᵀ r below): Qᵀ = XᵀGᵀ(GY)⁻ᵀ. Remark 3.1's claim that
// the rows of P are orthonormal holds for the QR form only.
//
// The CM iteration (daealpha.go) needs P(q) r for residuals r. It uses it in the form of a
// projector Π(q) on ℝ^nq whose kernel is range(G(q)ᵀ) and whose X rows are P(q) r:
//
//	LU:  s = −(G_Y ᵀ)⁻¹ r_Y,   Π r = r + Gᵀ s   (Y rows 0, X rows P r)
//	QR:  Π r = Q diag(0, I) Qᵀ r                (the orthogonal projector onto ker G)
//
// so that P(q_k) r = 0 ⇔ Π(q_k) r = 0 and the Newton system with any matrix [J Gᵀ; G 0]
// evaluated at another q_J solves P(q_J)(J δ) = −P(q_J) Π(q_k) r, whose fixed point is
// P(q_k) r = 0 (Π(q_k) r ∈ range(G(q_J)ᵀ) with Π(q_k) r ∈ ker Π(q_k) forces it to zero
// while G(q_J) Y stays invertible). A stale iteration matrix therefore changes the rate,
// never the solution.
//
// The LU of Gᵀ is linalg.SparseRankLU on G's pattern (the left-looking LU of Gᵀ by rows
// of G; dae.Sparsity's constraint pattern when the System declares it, else dense rows):
// its pivot columns are Y, B = G[Rows, Y] = G_Y, and SolveTrans solves with G_Yᵀ. No
// nq×nq or nc×nq dense matrix is formed for it. The QR form is dense (LAPACK dgeqrf on the
// nq×nc matrix Gᵀ) and is offered for small systems only.
type coordSplit struct {
	nq, nc int
	qr     bool

	// LU form
	lu  *linalg.SparseRankLU
	pat [][]int   // G's pattern by rows
	b   []float64 // right side / solution of the G_Yᵀ solve
	s   []float64 // s = −(G_Yᵀ)⁻¹ r_Y by constraint

	// QR form
	a    blas64.General // Gᵀ, then its factors
	tau  []float64
	work []float64
	col  blas64.General // r as an nq×1 matrix
}

// qrMaxEntries bounds the QR form: it is dense, nq·nc stored entries and O(nq·nc²) work
// per factorization; the bound is the storage of nq = nc = 1000 (a few cut rows on a
// chain of thousands of joint coordinates fit).
const qrMaxEntries = 1000 * 1000

// newCoordSplit returns the CS matrix of sys by LU (qr false) or QR of Gᵀ, or an error
// naming why it cannot.
func newCoordSplit(sys dae.System, qr bool) (*coordSplit, error) {
	nq, nc := sys.Size()
	c := &coordSplit{nq: nq, nc: nc, qr: qr}
	if nc == 0 {
		return c, nil
	}
	if qr {
		if nq*nc > qrMaxEntries {
			return nil, fmt.Errorf("the QR form of the CS matrix is dense; nq·nc = %d·%d exceeds %d entries: use the LU form (formulation %q)", nq, nc, qrMaxEntries, CoordinateSplit)
		}
		c.a = blas64.General{Rows: nq, Cols: nc, Stride: nc, Data: make([]float64, nq*nc)}
		c.tau = make([]float64, nc)
		c.col = blas64.General{Rows: nq, Cols: 1, Stride: 1}
		work := make([]float64, 1)
		lapack64.Geqrf(c.a, c.tau, work, -1)
		n := int(work[0])
		lapack64.Ormqr(blas.Left, blas.Trans, c.a, c.tau, c.col, work, -1)
		c.work = make([]float64, max(n, int(work[0]), nq))
		return c, nil
	}
	if sp, ok := sys.(dae.Sparsity); ok {
		c.pat = sp.ConstraintPattern()
	}
	if c.pat == nil {
		all := make([]int, nq)
		for j := range all {
			all[j] = j
		}
		c.pat = make([][]int, nc)
		for i := range c.pat {
			c.pat[i] = all
		}
	}
	lu, err := linalg.NewSparseRankLU(nc, nq, c.pat)
	if err != nil {
		return nil, err
	}
	c.lu = lu
	c.b, c.s = make([]float64, nc), make([]float64, nc)
	return c, nil
}

// factorDense factorizes Gᵀ from the dense G (nc×nq) at the iterate.
func (c *coordSplit) factorDense(G *mat.Dense) error {
	if c.nc == 0 {
		return nil
	}
	if c.qr {
		for i := range c.nq {
			for k := range c.nc {
				c.a.Data[i*c.nc+k] = G.At(k, i)
			}
		}
		return c.factorQR()
	}
	v := c.lu.Values()
	p := 0
	for i, row := range c.pat {
		gi := G.RawRowView(i)
		for _, j := range row {
			v[p] = gi[j]
			p++
		}
	}
	return c.factorLU()
}

// factorValues factorizes Gᵀ from G's values on the System's constraint pattern
// (dae.ConstraintCSR order, the sparse evaluation path; LU form only).
func (c *coordSplit) factorValues(g []float64) error {
	if c.nc == 0 {
		return nil
	}
	copy(c.lu.Values(), g)
	return c.factorLU()
}

// factorLU factorizes G from the values in c.lu.Values(); G must have full row rank
// (Definition 3.1 needs G_Y invertible).
func (c *coordSplit) factorLU() error {
	if err := c.lu.Factorize(); err != nil {
		return err
	}
	if c.lu.Rank() < c.nc {
		return fmt.Errorf("%w: G has rank %d < %d constraints (the CS matrix of seed 003, Definition 3.1, needs full row rank)",
			linalg.ErrSingular, c.lu.Rank(), c.nc)
	}
	return nil
}

// factorQR computes Gᵀ = Q R (dgeqrf); a diagonal entry of R at or below 1e-10 times the
// largest column norm of Gᵀ is a rank deficiency.
func (c *coordSplit) factorQR() error {
	var scale float64
	for k := range c.nc {
		var s float64
		for i := range c.nq {
			s += c.a.Data[i*c.nc+k] * c.a.Data[i*c.nc+k]
		}
		scale = math.Max(scale, math.Sqrt(s))
	}
	lapack64.Geqrf(c.a, c.tau, c.work, len(c.work))
	for k := range c.nc {
		if !(math.Abs(c.a.Data[k*c.nc+k]) > 1e-10*scale) {
			return fmt.Errorf("%w: R_%d%d = %.3g of the QR factorization of Gᵀ (the CS matrix of seed 003, eq. 3.10, needs full row rank)",
				linalg.ErrSingular, k, k, c.a.Data[k*c.nc+k])
		}
	}
	return nil
}

// project overwrites r (length nq) with Π r (see coordSplit), using the factorization of
// the last factor call (for the LU form also G's values, which the LU keeps).
func (c *coordSplit) project(r []float64) {
	if c.nc == 0 {
		return
	}
	if c.qr {
		c.col.Data = r
		lapack64.Ormqr(blas.Left, blas.Trans, c.a, c.tau, c.col, c.work, len(c.work))
		clear(r[:c.nc])
		lapack64.Ormqr(blas.Left, blas.NoTrans, c.a, c.tau, c.col, c.work, len(c.work))
		c.col.Data = nil
		return
	}
	ys := c.lu.Cols()
	for k, y := range ys {
		c.b[k] = -r[y]
	}
	c.lu.SolveTrans(c.b) // G_Yᵀ s = −r_Y
	for k, i := range c.lu.Rows() {
		c.s[i] = c.b[k]
	}
	v := c.lu.Values() // Factorize keeps G's values
	p := 0
	for i, row := range c.pat {
		for _, j := range row {
			r[j] += v[p] * c.s[i]
			p++
		}
	}
	for _, y := range ys {
		r[y] = 0 // zero up to rounding; exactly zero by Definition 3.1
	}
}

// apply writes P(q) r (length nq − nc, the seed's form) into dst: the X rows of Π r by
// increasing coordinate for the LU form, the last nq − nc entries of Qᵀ r for the QR form.
// r is overwritten. Used by tests and for reports; the iteration uses project.
func (c *coordSplit) apply(dst, r []float64) {
	if c.qr {
		c.col.Data = r
		lapack64.Ormqr(blas.Left, blas.Trans, c.a, c.tau, c.col, c.work, len(c.work))
		c.col.Data = nil
		copy(dst, r[c.nc:])
		return
	}
	c.project(r)
	isY := func(j int) bool {
		for _, y := range c.lu.Cols() {
			if y == j {
				return true
			}
		}
		return false
	}
	k := 0
	for j := range c.nq {
		if !isY(j) {
			dst[k] = r[j]
			k++
		}
	}
}

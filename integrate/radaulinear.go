package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

// radauSystems factorizes and solves the two linear systems of Radau5's simplified Newton
// iteration (Hairer & Wanner 1996, IV.8, "the linear system"): the real one
//
//	(γ/h) K − J
//
// and the complex one ((α + iβ)/h) K − J, with K the diagonal of the first-order form
// (1 on differential rows, 0 on algebraic ones) and J ≈ ∂φ/∂y. Both have the pattern of
// J plus the diagonal of K, so one pattern serves both.
type radauSystems interface {
	// decompose factorizes both matrices for the given J, K diagonal and the scalars
	// fr = γ/h, ar = α/h, br = β/h, with the algebraic rows regularized by ε = reg when
	// reg > 0 (radaureg.go); a singular or non-finite matrix returns an error.
	decompose(J *mat.Dense, kdiag []float64, fr, ar, br float64, reg float64) error
	solveReal(b []float64)       // b ← ((γ/h) K − J)⁻¹ b
	solveComplex(b []complex128) // b ← (((α+iβ)/h) K − J)⁻¹ b
}

// newRadauSystems returns the dense factorizations, or the sparse ones (linalg.SparseLU
// and linalg.ComplexSparseLU) when the first-order form has a pattern (semiExplicit's
// newtonPattern, from dae.Sparsity) and at least sparseMinSize rows, as bdf does.
func newRadauSystems(se *semiExplicit) radauSystems {
	if se.n >= sparseMinSize {
		if pattern := se.newtonPattern(); pattern != nil {
			return newRadauSparse(se, pattern)
		}
	}
	return &radauDense{lu: linalg.NewLU(se.n), clu: newRadauComplexLU(se.n)}
}

// radauDense holds dense LU factorizations with partial pivoting of both matrices.
type radauDense struct {
	lu   *linalg.LU
	clu  radauComplexLU
	full *radauPattern // the singular mode's, made at the first regularization
	// mass is a general K (radauGeneral.KJ) in place of the diagonal kdiag, else nil.
	mass *mat.Dense
}

func (d *radauDense) decompose(J *mat.Dense, kdiag []float64, fr, ar, br float64, reg float64) error {
	n := d.clu.n
	E := d.lu.Matrix().Data
	raw := J.RawMatrix()
	for i := range n {
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		e := E[i*n : (i+1)*n]
		c := d.clu.a[i*n : (i+1)*n]
		for j, x := range row {
			e[j] = -x
			c[j] = complex(-x, 0)
		}
		if d.mass == nil {
			e[i] += fr * kdiag[i]
			c[i] += complex(ar*kdiag[i], br*kdiag[i])
			continue
		}
		for j, k := range d.mass.RawRowView(i) {
			e[j] += fr * k
			c[j] += complex(ar*k, br*k)
		}
	}
	if reg > 0 {
		if d.full == nil {
			d.full = newRadauPattern(nil, n) // every row dense
		}
		regularizeSchur(d.full, E, d.full.sr, reg)
		regularizeSchur(d.full, d.clu.a, d.full.sc, complex(reg, 0))
	}
	if err := d.lu.Factor(); err != nil {
		return err
	}
	return d.clu.factor()
}

func (d *radauDense) solveReal(b []float64)       { d.lu.Solve(b) }
func (d *radauDense) solveComplex(b []complex128) { d.clu.solve(b) }

// radauSparse holds sparse LU factorizations of both matrices on one pattern, with the
// accelerations eliminated (velelim.go): re and cx factorize the matrices on (q, v, λ[,
// μ]). The values are written straight into the eliminations' storage of the full
// pattern (no dense n×n matrix is assembled): slot t holds entry (row[t], col[t]).
type radauSparse struct {
	er       *eliminated[float64]
	ec       *eliminated[complex128]
	re       *linalg.SparseLU
	cx       *linalg.ComplexSparseLU
	row, col []int
	// The regularized factorizations (made at the first regularization) and whether the
	// last decompose used them; neg holds −J on the pattern for the dense-J path.
	aug   *radauAug
	onAug bool
	neg   []float64
	// unit lists the rows whose −J has −1 on a diagonal the pattern lacks (ggl's μ rows
	// in the singular mode's index-3 rows, radauindex3.go); only the regularized
	// factorizations, whose pattern has every diagonal, take them.
	unit []int
}

// newRadauSparse builds the sparse factorizations for pattern. Every differential row
// must have its diagonal in the pattern (newtonPattern puts it there); a pattern that
// lacks one, or that linalg rejects, is a bug of the declared patterns and panics.
func newRadauSparse(se *semiExplicit, pattern [][]int) *radauSparse {
	er, re, err := newRealEliminated(se.n, pattern, se.eliminationStages())
	if err != nil {
		panic(fmt.Sprintf("integrate: radau5: bad Newton matrix pattern: %v", err))
	}
	ec, cx, err := newComplexEliminated(se.n, pattern, se.eliminationStages())
	if err != nil {
		panic(fmt.Sprintf("integrate: radau5: bad Newton matrix pattern: %v", err))
	}
	s := &radauSparse{er: er, ec: ec, re: re, cx: cx}
	for i, cols := range pattern {
		hasDiag := false
		for _, j := range cols {
			s.row = append(s.row, i)
			s.col = append(s.col, j)
			hasDiag = hasDiag || j == i
		}
		if !hasDiag && se.differential(i) {
			panic(fmt.Sprintf("integrate: radau5: Newton matrix pattern lacks the diagonal of differential row %d", i))
		}
	}
	return s
}

func (s *radauSparse) decompose(J *mat.Dense, kdiag []float64, fr, ar, br float64, reg float64) error {
	if s.neg == nil {
		s.neg = make([]float64, len(s.row))
	}
	raw := J.RawMatrix()
	for t, i := range s.row {
		s.neg[t] = -raw.Data[i*raw.Stride+s.col[t]]
	}
	return s.decomposeNeg(s.neg, kdiag, fr, ar, br, reg)
}

// decomposeNeg is decompose with −J given as values on the pattern (the sparse
// evaluation path, semiExplicit.newtonValues with c = 0).
func (s *radauSparse) decomposeNeg(negJ []float64, kdiag []float64, fr, ar, br float64, reg float64) error {
	s.onAug = reg > 0
	if s.onAug {
		if s.aug == nil {
			s.aug = newRadauAug(s.row, s.col, len(kdiag))
		}
		return s.aug.factor(negJ, kdiag, s.unit, fr, ar, br, reg)
	}
	rv, cv := s.er.Values(), s.ec.Values()
	for t, i := range s.row {
		x := negJ[t]
		rv[t], cv[t] = x, complex(x, 0)
		if i == s.col[t] {
			rv[t] += fr * kdiag[i]
			cv[t] += complex(ar*kdiag[i], br*kdiag[i])
		}
	}
	if err := s.er.Factor(); err != nil {
		return err
	}
	return s.ec.Factor()
}

func (s *radauSparse) solveReal(b []float64) {
	if s.onAug {
		s.aug.re.Solve(b)
		return
	}
	s.er.Solve(b)
}

func (s *radauSparse) solveComplex(b []complex128) {
	if s.onAug {
		s.aug.cx.Solve(b)
		return
	}
	s.ec.Solve(b)
}

// radauComplexLU is a dense LU factorization with partial pivoting of a complex n×n
// matrix, row-major, for the complex system of Radau5 (Golub & Van Loan, Algorithm
// 3.4.1, pivoting by |Re| + |Im|). Its storage is allocated once.
type radauComplexLU struct {
	n   int
	a   []complex128
	piv []int
}

func newRadauComplexLU(n int) radauComplexLU {
	return radauComplexLU{n: n, a: make([]complex128, n*n), piv: make([]int, n)}
}

func cabs1(z complex128) float64 { return math.Abs(real(z)) + math.Abs(imag(z)) }

// factor factorizes a in place; a zero or non-finite pivot gives linalg.ErrSingular.
func (f *radauComplexLU) factor() error {
	n, a := f.n, f.a
	for k := range n {
		p, pv := k, cabs1(a[k*n+k])
		for i := k + 1; i < n; i++ {
			if v := cabs1(a[i*n+k]); v > pv {
				p, pv = i, v
			}
		}
		f.piv[k] = p
		if pv == 0 || math.IsNaN(pv) || math.IsInf(pv, 0) {
			return linalg.ErrSingular
		}
		if p != k {
			rk, rp := a[k*n:(k+1)*n], a[p*n:(p+1)*n]
			for j := range rk {
				rk[j], rp[j] = rp[j], rk[j]
			}
		}
		inv := 1 / a[k*n+k]
		rk := a[k*n+k+1 : (k+1)*n]
		for i := k + 1; i < n; i++ {
			l := a[i*n+k] * inv
			a[i*n+k] = l
			if l == 0 {
				continue
			}
			ri := a[i*n+k+1 : (i+1)*n]
			for j, x := range rk {
				ri[j] -= l * x
			}
		}
	}
	return nil
}

// solve overwrites b with the solution of A x = b.
func (f *radauComplexLU) solve(b []complex128) {
	n, a := f.n, f.a
	for k := range n {
		if p := f.piv[k]; p != k {
			b[k], b[p] = b[p], b[k]
		}
	}
	for i := range n {
		s := b[i]
		for j, l := range a[i*n : i*n+i] {
			s -= l * b[j]
		}
		b[i] = s
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for j := i + 1; j < n; j++ {
			s -= a[i*n+j] * b[j]
		}
		b[i] = s / a[i*n+i]
	}
}

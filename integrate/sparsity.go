package integrate

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// kktNewtonPattern returns the structural pattern, row by row, of the Newton matrix
//
//	[ A  Gᵀ ]    A = M, f_q, f_v, (M a)_q and (Gᵀλ)_q combined (MassPattern ∪ CouplingPattern)
//	[ G  0  ]
//
// of the implicit methods whose unknowns are (a, λ) (hht, genalpha), or nil when sys does
// not declare its patterns (dae.Sparsity) or its coupling is dense.
func kktNewtonPattern(sys dae.System) [][]int { return kktPattern(sys, true) }

// kktPattern is the pattern of [A Gᵀ; G 0] with A = M (coupling false) or M ∪ the
// coupling pattern (true); nil without declared patterns or with a dense coupling.
func kktPattern(sys dae.System, coupling bool) [][]int {
	sp, ok := sys.(dae.Sparsity)
	if !ok {
		return nil
	}
	var cp [][]int
	if coupling {
		if cp = sp.CouplingPattern(); cp == nil {
			return nil
		}
	}
	nq, nc := sys.Size()
	mass, gRows := sp.MassPattern(), sp.ConstraintPattern()
	rows := make([][]int, nq+nc)
	for i := range nq {
		rows[i] = append(rows[i], i)
		if cp != nil {
			rows[i] = append(rows[i], cp[i]...)
		}
		if mass != nil {
			rows[i] = append(rows[i], mass[i]...)
		}
	}
	for r, cols := range gRows {
		for _, j := range cols {
			rows[j] = append(rows[j], nq+r) // Gᵀ
		}
		rows[nq+r] = append(rows[nq+r], cols...) // G
	}
	for i := range rows {
		slices.Sort(rows[i])
		rows[i] = slices.Compact(rows[i])
	}
	return rows
}

// si2NewtonPattern returns the pattern of the Newton matrix of generalized-α on the
// stabilized index-2 form (genalpha-si2, newmark on GGL; seed 002 eqs. 93-94), with
// unknowns (Δq, hλ, μ):
//
//	[ J   Gᵀ  J13 ]    J13 = (c M − h(γ/β) f_v) G0ᵀ: row i reaches constraint k when G_k
//	[ G   0   0   ]          touches a column of M or of the coupling in row i
//	[ G1  0   J33 ]    J33 = G1 G0ᵀ: constraints k, l sharing a column
//
// or nil without declared patterns or with a dense coupling.
func si2NewtonPattern(sys dae.System) [][]int {
	base := kktNewtonPattern(sys)
	if base == nil {
		return nil
	}
	sp := sys.(dae.Sparsity)
	nq, nc := sys.Size()
	gRows, coupling, mass := sp.ConstraintPattern(), sp.CouplingPattern(), sp.MassPattern()
	byCol := make([][]int, nq) // constraints touching each column
	for k, cols := range gRows {
		for _, j := range cols {
			byCol[j] = append(byCol[j], k)
		}
	}
	reach := func(dst []int, cols []int) []int {
		for _, j := range cols {
			for _, k := range byCol[j] {
				dst = append(dst, nq+nc+k)
			}
		}
		return dst
	}
	rows := make([][]int, nq+2*nc)
	copy(rows, base)
	for i := range nq {
		rows[i] = reach(slices.Clone(rows[i]), coupling[i])
		rows[i] = reach(rows[i], []int{i})
		if mass != nil {
			rows[i] = reach(rows[i], mass[i])
		}
	}
	for k, cols := range gRows {
		r := nq + nc + k
		rows[r] = append(slices.Clone(cols), reach(nil, cols)...)
	}
	for i := range rows {
		slices.Sort(rows[i])
		rows[i] = slices.Compact(rows[i])
	}
	return rows
}

// asymKKT factorizes saddle-point matrices [A Bᵀ; C d·I] with C ≠ B (HEDOP5's stages,
// seed 002 eq. 81e, where C is G at the next stage point): the dense linalg.KKT, or
// sparseAsymKKT for large systems with patterns.
type asymKKT interface {
	linalg.SaddlePoint
	Factorize(A, B, C mat.Matrix, d float64) error
}

// newAsymKKT returns the factorization of [M Gᵀ; C 0] for sys (C with G's pattern).
func newAsymKKT(sys dae.System) asymKKT {
	nq, nc := sys.Size()
	f := newNewtonFactor(nq+nc, kktPattern(sys, false))
	if f.sparse == nil {
		return linalg.NewKKT(nq, nc)
	}
	return &sparseAsymKKT{nq: nq, nc: nc, f: f, buf: make([]float64, nq+nc)}
}

// sparseAsymKKT assembles [A Bᵀ; C d·I] densely and factorizes it by linalg.SparseLU, or,
// on the sparse evaluation path (sp set), takes A, B, C as pattern values (factorValues).
type sparseAsymKKT struct {
	nq, nc int
	f      *newtonFactor
	buf    []float64
	sp     *sparseEval
	idx    kktScatter
}

// newSparseAsymKKTValues returns the factorization of [M Gᵀ; C 0] filled from sp's
// pattern values, with no dense assembly storage.
func newSparseAsymKKTValues(sys dae.System, sp *sparseEval) *sparseAsymKKT {
	n := sp.nq + sp.nc
	f := newSparseNewtonFactor(n, kktPattern(sys, false))
	// M, Gᵀ and C only: the coupling pattern that λ-dependent forces give sp
	// (newReactionAccel) has no place in this matrix.
	idx := kktScatter{m: scatterMap(&f.csr, &sp.mass, 0, 0, false),
		g: scatterMap(&f.csr, &sp.con, sp.nq, 0, false), gt: scatterMap(&f.csr, &sp.con, 0, sp.nq, true)}
	return &sparseAsymKKT{nq: sp.nq, nc: sp.nc, f: f, buf: make([]float64, n), sp: sp, idx: idx}
}

// factorValues factorizes [M Bᵀ; C 0] for M with the mass pattern and B, C with G's.
func (k *sparseAsymKKT) factorValues(M, B, C []float64) error {
	K := k.f.Values()
	clear(K)
	scatterAdd(K, k.idx.m, M, 1)
	scatterAdd(K, k.idx.gt, B, 1)
	scatterAdd(K, k.idx.g, C, 1)
	return k.f.Factor()
}

// FactorizeSym factorizes [A Gᵀ; G 0]; on the sparse evaluation path A and G must be
// the evaluator's own (sparseEval.kktArgs).
func (k *sparseAsymKKT) FactorizeSym(A, G mat.Matrix) error {
	if k.sp != nil {
		return k.factorValues(k.sp.M, k.sp.G, k.sp.G)
	}
	return k.Factorize(A, G, G, 0)
}

func (k *sparseAsymKKT) Factorize(A, B, C mat.Matrix, d float64) error {
	linalg.AssembleKKT(k.f.Matrix(), k.nq, k.nc, A, B, C, d)
	return k.f.Factor()
}

func (k *sparseAsymKKT) Solve(x, y []float64) {
	copy(k.buf, x)
	copy(k.buf[k.nq:], y)
	k.f.Solve(k.buf)
	copy(x, k.buf[:k.nq])
	copy(y, k.buf[k.nq:])
}

// newtonFactor factorizes an implicit method's Newton matrix, assembled row-major into
// Matrix(): by dense LU, or by sparse LU when the method has the matrix's pattern and the
// matrix has at least sparseMinSize rows (the assembly stays dense; only the pattern
// entries are read).
type newtonFactor struct {
	dense  *linalg.LU
	sparse *linalg.SparseLU
	buf    *mat.Dense // assembly storage of the sparse path; nil when filled by values
	// csr is the sparse paths' pattern, the order of Values(): sparse's own storage
	// (linalg.SparseLU.Pattern), not a copy.
	csr dae.CSR
	reg newtonReg // the regularization that Newton failures near singular positions switch on (regularize.go)
	// elim, in place of sparse, factorizes the first-order form's matrices with the
	// accelerations eliminated (velelim.go), filled by values on csr; elimLU is its LU.
	elim   *eliminated[float64]
	elimLU *linalg.SparseLU
	// repattern gives elim's full pattern, which csr holds only from the first
	// regularization on (pattern).
	repattern func() [][]int
}

// patternCSR returns the pattern of Values(), rebuilding an eliminated factor's.
func (f *newtonFactor) patternCSR() *dae.CSR {
	if f.csr.RowStart == nil && f.repattern != nil {
		n := f.elim.n
		f.csr = dae.NewCSR(f.repattern(), n, n, false)
	}
	return &f.csr
}

// newNewtonFactor returns the factorization for n×n matrices with the given pattern (nil:
// dense). A pattern that linalg rejects is a bug of the System's declared patterns: it
// panics with the pattern error.
func newNewtonFactor(n int, pattern [][]int) *newtonFactor {
	if pattern == nil || n < sparseMinSize {
		return &newtonFactor{dense: linalg.NewLU(n)}
	}
	s, err := linalg.NewSparseLU(n, pattern)
	if err != nil {
		panic(fmt.Sprintf("integrate: bad Newton matrix pattern: %v", err))
	}
	return sparseFactor(s, mat.NewDense(n, n, nil))
}

// sparseFactor returns the newtonFactor of the sparse LU s, assembled into buf (nil:
// filled by values), with the pattern s holds.
func sparseFactor(s *linalg.SparseLU, buf *mat.Dense) *newtonFactor {
	rowStart, cols := s.Pattern()
	n := s.Size()
	return &newtonFactor{sparse: s, buf: buf, csr: dae.CSR{NRows: n, NCols: n, RowStart: rowStart, Cols: cols}}
}

// Matrix returns the row-major n×n storage to assemble the Newton matrix into.
func (f *newtonFactor) Matrix() []float64 {
	if f.sparse != nil {
		return f.buf.RawMatrix().Data
	}
	return f.dense.Matrix().Data
}

// byValues reports whether the matrix is filled value by value (Values, CSR) rather than
// assembled into Matrix().
func (f *newtonFactor) byValues() bool { return f.elim != nil || (f.sparse != nil && f.buf == nil) }

// Values returns the pattern-aligned storage of a factor filled by values.
func (f *newtonFactor) Values() []float64 {
	if f.elim != nil {
		return f.elim.Values()
	}
	return f.sparse.Values()
}

// stored returns what the matrix was written into: Values() or Matrix().
func (f *newtonFactor) stored() []float64 {
	if f.byValues() {
		return f.Values()
	}
	return f.Matrix()
}

// Factor factorizes the matrix held in Matrix() (or Values() when filled by values).
func (f *newtonFactor) Factor() error {
	if f.reg.on {
		return f.factorRegularized()
	}
	if f.elim != nil {
		return f.elim.Factor()
	}
	if f.byValues() {
		return f.sparse.Factor()
	}
	if f.sparse != nil {
		return f.sparse.Factorize(f.buf)
	}
	return f.dense.Factor()
}

// Solve overwrites b with the solution of K x = b.
func (f *newtonFactor) Solve(b []float64) {
	if f.reg.on && f.reg.aug != nil {
		f.reg.aug.Solve(b)
		return
	}
	if f.elim != nil {
		f.elim.Solve(b)
		return
	}
	if f.sparse != nil {
		f.sparse.Solve(b)
		return
	}
	f.dense.Solve(b)
}

// newtonPattern returns the structural pattern of the Newton matrices c·K − ∂φ/∂y of the
// first-order form (semiExplicit), or nil when sys does not declare its patterns
// (dae.Sparsity) or its coupling is dense. With A = coupling ∪ M (∂f/∂q, ∂f/∂v, (M a)_q,
// (Gᵀλ)_q) and G the constraint pattern, by blocks of y = (q, v, a, λ[, μ]):
//
//	q rows:  I (+ A, the (Gᵀμ)_q of GGL) on q,  I on v,  Gᵀ on μ
//	v rows:  I on v,  I on a
//	a rows:  A on q,  A on v,  M ∪ I on a,  Gᵀ on λ
//	λ rows:  G on q, v and a (the union over the formulations' constraint rows)
//	μ rows:  G on q
//
// A superset for the formulations that use fewer blocks; structural zeros cost a little
// fill, not accuracy.
func (s *semiExplicit) newtonPattern() [][]int {
	sp, ok := s.sys.(dae.Sparsity)
	if !ok {
		return nil
	}
	coupling := sp.CouplingPattern()
	if coupling == nil {
		return nil
	}
	mass, gRows := sp.MassPattern(), sp.ConstraintPattern()
	nq := s.nq
	iq, iv, ia, il, imu := s.iq(), s.iv(), s.ia(), s.il(), s.imu()
	rows := make([][]int, s.n)
	add := func(r, off int, cols []int) {
		for _, c := range cols {
			rows[r] = append(rows[r], off+c)
		}
	}
	for i := range nq {
		rows[iq+i] = append(rows[iq+i], iq+i, iv+i)
		if s.hasMu { // the other forms' q' = v rows hold q and v alone (velelim.go)
			add(iq+i, iq, coupling[i])
		}
		rows[iv+i] = append(rows[iv+i], iv+i, ia+i)
		add(ia+i, iq, coupling[i])
		add(ia+i, iv, coupling[i])
		rows[ia+i] = append(rows[ia+i], ia+i)
		if mass != nil {
			add(ia+i, ia, mass[i])
		}
	}
	for r, cols := range gRows {
		for _, j := range cols {
			rows[ia+j] = append(rows[ia+j], il+r) // Gᵀ on λ
			if s.hasMu {
				rows[iq+j] = append(rows[iq+j], imu+r) // Gᵀ on μ
			}
		}
		add(il+r, iq, cols)
		add(il+r, iv, cols)
		add(il+r, ia, cols)
		switch {
		case s.hasMu && r < s.ncH:
			add(imu+r, iq, cols)
		case s.hasMu: // a Pfaffian row's μ = 0 (addMuRows)
			rows[imu+r] = append(rows[imu+r], imu+r)
		}
	}
	for i := range rows {
		slices.Sort(rows[i])
		rows[i] = slices.Compact(rows[i])
	}
	return rows
}

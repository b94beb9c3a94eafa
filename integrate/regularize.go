package integrate

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// newtonRegEps is the relative regularization of the algebraic rows of a Newton matrix:
// each row i with a zero diagonal (a constraint row of a saddle-point matrix) gets
//
//	K_ii = −ε s_i,   s_i = Σ_j K_ij K_ji / K_jj   (over the rows j with K_jj ≠ 0),
//
// s_i the diagonal estimate of the Schur complement G A⁻¹ Gᵀ that eliminating the
// differential rows would leave there. The factorized matrix is then the regularized
// saddle point [A Gᵀ; G −ε diag(S)], whose Schur complement G A⁻¹ Gᵀ + ε diag(S) is
// nonsingular however G loses rank (seed 002 §2.3, Theorem 2: at a rank-deficient G the
// positions, velocities and accelerations stay unique, the multipliers do not; the
// regularized solve picks bounded multipliers instead of amplifying rounding by
// 1/σ_min(G)²). Newton's iteration takes it as an approximate Jacobian: on a full-rank G
// it contracts the constraint residual by ε/(σ²/s + ε) per iteration, at a rank drop it
// leaves the residual's component along the lost directions (second order in the
// distance to the singular position) where it is. ε = 2^-50 ≈ 8.9e-16, measured on A02
// (N = 40) with genalpha: 2^-27 ≈ 7.5e-9 damps directions that are nearly but not quite
// lost and the iteration fails at the first singular position (t ≈ 0.72 s); 2^-40 and
// 2^-50 pass it. ε bounds the multipliers where G is exactly rank deficient.
const newtonRegEps = 0x1p-50

// gRoundUlps is the rounding level of a position constraint g_i(q), in units of
// ε‖q‖∞ (ε = 2⁻⁵², the largest coordinate): g sums terms of the size of the coordinates
// (a revolute joint's x_i + R(θ_i) s_i − x_j − R(θ_j) s_j), so its value at a solution is
// their rounding (measured on A02, N = 40, ‖q‖∞ = 40: |g| settles at 3.6e-15 to 1.2e-14,
// 0.4 to 1.4 ε‖q‖∞). Four, a margin of three over the largest seen: a larger level
// leaves a real residual uncorrected (at ten, hht at tol 1e-10 kept |g| at 8.5e-14 where
// the iteration could reach 7e-15, and the q noise it leaves grows with it: that run
// stopped at t = 9.1 s with its steps shrinking toward a singular instant, at four it
// reaches 20 s).
const gRoundUlps = 4

// dropRoundedConstraints zeroes, in the singular mode's Newton right-hand side, the
// position-constraint rows whose residual is at its rounding level: rows holds
// −g_i/scale (the scaled rows of eq. 12 or 69), q the iterate. Near a singular position
// the solve amplifies the constraint rows by 1/σ_min(G) into q (the increment along a
// nearly lost direction u_k is (u_kᵀ g)/σ_k), so a residual that is only rounding
// moves q by ulp(g)/σ_min: noise the iteration cannot lower, which no step cut lowers
// either (it is independent of h), and which the convergence monitor reads as
// divergence once it exceeds the Newton tolerance (traced on A02, N = 40: hht at tol
// 1e-10 at t = 1.24372 s, σ_min ≈ 1e-3, |g| at 7e-15 and the increments of q at
// 5e-12 from h = 2e-4 s down to HMin). A residual below its rounding carries no
// information about the solution, so it is not corrected: the increment is then the
// Newton step of the equations of motion alone, tangent to the constraints (G Δq = 0),
// whose convergence the monitor can judge. Rows above the level are corrected as before.
func dropRoundedConstraints(rows []float64, scale float64, q []float64) {
	level := gRoundUlps * 0x1p-52 * maxAbs(q)
	for i, r := range rows {
		if math.Abs(r*scale) <= level {
			rows[i] = 0
		}
	}
}

// newtonReg regularizes a newtonFactor's matrix once Newton's iteration has failed with a
// fresh matrix (near a singular position, or with redundant constraints). Until then the
// factorization is the unregularized one, bit for bit. The sparse paths factorize the
// regularized matrix in a second SparseLU whose pattern has every diagonal, made on the
// first regularization, since the Newton patterns leave the constraint rows' diagonal out.
type newtonReg struct {
	on  bool
	aug *linalg.SparseLU // sparse paths: pattern ∪ diagonal
	// slot maps slot t of the newtonFactor's values (CSR pattern) to the slot of aug;
	// diag[i] is the slot of (i, i) in aug; trans[t] the slot of (j, i) in the CSR
	// pattern for slot t = (i, j), −1 when absent; ownDiag[j] the CSR slot of (j, j), −1.
	slot, diag, trans, ownDiag []int
	vals                       []float64 // the regularized values on the CSR pattern
}

// regularize switches f to the regularized factorization for every later Factor.
func (f *newtonFactor) regularize() {
	f.reg.on = true
	if (f.sparse != nil || f.elim != nil) && f.reg.aug == nil {
		f.reg.build(f.patternCSR())
	}
}

// build makes the augmented factorization and the slot maps for the pattern csr.
func (r *newtonReg) build(csr *dae.CSR) {
	n := csr.NRows
	aug := make([][]int, n)
	for i := range n {
		cols := csr.Cols[csr.RowStart[i]:csr.RowStart[i+1]]
		aug[i] = slices.Clone(cols)
		if k, found := slices.BinarySearch(cols, i); !found {
			aug[i] = slices.Insert(aug[i], k, i)
		}
	}
	lu, err := linalg.NewSparseLU(n, aug)
	if err != nil {
		panic(fmt.Sprintf("integrate: regularized Newton matrix pattern: %v", err))
	}
	r.aug = lu
	acsr := dae.NewCSR(aug, n, n, false)
	at := func(p *dae.CSR, i, j int) int {
		cols := p.Cols[p.RowStart[i]:p.RowStart[i+1]]
		if k, ok := slices.BinarySearch(cols, j); ok {
			return p.RowStart[i] + k
		}
		return -1
	}
	nnz := len(csr.Cols)
	r.slot, r.trans, r.vals = make([]int, nnz), make([]int, nnz), make([]float64, nnz)
	r.diag, r.ownDiag = make([]int, n), make([]int, n)
	for i := range n {
		r.diag[i], r.ownDiag[i] = at(&acsr, i, i), at(csr, i, i)
		for t := csr.RowStart[i]; t < csr.RowStart[i+1]; t++ {
			j := csr.Cols[t]
			r.slot[t], r.trans[t] = at(&acsr, i, j), at(csr, j, i)
		}
	}
}

// factorValues factorizes the regularized matrix whose pattern values (csr) are v.
func (r *newtonReg) factorValues(csr *dae.CSR, v []float64) error {
	vals := r.aug.Values()
	clear(vals)
	for t, x := range v {
		vals[r.slot[t]] = x
	}
	for i := range csr.NRows {
		if d := r.ownDiag[i]; d >= 0 && v[d] != 0 {
			continue
		}
		s := 0.0
		for t := csr.RowStart[i]; t < csr.RowStart[i+1]; t++ {
			j := csr.Cols[t]
			if tj, dj := r.trans[t], r.ownDiag[j]; j != i && tj >= 0 && dj >= 0 && v[dj] != 0 {
				s += v[t] * v[tj] / v[dj]
			}
		}
		vals[r.diag[i]] -= newtonRegEps * s
	}
	return r.aug.Factor()
}

// regularizeDense writes the regularized diagonal into the row-major n×n matrix k.
func regularizeDense(k []float64, n int) {
	for i := range n {
		if k[i*n+i] != 0 {
			continue
		}
		s := 0.0
		row := k[i*n : (i+1)*n]
		for j, kij := range row {
			if kjj := k[j*n+j]; kij != 0 && kjj != 0 && j != i {
				s += kij * k[j*n+i] / kjj
			}
		}
		row[i] = -newtonRegEps * s
	}
}

// factorRegularized factorizes the regularized matrix (Factor when regularized).
func (f *newtonFactor) factorRegularized() error {
	switch {
	case f.byValues():
		return f.reg.factorValues(&f.csr, f.Values())
	case f.sparse != nil:
		raw := f.buf.RawMatrix()
		regularizeDense(raw.Data, raw.Rows)
		return f.reg.aug.Factorize(f.buf)
	}
	regularizeDense(f.dense.Matrix().Data, f.dense.Size())
	return f.dense.Factor()
}

// SingularPassage is a singular position of the mechanism that a method passed (G losing
// rank, seed 002 §2.3), or redundant constraints that appeared during the motion. T is
// the accepted state where the singular watch (singularWatch: dopri5, hht, genalpha,
// bdf, radau5) saw the smallest eigenvalue of the Schur complement G M⁻¹ Gᵀ least; where
// the watch did not see it, the instant the Newton iteration failed with a fresh matrix
// and went on with the regularized one (newtonRegEps). Joints
// names the elements owning the constraint rows involved in G's rank drop at T
// (dae.ConstraintRank, failureContext.diagnoseSingular).
//
// When the System is a Reduce of one with redundant rows (dae.Rekeeper), a failure is
// first answered by choosing the kept rows anew (Left and Entered name the constraint
// rows of the full system that swapped): the redundancy found at t₀ has changed.
type SingularPassage struct {
	T       float64  `json:"t"`
	Rank    int      `json:"rank"` // numerical rank of G at T; Rows its number of rows
	Rows    int      `json:"rows"`
	Joints  []string `json:"joints"`
	Left    []string `json:"left,omitempty"`
	Entered []string `json:"entered,omitempty"`
}

// rekeep answers a Newton failure of a reduced system (dae.Rekeeper) at cur by choosing
// its kept rows anew, and returns the passage when they changed.
func (fc *failureContext) rekeep(cur *State) (SingularPassage, bool) {
	rk, ok := fc.sys.(dae.Rekeeper)
	if !ok {
		return SingularPassage{}, false
	}
	left, entered, changed := rk.Rekeep(cur.T, cur.Q)
	if !changed {
		return SingularPassage{}, false
	}
	full := rk.Inner()
	_, nc := fc.sys.Size()
	p := SingularPassage{T: cur.T, Rank: nc, Rows: nc}
	for k := range left {
		p.Left = append(p.Left, dae.ConstraintName(full, left[k]))
		p.Entered = append(p.Entered, dae.ConstraintName(full, entered[k]))
		for _, r := range []int{left[k], entered[k]} {
			if o := dae.ConstraintOwner(full, r); !slices.Contains(p.Joints, o) {
				p.Joints = append(p.Joints, o)
			}
		}
	}
	return p, true
}

// SingularReporter is a Method that goes on past singular positions in its Newton
// iteration (hht, genalpha, bdf, radau5) or steps over them, and lists where it did
// (all of them from their singularWatch too).
type SingularReporter interface {
	SingularPassages() []SingularPassage
}

var (
	_ SingularReporter = (*HHT)(nil)
	_ SingularReporter = (*GenAlpha)(nil)
	_ SingularReporter = (*BDF)(nil)
	_ SingularReporter = (*Radau5)(nil)
	_ SingularReporter = (*DOPRI5)(nil)
)

// singularModeDrop is the loss of rank of G, against the start of the run, at which a
// Newton failure with a fresh matrix counts as a singular position and the iteration
// goes on in its singular mode: the smallest pivot of the pivoted QR of Gᵀ relative to
// the largest (dae.ConstraintRank) below singularModeDrop times its start value. On A02
// (N = 40) the ratio is 0.15 at the start (cranks vertical) and 0.014-0.048 at the
// Newton failures before the first singular position; a regular step that fails because
// it is too long does not move it (failureContext's singularRankDrop, 1e-4, judges a
// failed run, where the iteration has come much closer).
const singularModeDrop = 0.3

// singularRankMaxEntries bounds nq·nc for the dense rank diagnosis of a Newton failure:
// above it (large models) a failure is not examined and the method cuts its step as
// before.
const singularRankMaxEntries = 1 << 18

// diagnoseSingular returns the passage at the accepted state cur and whether G has lost
// rank there against the start of the run: the pivoted QR of Gᵀ has fewer pivots above
// singularModeDrop times the start's pivot ratio (startPivotRatio) than G has rows, the
// pivots at cur taken from the pivoted Cholesky of G Gᵀ (gramRank). The test reuses its
// storage (made at the first failure) and allocates nothing when G keeps its rank; a
// rank drop is an event, and naming its joints (dae.ConstraintRank) allocates.
//
// The start's ratio is the QR's, but the QR (≈ 2 nq nc², 29 M instructions of the 100-bar
// chain's 134 M at tol 1e-4) is taken only when the answer may depend on it: the Gram
// route's start ratio is the QR's to rounding away from ties and within 5 % at the ties
// measured (startPivotRatio), so where every pivot ratio at cur exceeds singularModeDrop
// times startRatioMargin times the Gram route's start ratio, the QR's test passes too
// and G keeps its rank (gramRank.settled).
func (fc *failureContext) diagnoseSingular(cur *State) (SingularPassage, bool) {
	if fc.sys == nil {
		return SingularPassage{}, false
	}
	nq, nc := fc.sys.Size()
	if nc == 0 || nc > nq || nq*nc > singularRankMaxEntries {
		return SingularPassage{}, false
	}
	if fc.rank.gram == nil {
		fc.rank.start(fc.sys, fc.t0, fc.q0)
	}
	fc.rank.factor(fc.sys, cur.T, cur.Q)
	if fc.rank.settled() {
		return SingularPassage{}, false
	}
	ratio0 := fc.rank.startRatio()
	if !(ratio0 > 0) {
		return SingularPassage{}, false // singular from the start: redundancy that Reduce removes
	}
	if fc.rank.gram.Rank(singularModeDrop*ratio0) == nc {
		return SingularPassage{}, false
	}
	r := dae.ConstraintRank(fc.sys, cur.T, cur.Q, singularModeDrop*ratio0)
	p := SingularPassage{T: cur.T, Rank: r.Rank, Rows: r.Rows}
	for _, i := range r.Involved {
		if o := dae.ConstraintOwner(fc.sys, i); !slices.Contains(p.Joints, o) {
			p.Joints = append(p.Joints, o)
		}
	}
	return p, r.Rank < r.Rows
}

// startRatioMargin bounds, for diagnoseSingular's shortcut, how far the QR's start pivot
// ratio may lie above the Gram route's: 2, where the two agree to rounding on every model
// measured but A02 (N = 40), whose tied start gives 0.1529 by the QR and 0.1455 by the
// Gram route (BENCHMARKS.md, "hht's step on the bar chain at tol 1e-4").
const startRatioMargin = 2

// startPivotRatio is the pivot ratio |R_nn|/|R_11| of the column-pivoted QR of Gᵀ (g,
// evaluated at the start), computed once per run, at the first Newton failure whose test
// needs it. It stays the QR's, not gramRank's: start poses are often symmetric (A02's cranks all vertical),
// column norms tie, and the last pivot then depends on how rounding breaks the ties: on
// A02 (N = 40) the QR gives 0.1405 in some of the IFToMM tests' runs and 0.1529 in
// others, the Gram route 0.1455 in all, while the Newton failures there sit at
// 0.043-0.046, within those 5 % of singularModeDrop·ratio0. Away from ties both routes
// agree to rounding (linalg.PivotedGram), so the states tested later take the cheap one.
func startPivotRatio(g *mat.Dense) float64 {
	nc, nq := g.Dims()
	qr := linalg.NewPivotedQR(nq, nc)
	qr.Factorize(g, true)
	if d := qr.Diag(0); d > 0 {
		return qr.Diag(nc-1) / d
	}
	return 0
}

// gramRank is the storage of diagnoseSingular's rank test, made at the first Newton
// failure: G and the pivoted Cholesky of G Gᵀ, whose pivots are those of the
// column-pivoted QR of Gᵀ at a fraction of its cost: the Gram product runs over G's
// nonzeros, the factorization is nc³/3 against the QR's ≈ 2 nq nc². It keeps G at the
// start (g0) for the QR of startPivotRatio, taken when first needed (startRatio), so
// that it is the QR of the G the first failure saw, as when it was taken there.
type gramRank struct {
	g, g0  mat.Dense
	gram   *linalg.PivotedGram
	gram0  float64 // the Gram route's start ratio √(d_last/d_0)
	ratio0 float64 // startPivotRatio of g0, once qr is set
	qr     bool
}

// start makes the storage, keeps G at the start and takes the Gram route's start ratio.
func (r *gramRank) start(sys dae.System, t float64, q []float64) {
	nq, nc := sys.Size()
	r.g.ReuseAs(nc, nq)
	r.g0.ReuseAs(nc, nq)
	r.gram = linalg.NewPivotedGram(nc, nq)
	r.factor(sys, t, q)
	r.g0.Copy(&r.g)
	r.gram0 = 0
	if d := r.gram.Diag(0); d > 0 {
		r.gram0 = r.gram.Diag(nc-1) / d
	}
}

// factor factorizes G(t, q) Gᵀ: r.gram's pivots are those of the pivoted QR of Gᵀ.
func (r *gramRank) factor(sys dae.System, t float64, q []float64) {
	sys.ConstraintJacobian(&r.g, t, q)
	r.gram.Factorize(r.g.RawMatrix().Data)
}

// startRatio returns startPivotRatio at the start, computing it at the first call.
func (r *gramRank) startRatio() float64 {
	if !r.qr {
		r.ratio0, r.qr = startPivotRatio(&r.g0), true
	}
	return r.ratio0
}

// settled reports whether the last factorization keeps the rank whatever the QR's start
// ratio within startRatioMargin of the Gram route's: every pivot ratio above
// singularModeDrop·startRatioMargin·gram0 (gram0 > 0). Then, with the QR's ratio0 ≤
// startRatioMargin·gram0, Rank(singularModeDrop·ratio0) counts every row, and for
// ratio0 = 0 the test returns false as well.
func (r *gramRank) settled() bool {
	m, _ := r.g.Dims()
	if !(r.gram0 > 0) {
		return false
	}
	return r.gram.Rank(singularModeDrop*startRatioMargin*r.gram0) == m
}

func (p SingularPassage) String() string {
	if len(p.Left) > 0 {
		return fmt.Sprintf("t = %.6g s (redundant rows changed: %s now kept in place of %s)", p.T, joinNames(p.Entered), joinNames(p.Left))
	}
	return fmt.Sprintf("t = %.6g s (rank %d of %d rows; joints %s)", p.T, p.Rank, p.Rows, joinNames(p.Joints))
}

// joinNames lists names comma-separated, at most 6 and a count of the rest.
func joinNames(names []string) string {
	const most = 6
	s := ""
	for k, n := range names {
		if k == most {
			return s + fmt.Sprintf(" and %d more", len(names)-most)
		}
		if k > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

func (w *hhtWork) regularization() (*newtonFactor, *failureContext, *State) {
	return w.lu, &w.lad.fc, &w.cur
}

func (w *genAlphaWork) regularization() (*newtonFactor, *failureContext, *State) {
	return w.lu, &w.lad.fc, &w.cur
}

func (w *bdfWork) regularization() (*newtonFactor, *failureContext, *State) {
	return w.lu, &w.lad.fc, &w.cur
}

// SingularPassages lists the singular positions passed (SingularPassage).
func (m *HHT) SingularPassages() []SingularPassage { return m.w.nw.passages }

// SingularPassages lists the singular positions passed (SingularPassage).
func (m *GenAlpha) SingularPassages() []SingularPassage { return m.w.nw.passages }

// SingularPassages lists the singular positions passed (SingularPassage).
func (m *BDF) SingularPassages() []SingularPassage { return m.w.nw.passages }

func (w *radauWork) regularization() (*newtonFactor, *failureContext, *State) {
	return nil, &w.lad.fc, &w.cur
}

// SingularPassages lists the singular positions passed (SingularPassage).
func (m *Radau5) SingularPassages() []SingularPassage { return m.w.nw.passages }

// SingularPassages lists the singular positions the run stepped over (singularWatch).
func (m *DOPRI5) SingularPassages() []SingularPassage { return m.w.watch.passages }

package integrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/joint"
)

// TestBDFMassPrecond checks bdfMassPrecond on the joint chains and the cut-joint four-bar
// in its six forms: (1) it solves the matrix of its doc comment, assembled
// densely from M and G, to rounding; (2) against bdf's exact Newton matrix c K − ∂φ/∂y
// (semiExplicit.jacobian) it is an approximate inverse whose error shrinks with h, as the
// dropped terms are of relative order h.
func TestBDFMassPrecond(t *testing.T) {
	chain, cs := jointChain3D(t, 4, 0.05, 10)
	planar, ps := jointChainPlanar(t, 5)
	fb, fs := jointFourBar(t)
	for _, c := range []struct {
		name string
		sys  dae.System
		s    State
	}{{"chain3D", chain, cs}, {"planar", planar, ps}, {"fourbar", fb, fs}} {
		for _, form := range []Formulation{StabilizedIndex2, Index2, Index2Baumgarte, Index3, Index1, Baumgarte} {
			t.Run(fmt.Sprint(c.name, "/", form), func(t *testing.T) {
				checkBDFMassPrecond(t, c.sys, c.s, form)
			})
		}
	}
}

func checkBDFMassPrecond(t *testing.T, sys dae.System, s State, form Formulation) {
	p, se := precondForTest(t, sys, form)
	nq, nc := sys.Size()
	n := p.size()
	if n != se.n {
		t.Fatalf("size %d, first-order form has %d", n, se.n)
	}
	y := make([]float64, n)
	s.Lambda = append(s.Lambda[:0:0], s.Lambda...)
	if len(s.Lambda) != nc {
		s.Lambda = make([]float64, nc)
	}
	se.pack(y, &s)
	M, G, Gp := massAndJacobian(sys, s.Q)
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	J := mat.NewDense(n, n, nil)
	for _, h := range []float64{1e-2, 1e-3, 1e-4} {
		c := 1 / h
		if err := p.factor(0, s.Q, Gp, c); err != nil {
			t.Fatal(err)
		}
		x := append([]float64(nil), b...)
		p.solve(x)
		// (1) the simplified matrix, assembled densely.
		A := bdfMassPartDense(p, M, G, c)
		if r := relResidual(A, x, b) * norm2(b) / (mat.Norm(A, math.Inf(1))*norm2(x) + norm2(b)); r > 1e-14 {
			t.Errorf("h=%g: simplified matrix backward error %.3g, want ≤ 1e-14", h, r)
		}
		// (2) the exact Newton matrix.
		se.jacobian(J, 0, y)
		J.Scale(-1, J)
		for i := range 2 * nq {
			J.Set(i, i, J.At(i, i)+c)
		}
		// GMRES (gmres.go) on the exact matrix with this preconditioner: the dropped
		// terms are of relative order h except the GGL λ rows' ∂(G v)/∂q δq, which is O(1)
		// but of rank nc, so a few products reach 1e-10.
		kr := newGMRES(n)
		kr.rtol = 1e-10
		z := append([]float64(nil), b...)
		if !kr.solve(denseKrylov{J, p}, z) {
			t.Errorf("h=%g: GMRES did not reach 1e-10 in %d products", h, kr.products)
		}
		var ref mat.VecDense
		if err := ref.SolveVec(J, mat.NewVecDense(n, b)); err != nil {
			t.Fatal(err)
		}
		if e := blockRelDiff(z, ref.RawVector().Data, []int{0, nq, 2 * nq, 3 * nq, n}); e > 1e-7 {
			t.Errorf("h=%g: GMRES solution differs from the LU solution by %.3g (relative, worst block)", h, e)
		}
		// The chain's stiff joint springs (ω ≈ 90 rad/s about a rod's axis) are not small at
		// h = 1e-2, where the dropped terms are O(1) in full rank.
		if lim := 2*nc + 6; h <= 1e-3 && kr.products > lim {
			t.Errorf("h=%g: GMRES took %d products, want ≤ %d", h, kr.products, lim)
		}
		r := precondError(J, p, x, b, []int{0, nq, 2 * nq, 3 * nq, n})
		if testing.Verbose() {
			t.Logf("h=%g: ‖(P⁻¹J − I)x‖/‖x‖ = %.3g, GMRES products %d", h, r, kr.products)
		}
	}
}

// TestBDFMassPrecondSlenderRods: on chains of slender rods (radius 1e-4 m: M's condition
// number 1e10-1e11, a rod's spin inertia 5e-9 kg m² against the root's 1e2-1e3), open
// and closed by a cut joint, bdfMassPrecond.solve recovers a known increment x from
// b = A x (A its matrix, assembled densely, c = 1e4) block by block to within 10 × the
// accuracy of one articulated-body solve M⁻¹(M x_a), in every form: x has every block of size 1,
// so r_q and r_v are of size c and c r_q + r_v of size c². Solving for c² δq from
// A⁻¹(r_a + M(c r_q + r_v)) and recovering δa = c(c δq − r_q) − r_v, as the
// preconditioner once did, left δa relative errors of 1e-4 (open chain, 1e4 × one
// solve's) and 16-37 (closed chain), the noise that stopped radau5 from the loaded 1000-rod state
// (radauKrylov.solveMass).
func TestBDFMassPrecondSlenderRods(t *testing.T) {
	open, os := jointChain3D(t, 20, 1e-4, 0)
	closed, cs := jointClosedChain3DOfRadius(t, 10, 1e-4)
	for _, c := range []struct {
		name string
		sys  dae.System
		s    State
	}{{"open", open, os}, {"closed", closed, cs}} {
		for _, form := range []Formulation{StabilizedIndex2, Index2, Index2Baumgarte, Index3, Index1, Baumgarte} {
			t.Run(fmt.Sprint(c.name, "/", form), func(t *testing.T) {
				checkSlenderRecovery(t, c.sys, c.s, form)
			})
		}
	}
}

func checkSlenderRecovery(t *testing.T, sys dae.System, s State, form Formulation) {
	const c = 1e4
	p, _ := precondForTest(t, sys, form)
	nq, _ := sys.Size()
	M, G, Gp := massAndJacobian(sys, s.Q)
	if err := p.factor(0, s.Q, Gp, c); err != nil {
		t.Fatal(err)
	}
	n := p.size()
	want := make([]float64, n)
	for i := range want {
		want[i] = math.Sin(float64(7*i + 3))
	}
	// The accuracy of one articulated-body solve: M⁻¹(M x_a) against x_a.
	ma, xa := make([]float64, nq), make([]float64, nq)
	mat.NewVecDense(nq, ma).MulVec(M, mat.NewVecDense(nq, want[2*nq:3*nq]))
	sys.(dae.MassSolver).MassSolve(xa, 0, s.Q, ma)
	one := math.Max(blockRelDiff(xa, want[2*nq:3*nq], []int{0, nq}), epsilon)
	b := make([]float64, n)
	mat.NewVecDense(n, b).MulVec(bdfMassPartDense(p, M, G, c), mat.NewVecDense(n, want))
	x := append([]float64(nil), b...)
	p.solve(x)
	blocks := []int{0, nq, 2 * nq, 3 * nq, n}
	names := []string{"q", "v", "a", "multipliers"}
	for k := 0; k+1 < len(blocks); k++ {
		lo, hi := blocks[k], blocks[k+1]
		if hi == lo {
			continue
		}
		e := blockRelDiff(x[lo:hi], want[lo:hi], []int{0, hi - lo})
		t.Logf("%s block: relative error %.2g, %.2g × one solve's", names[k], e, e/one)
		if e > 10*one {
			t.Errorf("%s block: relative error %.3g, want ≤ 10 × one articulated-body solve's (%.3g)", names[k], e, one)
		}
	}
}

// TestBDFMassPrecondGeometricStiffness: with K_g beside the mass (massNewton.stiffen, as
// bdf's factorMass puts it) bdfMassPrecond.solve inverts the mass part with K_g δq in the
// a rows, M δa + K_g δq + Gᵀδλ = r_a, to rounding in every form, on the open 3D chain and
// the chain closed by a cut joint: the residual of each row block is recomputed with
// dae.MassMultiplier and dae.StiffMassSolver's product, so the right side's K_g w/c² (solve)
// is checked against the matrix, not against itself.
func TestBDFMassPrecondGeometricStiffness(t *testing.T) {
	open, os := jointChain3D(t, 4, 0.05, 10)
	closed, cs := jointClosedChain3D(t, 5)
	for _, c := range []struct {
		name string
		sys  *joint.System
		s    State
	}{{"open", open, os}, {"closed", closed, cs}} {
		for _, form := range []Formulation{StabilizedIndex2, Index2, Index2Baumgarte, Index3, Index1, Baumgarte} {
			t.Run(fmt.Sprint(c.name, "/", form), func(t *testing.T) {
				checkStiffPrecond(t, c.sys, c.s, form)
			})
		}
	}
}

func checkStiffPrecond(t *testing.T, sys *joint.System, s State, form Formulation) {
	const c = 300.0
	p, _ := precondForTest(t, sys, form)
	nq, nc := sys.Size()
	var G *mat.Dense
	lambda := make([]float64, nc)
	if nc > 0 {
		G = mat.NewDense(nc, nq, nil)
		sys.ConstraintJacobian(G, 0, s.Q)
		for k := range lambda {
			lambda[k] = 3 * math.Cos(float64(k))
		}
	}
	a := make([]float64, nq)
	sys.Accelerations(a, 0, s.Q, s.V)
	p.mn.stiffen(0, s.Q, s.V, a, lambda, 1)
	if p.mn.k == 0 {
		t.Fatal("no geometric stiffness on a joint chain")
	}
	kg := p.mn.schur.kg
	if err := p.factor(0, s.Q, G, c); err != nil {
		t.Fatal(err)
	}
	n := p.size()
	b := make([]float64, n)
	for i := range b {
		b[i] = math.Sin(float64(5*i + 2))
	}
	x := append([]float64(nil), b...)
	p.solve(x)
	// The rows of the mass part with K_g, as products.
	dq, dv, da, dl := x[:nq], x[nq:2*nq], x[2*nq:3*nq], x[3*nq:3*nq+nc]
	r := make([]float64, n)
	sys.MassMul(r[2*nq:3*nq], 0, s.Q, da)
	sys.AddGeometricStiffnessMul(r[2*nq:3*nq], 0, s.Q, dq, kg, 1)
	for i := range nq {
		r[i] = c*dq[i] - dv[i]
		r[nq+i] = c*dv[i] - da[i]
	}
	for k := range nc {
		g, w := G.RawRowView(k), p.rowWeights(k)
		addScaledRow(r[2*nq:3*nq], g, dl[k])
		r[3*nq+k] = -(w.q*dot(g, dq) + w.v*dot(g, dv) + w.a*dot(g, da))
		if p.hasMu {
			addScaledRow(r[:nq], g, x[3*nq+nc+k])
			r[3*nq+nc+k] = -dot(g, dq)
		}
	}
	var worst, xn float64
	for i := range r {
		worst, xn = math.Max(worst, math.Abs(r[i]-b[i])), math.Max(xn, math.Abs(x[i]))
	}
	t.Logf("max |A x − b| = %.3g, max |x| = %.3g", worst, xn)
	if worst > 1e-13*math.Max(1, xn) {
		t.Errorf("max |A x − b| = %.3g with K_g in the a rows, want ≤ 1e-13 max(1, |x|) (|b| ≤ 1)", worst)
	}
}

// bdfMassPartDense assembles the matrix bdfMassPrecond solves (its doc comment, without
// K_g) densely from M and G (nc×nq; any rows when nc = 0) with p's weights and c.
func bdfMassPartDense(p *bdfMassPrecond, M, G *mat.Dense, c float64) *mat.Dense {
	nq, nc, n := p.nq, p.nc, p.size()
	A := mat.NewDense(n, n, nil)
	for i := range nq {
		A.Set(i, i, c)
		A.Set(i, nq+i, -1)
		A.Set(nq+i, nq+i, c)
		A.Set(nq+i, 2*nq+i, -1)
		for j := range nq {
			A.Set(2*nq+i, 2*nq+j, M.At(i, j))
		}
		for k := range nc {
			w, g := p.rowWeights(k), G.At(k, i)
			A.Set(2*nq+i, 3*nq+k, g)
			A.Set(3*nq+k, i, -w.q*g)
			A.Set(3*nq+k, nq+i, -w.v*g)
			A.Set(3*nq+k, 2*nq+i, -w.a*g)
			if p.hasMu {
				A.Set(i, 3*nq+nc+k, g)
				A.Set(3*nq+nc+k, i, -g)
			}
		}
	}
	return A
}

// precondForTest returns bdfMassPrecond and the first-order form of sys in form, with the
// Baumgarte parameters of these tests and the form's constraint weights set.
func precondForTest(t *testing.T, sys dae.System, form Formulation) (*bdfMassPrecond, *semiExplicit) {
	t.Helper()
	p := newBDFMassPrecond(sys, form, false)
	if p == nil {
		t.Fatal("no preconditioner for a joint system")
	}
	se, err := newSemiExplicit(sys, form, false)
	if err != nil {
		t.Fatal(err)
	}
	se.alpha0, se.baumAlpha, se.baumBeta = 5, 10, 100
	p.cw = newConstraintWeights(se)
	return p, se
}

// massAndJacobian returns M and G of sys at q, G with at least one row (zero when nc = 0),
// and G again or nil when nc = 0 (the factorizations' argument).
func massAndJacobian(sys dae.System, q []float64) (M, G, Gp *mat.Dense) {
	nq, nc := sys.Size()
	M, G = mat.NewDense(nq, nq, nil), mat.NewDense(max(nc, 1), nq, nil)
	sys.Mass(M, 0, q)
	if nc > 0 {
		G = mat.NewDense(nc, nq, nil)
		sys.ConstraintJacobian(G, 0, q)
		Gp = G
	}
	return M, G, Gp
}

// denseKrylov is a dense Newton matrix with bdfMassPrecond as GMRES's krylovSystem.
type denseKrylov struct {
	J *mat.Dense
	p *bdfMassPrecond
}

func (d denseKrylov) jacVec(dst, z []float64) {
	mat.NewVecDense(len(dst), dst).MulVec(d.J, mat.NewVecDense(len(z), z))
}

func (d denseKrylov) precondition(x []float64) { d.p.solve(x) }

// precondError returns max over the blocks (q, v, a and the multipliers) of
// ‖d‖/‖x‖ with x = P⁻¹b and d = P⁻¹(J x − b) = (P⁻¹J − I)x, the distance of the
// left-preconditioned matrix GMRES sees from the identity along x.
func precondError(J *mat.Dense, p *bdfMassPrecond, x, b []float64, blocks []int) float64 {
	var Jx mat.VecDense
	Jx.MulVec(J, mat.NewVecDense(len(x), x))
	d := make([]float64, len(x))
	for i := range d {
		d[i] = Jx.AtVec(i) - b[i]
	}
	p.solve(d)
	var worst float64
	for k := 0; k+1 < len(blocks); k++ {
		lo, hi := blocks[k], blocks[k+1]
		if xn := norm2(x[lo:hi]); xn > 0 {
			worst = math.Max(worst, norm2(d[lo:hi])/xn)
		}
	}
	return worst
}

// blockRelDiff returns the largest ‖x − y‖/‖y‖ over the blocks.
func blockRelDiff(x, y []float64, blocks []int) float64 {
	var worst float64
	for k := 0; k+1 < len(blocks); k++ {
		lo, hi := blocks[k], blocks[k+1]
		d := make([]float64, hi-lo)
		for i := range d {
			d[i] = x[lo+i] - y[lo+i]
		}
		if yn := norm2(y[lo:hi]); yn > 0 {
			worst = math.Max(worst, norm2(d)/yn)
		}
	}
	return worst
}

// relResidual returns ‖A x − b‖/‖b‖.
func relResidual(A *mat.Dense, x, b []float64) float64 {
	n := len(b)
	var num float64
	for i := range n {
		var s float64
		for j, a := range A.RawRowView(i) {
			s += a * x[j]
		}
		num += (s - b[i]) * (s - b[i])
	}
	return math.Sqrt(num) / norm2(b)
}

// TestBDFMassNewtonMatchesDense: on the joint route's 3D chain, planar chain and cut-joint
// four-bar, bdf (GGL and index 2) with the Newton-Krylov corrector preconditioned by
// bdfMassPrecond lands where bdf with its dense Newton matrix lands, within a tenth of
// the error either has against a radau5 run at 1e-10, without dense fallbacks, without a
// stored dense matrix, and its steps allocate nothing.
func TestBDFMassNewtonMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		t.Run(c.name, func(t *testing.T) {
			sys, s := c.make(t)
			ref := radau5Ref(t, sys, s, tEnd)
			for _, form := range []Formulation{StabilizedIndex2, Index2} {
				kry, dense := BDF{Formulation: form}, BDF{Formulation: form}
				runTo(t, &kry, sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
				runTo(t, &dense, hideMassSolver(sys), s, tEnd, StepControl{RTol: tol, ATol: tol})
				if kry.w.pm == nil || dense.w.pm != nil {
					t.Fatalf("%s: the runs did not take the intended paths", form)
				}
				kq, dq := kry.Current().Q, dense.Current().Q
				dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)
				ks, ds := kry.Stats(), dense.Stats()
				t.Logf("%-6s |krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, f evals %d / %d",
					form, dKD, eK, eD, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals)
				// Measured: the paths differ by 0.003 to 0.06 of the error (GMRES at 1e-2 in
				// the Newton norm's variables; 0.13 on the 3D chain at 1e-2 unscaled).
				if dKD > 0.1*eD || eK > 1.1*eD {
					t.Errorf("%s: |krylov − dense| = %.2e, errors krylov %.2e dense %.2e: want the paths to agree to a tenth of the error", form, dKD, eK, eD)
				}
				if ks.DenseFallbacks != 0 || kry.w.lu != nil {
					t.Errorf("%s: %d dense fallbacks on a non-stiff model", form, ks.DenseFallbacks)
				}
				if a := testing.AllocsPerRun(10, func() {
					if err := kry.Step(math.Inf(1)); err != nil {
						t.Fatal(err)
					}
				}); a != 0 {
					t.Errorf("%s step: %g allocations, want 0", form, a)
				}
			}
		})
	}
}

// TestBDFMassNewtonFallsBackOnStiffJoints: on the 3D chain with stiff spring-dampers
// (k = 1e7, d = 1e5 on every joint coordinate) the terms bdfMassPrecond leaves out
// (∂f/∂q, ∂f/∂v against c_j² M) dominate, GMRES misses its tolerance, and bdf falls back
// to its dense matrix (Stats.DenseFallbacks); the run lands on the dense-only run's
// solution within a tenth of its error against radau5 (or of tol).
func TestBDFMassNewtonFallsBackOnStiffJoints(t *testing.T) {
	var kry, dense BDF
	checkStiffFallback(t, &kry, &dense, func() bool { return kry.w.lu != nil })
}

// checkStiffFallback runs kry (a Krylov method) and dense (the same method) to 0.2 s at tol
// 1e-6 on the 3D chain of 10 rods with k = 1e7, d = 1e5 on every joint coordinate, the
// latter with MassSolve hidden, and checks that kry fell back to its dense matrix
// (DenseFallbacks, stored reports its dense matrix allocated) and lands on dense's
// solution within a tenth of dense's error against radau5 at 1e-10 (or of tol).
func checkStiffFallback(t *testing.T, kry, dense Method, stored func() bool) {
	t.Helper()
	const tol, tEnd = 1e-6, 0.2
	sys, s := jointChain3D(t, 10, 0.05, 1e7)
	runTo(t, kry, sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
	runTo(t, dense, hideMassSolver(sys), s, tEnd, StepControl{RTol: tol, ATol: tol})
	ref := radau5Ref(t, sys, s, tEnd)
	st := kry.Stats()
	dKD, eD := maxDiff(kry.Current().Q, dense.Current().Q), maxDiff(dense.Current().Q, ref.Current().Q)
	t.Logf("fallbacks %d, steps %d / %d, |krylov − dense| %.1e, dense error %.1e", st.DenseFallbacks, st.Steps, dense.Stats().Steps, dKD, eD)
	if st.DenseFallbacks == 0 || !stored() {
		t.Errorf("no dense fallback on the stiff chain: %+v", st)
	}
	if dKD > 0.1*math.Max(eD, tol) {
		t.Errorf("|krylov − dense| = %.2e, dense error %.2e", dKD, eD)
	}
}

// TestBDFMassNewtonShortSteps: from a first step of 1e-9 s on the driven cut-joint
// four-bar, bdf's forward differences still see the constraint rows: it runs to 0.01 s
// without fallbacks and agrees with its dense path to 1e-6.
func TestBDFMassNewtonShortSteps(t *testing.T) {
	sys, s := jointFourBarDriven(t, true)
	ctl := StepControl{RTol: 1e-7, ATol: 1e-7, H0: 1e-9}
	var kry, dense BDF
	runTo(t, &kry, sys, s, 0.01, ctl)
	runTo(t, &dense, hideMassSolver(sys), s, 0.01, ctl)
	if d := maxDiff(kry.Current().Q, dense.Current().Q); d > 1e-6 {
		t.Errorf("|krylov − dense| = %.2e at t = 0.01", d)
	}
	if f := kry.Stats().DenseFallbacks; f != 0 || kry.w.pm == nil {
		t.Errorf("%d dense fallbacks (or no Krylov path)", f)
	}
}

// TestBDFMassPrecondStiffensAtForwardDynamics: bdf's preconditioner takes K_g's
// d'Alembert loads at the forward-dynamics accelerations x = M(q)⁻¹(f − Gᵀλ), which its
// scaled dynamic rows M(q_F)(a − x) differentiate to, not at the iterate's a: at an
// iterate whose a is off x (as at the predictor, where the matrix is formed), the factored
// K_g equals the one at x to rounding and differs from the one at a.
func TestBDFMassPrecondStiffensAtForwardDynamics(t *testing.T) {
	sys, s := jointChain3D(t, 4, 0.05, 10)
	m := &BDF{Formulation: StabilizedIndex2}
	if err := m.Init(sys, s, StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
		t.Fatal(err)
	}
	if err := m.Step(math.Inf(1)); err != nil {
		t.Fatal(err)
	}
	w := m.w
	if w.pm == nil || w.pm.mn.schur.st == nil {
		t.Fatal("no stiffened mass preconditioner on the joint chain")
	}
	nq := w.nq
	q, v, a, lambda, _ := w.se.blocks(w.yy)
	tt := w.cur.T + w.hTry
	x := make([]float64, nq)
	sys.Accelerations(x, tt, q, v) // open chain: x = M⁻¹ f
	for i := range a {
		a[i] = x[i] + 5*math.Sin(float64(3*i+1))
	}
	if err := w.residual(); err != nil {
		t.Fatal(err)
	}
	if err := w.factorMass(); err != nil {
		t.Fatal(err)
	}
	got := append([]float64(nil), w.pm.mn.schur.kg...)
	atX := make([]float64, len(got))
	atA := make([]float64, len(got))
	sys.GeometricStiffness(atX, tt, q, v, x, lambda)
	sys.GeometricStiffness(atA, tt, q, v, a, lambda)
	var dx, da, ref float64
	for i, g := range got {
		dx = math.Max(dx, math.Abs(g-atX[i]))
		da = math.Max(da, math.Abs(g-atA[i]))
		ref = math.Max(ref, math.Abs(atX[i]))
	}
	t.Logf("|K_g − K_g(x)| = %.3g, |K_g − K_g(a)| = %.3g, |K_g(x)| = %.3g", dx, da, ref)
	if dx > 1e-9*ref {
		t.Errorf("factored K_g is %.3g from K_g at the forward-dynamics accelerations (scale %.3g)", dx, ref)
	}
	if da < 1e-3*ref {
		t.Errorf("K_g at a and at x agree to %.3g (scale %.3g): the test's a is not off x", da, ref)
	}
}

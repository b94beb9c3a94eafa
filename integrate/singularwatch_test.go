package integrate

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// implicitWatched are the methods whose Newton factorization the singular watch uses
// (schurProbe), with their Newton iteration and the factor c by which the Schur
// complement of their matrix is G M⁻¹ Gᵀ/c to leading order in h (schurBlock): hht
// 1/(1+α), genalpha C = (1 − α_m)/(β(1 − α_f)) of eq. 70, bdf and radau5 1 (after
// c^−(k−1)), and the state their matrix was evaluated at after the first step.
func implicitWatched() []watchedMethod {
	hht, ga, bdf, radau := DefaultHHT(), DefaultGenAlpha(), DefaultBDF(), Radau5{}
	for _, n := range []*NewtonSettings{&hht.Newton, &ga.Newton, &bdf.Newton, &radau.Newton} {
		n.Jacobian = JacobianEveryStep
	}
	return []watchedMethod{
		{"hht", &hht, func() *newtonSolver { return &hht.w.nw }, func() float64 { return 1 / (1 + hht.w.k.alpha) }, func() *State { return hht.Current() }},
		{"genalpha", &ga, func() *newtonSolver { return &ga.w.nw }, func() float64 { return ga.w.cM }, func() *State { return ga.Current() }},
		{"bdf", &bdf, func() *newtonSolver { return &bdf.w.nw }, func() float64 { return 1 }, func() *State { return bdf.Current() }},
		{"radau5", &radau, func() *newtonSolver { return &radau.w.nw }, func() float64 { return 1 }, func() *State { return radau.Previous() }},
	}
}

type watchedMethod struct {
	name string
	m    Method
	nw   func() *newtonSolver
	c    func() float64
	at   func() *State
}

// TestImplicitWatchEigenvalue: μ₀, converged by inverse iteration with the Newton
// factorization of hht, genalpha, bdf and radau5 at their first step, is the smallest
// eigenvalue of G M⁻¹ Gᵀ/c at the state that factorization was made at (closed against a dense symmetric
// eigendecomposition) up to the terms in h the Newton matrices add (measured: 3e-9
// relative for hht after a first step of 3.2e-3 s, 1e-12 for genalpha, 1e-13 for bdf,
// whose first step is 1e-7 s, 2e-16 for radau5 at its start): the watch's threshold, a drop to 0.09 μ₀, compares like
// with like whatever h.
func TestImplicitWatchEigenvalue(t *testing.T) {
	for _, e := range implicitWatched() {
		ch := newChain(3, 1, 1, 9.81)
		if err := e.m.Init(ch, chainStart(ch, nil), StepControl{RTol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		if err := e.m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
		cur := e.at()
		lmin := smallestSchurEigenvalue(t, ch, cur) / e.c()
		if mu := e.nw().watch.w.mu0; !(math.Abs(mu-lmin) <= 1e-6*lmin) {
			t.Errorf("%s: μ₀ = %.12g after a first step of %.3g s, smallest eigenvalue of G M⁻¹ Gᵀ/c %.12g", e.name, mu, e.m.Current().T, lmin)
		}
	}
}

// TestImplicitWatchNoAllocs: the singular watch of hht, genalpha, bdf and radau5 (one solve with
// the Newton factorization after every step that made a fresh one: here every step)
// allocates nothing in a step and reports no passage on the chain, whose G keeps its rank.
func TestImplicitWatchNoAllocs(t *testing.T) {
	for _, e := range implicitWatched() {
		ch := newChain(3, 1, 1, 9.81)
		if err := e.m.Init(ch, chainStart(ch, nil), StepControl{RTol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		if n := stepAllocs(t, e.m, 10, 30); n != 0 {
			t.Errorf("%s: a step with the singular watch allocates %v times, want 0", e.name, n)
		}
		if w := &e.nw().watch.w; !(w.mu0 > 0) || len(e.m.(SingularReporter).SingularPassages()) != 0 {
			t.Errorf("%s: μ₀ = %g, passages %+v; want μ₀ > 0 and none", e.name, w.mu0, e.m.(SingularReporter).SingularPassages())
		}
	}
}

// smallestSchurEigenvalue is the smallest eigenvalue of G M⁻¹ Gᵀ of sys at cur, by a dense
// symmetric eigendecomposition.
func smallestSchurEigenvalue(t *testing.T, sys dae.System, cur *State) float64 {
	t.Helper()
	nq, nc := sys.Size()
	M, G := mat.NewDense(nq, nq, nil), mat.NewDense(nc, nq, nil)
	sys.Mass(M, cur.T, cur.Q)
	sys.ConstraintJacobian(G, cur.T, cur.Q)
	var MinvGt, S mat.Dense
	if err := MinvGt.Solve(M, G.T()); err != nil {
		t.Fatal(err)
	}
	S.Mul(G, &MinvGt)
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(nc, S.RawMatrix().Data), false) {
		t.Fatal("no eigendecomposition")
	}
	return eig.Values(nil)[0]
}

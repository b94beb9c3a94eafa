package integrate

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// denseKnifeScaled hides dae.MassMultiplier from a knife-edge joint system and keeps
// dae.MassSolver and its Pfaffian rows: radau5 then forms its dense Newton matrices with
// the Krylov path's scaled dynamic rows (radauMassRows), as hideMassMultiplier does.
type denseKnifeScaled struct {
	denseScaled
	dae.Nonholonomic
}

// TestRadau5KnifeKrylov: radau5's ggl and index2 forms on the knife-edge chain with a cut
// joint run on the Newton-Krylov path, the Pfaffian row among radauKrylov's rows (its real
// and complex systems; in ggl with μ = 0, gglRows), land where their dense Newton matrices
// land with the same iteration (JacobianEveryStep, RADAU5's simplified one: to 0.25 of the
// dense error against a dense radau5 run at 1e-10), hold the row to the tolerance,
// allocate nothing per step, and take 10 steps at 70 rods (210 coordinates) on the path
// without a dense matrix. The default iteration, which switches to the coupled stage
// system after a Newton failure (radauSwitch; ggl fails once here), ends at most 1.25
// times the dense error from the reference. index3 holds g = 0 alone and refuses
// the rows at every size (pfaffianForms).
func TestRadau5KnifeKrylov(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	sys, s := knifeJointChain(t, 4)
	big, bs := knifeJointChain(t, 70)
	scaled := denseKnifeScaled{hideMassMultiplier(sys).(denseScaled), sys}
	ref := &Radau5{}
	runTo(t, ref, scaled, s.Clone(), tEnd, StepControl{RTol: 1e-10, ATol: 1e-10})
	for _, form := range []Formulation{StabilizedIndex2, Index2} {
		t.Run(string(form), func(t *testing.T) {
			kry, dense := &Radau5{Formulation: form, Newton: NewtonSettings{Jacobian: JacobianEveryStep}}, &Radau5{Formulation: form}
			ctl := StepControl{RTol: tol, ATol: tol}
			runTo(t, kry, sys, s.Clone(), tEnd, ctl)
			runTo(t, dense, scaled, s.Clone(), tEnd, ctl)
			auto := &Radau5{Formulation: form}
			runTo(t, auto, sys, s.Clone(), tEnd, ctl)
			as := auto.Stats()
			eA := maxDiff(auto.Current().Q, ref.Current().Q)
			t.Logf("default iteration: error %.1e, steps %d, Newton failures %d, f evals %d", eA, as.Steps, as.NewtonFailures, as.FuncEvals)
			if kry.w.kry == nil || kry.w.J != nil || dense.w.kry != nil || ref.w.kry != nil {
				t.Fatalf("the runs did not take the intended paths")
			}
			kq, dq := kry.Current().Q, dense.Current().Q
			c := krylovComparison{maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)}
			ks, ds := kry.Stats(), dense.Stats()
			rate := knifeRate(sys, kry.Current())
			t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, newton %d / %d, f evals %d / %d, fallbacks %d; |A v + b| %.1e",
				c.dKD, c.eK, c.eD, ks.Steps, ds.Steps, ks.NewtonIters, ds.NewtonIters, ks.FuncEvals, ds.FuncEvals, ks.DenseFallbacks, rate)
			c.within(t, 0.25, 1.25)
			if eA > 1.25*c.eD {
				t.Errorf("default iteration: error %.2e, want at most 1.25 times the dense one, %.2e", eA, c.eD)
			}
			if ks.DenseFallbacks != 0 {
				t.Errorf("%d dense fallbacks on a non-stiff model", ks.DenseFallbacks)
			}
			if rate > tol {
				t.Errorf("knife row |A v + b| = %.2e at t = %g, want ≤ %g", rate, tEnd, tol)
			}
			stepAllocatesNothing(t, "radau5 on the knife chain", kry)

			m := &Radau5{Formulation: form}
			knifeTenSteps(t, m, big, bs, func() bool { return m.w.kry != nil && m.w.J == nil && m.w.se.M == nil })
		})
	}
	err := (&Radau5{Formulation: Index3}).Init(sys, s.Clone(), StepControl{RTol: tol, ATol: tol})
	if err == nil || !strings.Contains(err.Error(), "nonholonomic") {
		t.Errorf("radau5 index3 on the knife chain: err = %v, want a refusal naming the nonholonomic rows", err)
	}
}

// knifeMassPart is the knife-edge chain in form's first-order form at its start: the
// system with the Pfaffian rows, the form se (G evaluated there, its Baumgarte
// coefficients set) and y. cK returns the real form of c K − J on (Re, Im) for the complex
// c = cr + i ci (K = I on q and v; ci = 0 and re: the real matrix alone), J being the mass
// part of ∂φ/∂y: semiExplicit's approxJacobian, which gives a Pfaffian row (g = 0 in
// dae.WithPfaffianRows) no position weight.
func knifeMassPart(t *testing.T, form Formulation) (*semiExplicit, []float64, func(cr, ci float64, re bool) *mat.Dense) {
	t.Helper()
	sys, s := knifeJointChain(t, 4)
	fsys, err := pfaffianForm("bdf", form, sys)
	if err != nil {
		t.Fatal(err)
	}
	mk := func() *semiExplicit {
		se, err := newSemiExplicit(fsys, form, false)
		if err != nil {
			t.Fatal(err)
		}
		se.baumAlpha, se.baumBeta, se.alpha0 = 5, 30, 40
		return se
	}
	se, dse := mk(), mk()
	if se.ncH == se.nc {
		t.Fatalf("no Pfaffian rows (%d of %d holonomic)", se.ncH, se.nc)
	}
	n, nq := se.n, se.nq
	y := make([]float64, n)
	se.pack(y, &s)
	fsys.ConstraintJacobian(se.G, s.T, s.Q)
	J := mat.NewDense(n, n, nil)
	dse.approxJacobian(J, s.T, y)
	return se, y, radauSystemMatrix(J, n, nq)
}

// checkInverse checks that a x = b to 1e-9 |b| (max norms).
func checkInverse(t *testing.T, label string, a *mat.Dense, x, b []float64) {
	t.Helper()
	r := make([]float64, len(b))
	mat.NewVecDense(len(r), r).MulVec(a, mat.NewVecDense(len(x), x))
	var worst, size float64
	for i := range r {
		worst = math.Max(worst, math.Abs(r[i]-b[i]))
		size = math.Max(size, math.Abs(b[i]))
	}
	t.Logf("%s: |(c K − J) x − b| = %.1e of |b| = %.1e", label, worst, size)
	if worst > 1e-9*size {
		t.Errorf("%s: the preconditioner leaves a residual %.2e, want ≤ 1e-9 |b| = %.2e", label, worst, 1e-9*size)
	}
}

// knifeRight is a right side of n values.
func knifeRight(n int) []float64 {
	b := make([]float64, n)
	for i := range b {
		b[i] = math.Sin(float64(3*i + 1))
	}
	return b
}

// TestRadauSolveMassPfaffian: radauKrylov.solveMass inverts the mass part of radau5's
// real and complex matrices c K − J on the knife-edge chain (knifeMassPart: the Pfaffian
// rows, their ggl μ rows μ = 0) to rounding: GMRES would hide a wrong preconditioner
// behind more products, so the TestRadau5KnifeKrylov runs alone would not see one.
func TestRadauSolveMassPfaffian(t *testing.T) {
	const fr, ar, br = 40.0, 30.0, 25.0 // γ/h, α/h, β/h
	for _, form := range []Formulation{StabilizedIndex2, Index2} {
		t.Run(string(form), func(t *testing.T) {
			se, y, cK := knifeMassPart(t, form)
			k := newRadauKrylov(se, true, false, false, &Stats{})
			if k == nil {
				t.Fatal("no Newton-Krylov systems")
			}
			k.factor(0, y[:se.nq], se.G)
			if err := k.decompose(nil, nil, fr, ar, br, 0); err != nil {
				t.Fatal(err)
			}
			n := se.n
			b := knifeRight(2 * n)
			xr := append([]float64(nil), b[:n]...)
			k.solveMass(xr, nil, complex(fr, 0))
			checkInverse(t, "real", cK(fr, 0, true), xr, b[:n])
			x := append([]float64(nil), b...)
			k.solveMass(x[:n], x[n:], complex(ar, br))
			checkInverse(t, "complex", cK(ar, br, false), x, b)
		})
	}
}

// TestBDFMassPrecondPfaffian: bdfMassPrecond.solve inverts the mass part of bdf's matrix
// c K − J on the knife-edge chain in every form that takes Pfaffian rows, the Baumgarte
// forms' rows without a position weight (rowWeights), to rounding.
func TestBDFMassPrecondPfaffian(t *testing.T) {
	const c = 40.0
	for _, form := range []Formulation{StabilizedIndex2, Index2, Index1, Index2Baumgarte, Baumgarte} {
		t.Run(string(form), func(t *testing.T) {
			se, y, cK := knifeMassPart(t, form)
			p := newBDFMassPrecond(se.sys, form, false)
			if p == nil {
				t.Fatal("no preconditioner")
			}
			p.cw = newConstraintWeights(se)
			if err := p.factor(0, y[:se.nq], se.G, c); err != nil {
				t.Fatal(err)
			}
			b := knifeRight(se.n)
			x := append([]float64(nil), b...)
			p.solve(x)
			checkInverse(t, "bdf", cK(c, 0, true), x, b)
		})
	}
}

// radauSystemMatrix returns, for radau5's Newton matrix with the Jacobian J (n × n, the
// first 2nq rows the q and v rows), the dense real system cr·I − J (re) or the complex one
// [cr·I − J, −ci·I; ci·I, cr·I − J] written as a real 2n × 2n matrix, the identity on the
// q and v rows only (the mass part's rows): the reference the preconditioner tests
// compare with.
func radauSystemMatrix(J *mat.Dense, n, nq int) func(cr, ci float64, re bool) *mat.Dense {
	return func(cr, ci float64, re bool) *mat.Dense {
		a := mat.NewDense(2*n, 2*n, nil)
		for i := range n {
			for j := range n {
				a.Set(i, j, -J.At(i, j))
				a.Set(n+i, n+j, -J.At(i, j))
			}
			if i < 2*nq {
				a.Set(i, i, a.At(i, i)+cr)
				a.Set(n+i, n+i, a.At(n+i, n+i)+cr)
				a.Set(i, n+i, -ci)
				a.Set(n+i, i, ci)
			}
		}
		if re {
			return a.Slice(0, n, 0, n).(*mat.Dense)
		}
		return a
	}
}

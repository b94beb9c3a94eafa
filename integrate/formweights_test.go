package integrate

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestBDFMassNewtonOtherFormsMatchDense: on the joint route's 3D chain, planar chain and
// cut-joint four-bar, bdf in its index3 and index2-baumgarte forms with the Newton-Krylov
// corrector (bdfMassPrecond with the forms' constraintWeights) lands where bdf with its
// dense Newton matrix lands, without dense fallbacks or a stored dense matrix, and its
// steps allocate nothing. index2-baumgarte: the paths differ by at most a quarter of the
// dense error against a dense radau5 run at 1e-10 (measured: 1e-3 to 0.02 of it), the
// Krylov error at most 1.25 times the dense one. index3: the Krylov error is at most
// 3 times the dense one (measured 0.4 to 1.5 times; the paths part by about the error,
// as radau5's index3 does at any forcing term, TestRadau5MassNewtonMatchesDense).
func TestBDFMassNewtonOtherFormsMatchDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		sys, s := c.make(t)
		ref := &Radau5{}
		runTo(t, ref, hideMassSolver(sys), s, tEnd, StepControl{RTol: 1e-10, ATol: 1e-10})
		for _, form := range []Formulation{Index3, Index2Baumgarte} {
			t.Run(fmt.Sprint(c.name, "/", form), func(t *testing.T) {
				kry, dense := BDF{Formulation: form}, BDF{Formulation: form}
				runTo(t, &kry, sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
				runTo(t, &dense, hideMassSolver(sys), s, tEnd, StepControl{RTol: tol, ATol: tol})
				if kry.w.pm == nil || dense.w.pm != nil {
					t.Fatalf("the runs did not take the intended paths")
				}
				kq, dq := kry.Current().Q, dense.Current().Q
				dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)
				ks, ds := kry.Stats(), dense.Stats()
				t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, f evals %d / %d, fallbacks %d",
					dKD, eK, eD, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals, ks.DenseFallbacks)
				if form != Index3 && (dKD > 0.25*eD || eK > 1.25*eD) {
					t.Errorf("|krylov − dense| = %.2e, errors krylov %.2e dense %.2e: want the paths to agree to a quarter of the error", dKD, eK, eD)
				}
				if form == Index3 && eK > 3*eD {
					t.Errorf("errors krylov %.2e, dense %.2e: want the Krylov error at most 3 times the dense one", eK, eD)
				}
				if ks.DenseFallbacks != 0 || kry.w.lu != nil {
					t.Errorf("%d dense fallbacks on a non-stiff model", ks.DenseFallbacks)
				}
				if a := testing.AllocsPerRun(10, func() {
					if err := kry.Step(math.Inf(1)); err != nil {
						t.Fatal(err)
					}
				}); a != 0 {
					t.Errorf("step: %g allocations, want 0", a)
				}
			})
		}
	}
}

// TestDenseNewtonRefusedOnJointRoute: above massNewtonDenseMax coordinates on the joint
// route (the 3D chain of 70 rods, 210 coordinates), the forms without a Newton-Krylov
// corrector (bdf index1 and baumgarte) are refused at Init with a message naming the
// method and the form; the others start. At 60 rods (180 coordinates) the dense forms
// start.
func TestDenseNewtonRefusedOnJointRoute(t *testing.T) {
	big, bs := jointChain3D(t, 70, 0.05, 0)
	small, ss := jointChain3D(t, 60, 0.05, 0)
	ctl := StepControl{RTol: 1e-4, ATol: 1e-4}
	for _, c := range []struct {
		method string
		form   Formulation
		refuse bool
	}{
		{"bdf", Index1, true}, {"bdf", Baumgarte, true}, {"genalpha-si2", StabilizedIndex2, false},
		{"newmark", StabilizedIndex2, false}, {"bdf", Index3, false}, {"bdf", Index2Baumgarte, false},
		{"radau5", Index3, false}, {"genalpha", Index3, false},
	} {
		e, err := Lookup(c.method)
		if err != nil {
			t.Fatal(err)
		}
		m, err := e.NewMethod(c.form)
		if err != nil {
			t.Fatal(err)
		}
		err = m.Init(big, bs, ctl)
		t.Logf("%s %s: %v", c.method, c.form, err)
		want := fmt.Sprintf("integrate: %s: formulation %s on this dae.MassSolver system", c.method, c.form)
		switch {
		case c.refuse && (err == nil || !strings.HasPrefix(err.Error(), want)):
			t.Errorf("%s %s at 210 coordinates: err = %v, want a refusal starting %q", c.method, c.form, err, want)
		case !c.refuse && err != nil:
			t.Errorf("%s %s at 210 coordinates: %v, want a start on the Newton-Krylov path", c.method, c.form, err)
		}
		if m, _ = e.NewMethod(c.form); c.refuse {
			if err := m.Init(small, ss, ctl); err != nil {
				t.Errorf("%s %s at 180 coordinates: %v, want the dense path", c.method, c.form, err)
			}
		}
	}
}

package integrate

import (
	"fmt"
	"strings"
	"testing"
)

// TestBDFMassNewtonIndex2BaumgarteMatchesDense: on the joint route's 3D chain, planar chain and
// cut-joint four-bar, bdf in its index2-baumgarte form with the Newton-Krylov corrector
// (bdfMassPrecond with its constraintWeights) lands where bdf with its dense Newton matrix
// lands, without dense fallbacks or a stored dense matrix, and its steps allocate
// nothing: the paths differ by at most a quarter of the dense error against a dense
// radau5 run at 1e-10 (measured: 1e-3 to 0.02 of it), the Krylov error at most 1.25 times
// the dense one.
func TestBDFMassNewtonIndex2BaumgarteMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		sys, s := c.make(t)
		ref := denseReference(t, sys, s, tEnd)
		t.Run(c.name, func(t *testing.T) {
			kry, dense := &BDF{Formulation: Index2Baumgarte}, &BDF{Formulation: Index2Baumgarte}
			r := compareKrylovDense(t, kry, dense, func() bool { return kry.w.pm != nil && kry.w.lu == nil && dense.w.pm == nil },
				sys, s, ref, tol, tEnd)
			r.within(t, 0.25, 1.25)
		})
	}
}

// TestDenseNewtonRefusedOnJointRoute: above massNewtonDenseMax coordinates on the joint
// route (the 3D chain of 70 rods, 210 coordinates), the forms without a Newton-Krylov
// corrector (bdf index1, baumgarte and index3) are refused at Init with a message naming
// the method and the form; the others start. At 60 rods (180 coordinates) the dense forms
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
		{"newmark", StabilizedIndex2, false}, {"bdf", Index3, true}, {"bdf", Index2Baumgarte, false},
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

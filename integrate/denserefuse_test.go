package integrate

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/joint"
)

// withReaction gives a joint system λ-dependent forces that are identically zero: enough
// for Init to see the capability (dae.HasReactionForce) and choose its path for it, while
// the system keeps dae.MassSolver.
type withReaction struct{ *joint.System }

func (withReaction) HasReactionForce() bool                                               { return true }
func (withReaction) AddReactionForce([]float64, float64, []float64, []float64, []float64) {}
func (withReaction) ReactionForceDerivative(fq, fv, fl *mat.Dense, _ float64, _, _, _ []float64) {
	for _, m := range []*mat.Dense{fq, fv, fl} {
		if m != nil {
			m.Zero()
		}
	}
}

// TestDenseMethodsRefusedOnJointRoute: above massNewtonDenseMax coordinates on the joint
// route (the 3D chain of 70 rods, 210 coordinates) every implicit method starts in every
// form, with and without λ-dependent forces (except daealpha's cs and cs-qr with them,
// refused at every size for eq. 3.6's reason), on its Newton-Krylov or mass-solve path,
// where no nq×nq matrix is formed; a row with a reason would be refused there with a
// message naming the method, the form and the reason, and start at 60 rods (180
// coordinates), where the dense matrices are cheap. The runs' accuracy is checked where
// each path is built (TestHHTFrictionKrylov, TestGenAlphaFrictionKrylov*,
// TestBDFFrictionKrylovLarge, TestRadau5FrictionKrylovLarge, TestALIKrylovFrictionAbove200,
// TestDAEAlphaKrylovLarge, TestDAEAlphaKrylovFrictionLarge, TestGCPABMMassLarge,
// TestGCPKrylovLarge, TestGCPFrictionMassLarge).
func TestDenseMethodsRefusedOnJointRoute(t *testing.T) {
	big, bs := jointChain3D(t, 70, 0.05, 0)
	small, ss := jointChain3D(t, 60, 0.05, 0)
	adaptive := StepControl{RTol: 1e-4, ATol: 1e-4}
	fixed := StepControl{FixedH: 1e-3}
	for _, c := range []struct {
		method   string
		form     Formulation
		ctl      StepControl
		reaction bool
		why      string
	}{
		{"daealpha", Index2, adaptive, true, ""},
		{"daealpha", Index2, adaptive, false, ""},
		{"daealpha", CoordinateSplit, adaptive, false, ""},
		{"daealpha", CoordinateSplitQR, adaptive, false, ""},
		{"daealpha", Index1Projected, adaptive, true, ""},
		{"daealpha", Index1Projected, adaptive, false, ""},
		{"gcp-newmark", StateSpace, adaptive, false, ""},
		{"gcp-fv", StateSpace, adaptive, false, ""},
		{"gcp-fv", StateSpace, adaptive, true, ""},
		{"gcp-abm", StateSpace, fixed, false, ""},
		{"gcp-newmark", StateSpace, adaptive, true, ""},
		{"gcp-abm", StateSpace, fixed, true, ""},
		{"ali3", Index3, fixed, true, ""},
		{"ali1", Index1Projected, fixed, true, ""},
		{"multi-index", IndexSwitching, adaptive, true, ""},
		{"ali3", Index3, fixed, false, ""},
		{"ali1", Index1Projected, fixed, false, ""},
		{"multi-index", IndexSwitching, adaptive, false, ""},
		{"lie-genalpha", Index3, adaptive, true, ""},
		{"lie-genalpha", StabilizedIndex2, adaptive, true, ""},
		{"genalpha", Index3, adaptive, true, ""},
		{"genalpha-si2", StabilizedIndex2, adaptive, true, ""},
		{"newmark", StabilizedIndex2, adaptive, true, ""},
		{"newmark", Index3, adaptive, true, ""},
		{"lie-genalpha", Index3, adaptive, false, ""},
		{"lie-genalpha", StabilizedIndex2, adaptive, false, ""},
		{"hht", Index3, adaptive, true, ""},
		{"hht", Index3, adaptive, false, ""},
		{"bdf", StabilizedIndex2, adaptive, true, ""},
		{"bdf", Index2, adaptive, true, ""},
		{"bdf", Index2Baumgarte, adaptive, true, ""},
		{"bdf", Index3, adaptive, true, ""},
		{"bdf", Index1, adaptive, true, ""},
		{"bdf", Baumgarte, adaptive, true, ""},
		{"radau5", StabilizedIndex2, adaptive, true, ""},
		{"radau5", Index2, adaptive, true, ""},
		{"radau5", Index3, adaptive, true, ""},
	} {
		t.Run(fmt.Sprintf("%s-%s", c.method, c.form), func(t *testing.T) {
			e, err := Lookup(c.method)
			if err != nil {
				t.Fatal(err)
			}
			start := func(sys *joint.System, s State) error {
				m, err := e.NewMethod(c.form)
				if err != nil {
					t.Fatal(err)
				}
				if c.reaction {
					return m.Init(withReaction{sys}, s, c.ctl)
				}
				return m.Init(sys, s, c.ctl)
			}
			err = start(big, bs)
			t.Logf("210 coordinates: %v", err)
			want := fmt.Sprintf("integrate: %s: formulation %s on this dae.MassSolver system", c.method, c.form)
			switch {
			case c.why == "" && err != nil:
				t.Errorf("210 coordinates: %v, want a start on the Newton-Krylov path", err)
			case c.why != "" && (err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.why)):
				t.Errorf("210 coordinates: err = %v, want a refusal starting %q naming %q", err, want, c.why)
			}
			if err := start(small, ss); err != nil {
				t.Errorf("180 coordinates: %v, want the dense path", err)
			}
		})
	}
}

// TestPfaffianRowsStartAbove200: every method that takes Pfaffian rows on the joint route
// starts on its Newton-Krylov path on the knife chain of 70 rods (210 coordinates): hht
// (TestHHTKnifeKrylov), lie-genalpha as genalpha (TestLieGenAlphaKnifeKrylov), genalpha
// (TestGenAlphaKnifeKrylov) and bdf (TestBDFKnifeKrylov). Before session 9 hht and
// lie-genalpha asked the System before dae.WithPfaffianRows had appended the rows, saw
// none, and went on to a dense 210-coordinate Newton matrix; then they were refused here,
// naming the rows, until their paths took them.
func TestPfaffianRowsStartAbove200(t *testing.T) {
	sys, s := knifeJointChain(t, 70)
	for _, method := range []string{"hht", "lie-genalpha", "genalpha", "genalpha-si2", "bdf"} {
		e, err := Lookup(method)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := e.NewMethod("")
		if err := m.Init(sys, s, StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
			t.Errorf("%s: Init: %v, want it to start on its Newton-Krylov path", method, err)
		}
	}
}

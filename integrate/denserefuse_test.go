package integrate

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/joint"
)

// withReaction gives a joint system λ-dependent forces that are identically zero: enough
// for Init to see the capability (dae.HasReactionForce) that keeps lie-genalpha off its
// Newton-Krylov corrector, while the system keeps dae.MassSolver.
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

// TestDenseMethodsRefusedOnJointRoute: the methods without a Newton-Krylov corrector in
// any form (gcp-fv), daealpha's forms other than index2 and index1-proj, and
// lie-genalpha with λ-dependent forces are refused at Init on
// the joint route above massNewtonDenseMax coordinates (the 3D chain of 70 rods, 210
// coordinates) with a message naming the method, the form and the dense matrix or the
// capability, and start at 60 rods (180 coordinates), where their dense matrices are
// cheap; hht (with λ-dependent forces too: TestHHTFrictionKrylov), ali3, ali1 and
// multi-index and daealpha's index2 and index1-proj (with them too:
// TestALIKrylovFrictionAbove200, TestDAEAlphaKrylovFrictionLarge), lie-genalpha without
// them start at 210
// coordinates on their Newton-Krylov path, gcp-abm on its mass-solve path and gcp-newmark
// on its Newton-Krylov path, both with λ-dependent forces too (TestDAEAlphaKrylovLarge,
// TestGCPABMMassLarge, TestGCPNewmarkKrylovLarge and TestGCPFrictionMassLarge run them
// there).
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
		{"daealpha", CoordinateSplit, adaptive, false, "eq. 3.9"},
		{"daealpha", Index1Projected, adaptive, true, ""},
		{"daealpha", Index1Projected, adaptive, false, ""},
		{"gcp-newmark", StateSpace, adaptive, false, ""},
		{"gcp-fv", StateSpace, adaptive, false, "eqs. 29-39"},
		{"gcp-abm", StateSpace, fixed, false, ""},
		{"gcp-newmark", StateSpace, adaptive, true, ""},
		{"gcp-abm", StateSpace, fixed, true, ""},
		{"ali3", Index3, fixed, true, ""},
		{"ali1", Index1Projected, fixed, true, ""},
		{"multi-index", IndexSwitching, adaptive, true, ""},
		{"ali3", Index3, fixed, false, ""},
		{"ali1", Index1Projected, fixed, false, ""},
		{"multi-index", IndexSwitching, adaptive, false, ""},
		{"lie-genalpha", Index3, adaptive, true, "λ-dependent forces"},
		{"lie-genalpha", StabilizedIndex2, adaptive, true, "λ-dependent forces"},
		{"lie-genalpha", Index3, adaptive, false, ""},
		{"lie-genalpha", StabilizedIndex2, adaptive, false, ""},
		{"hht", Index3, adaptive, true, ""},
		{"hht", Index3, adaptive, false, ""},
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

package modelfile

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"linkage/planar"
	"linkage/problems"
)

func loadExample(t *testing.T, name string) *Built {
	t.Helper()
	doc, err := Load(filepath.Join("..", "examples", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func runExample(t *testing.T, b *Built, opt RunOptions) *Result {
	t.Helper()
	r, err := Run(b, opt)
	if err != nil {
		t.Fatalf("%s: %v", b.Doc.File, err)
	}
	return r
}

// TestExamplesEnergy: every example with a checked energy balance. The invariant
// Π = T + V − ∫P_nc (seed 001, eq. 12) must hold to a small fraction of the energy the
// mechanism exchanges, and the drift must shrink when the tolerance does: if P_nc or its
// quadrature were wrong (a missing damper, motion or spring term), the drift would stay at
// the size of that term instead.
func TestExamplesEnergy(t *testing.T) {
	cases := []struct {
		name string
		dof  int
		// maxRel bounds drift/scale at the file's tolerance: about 3× the value measured
		// with hht (slider-crank 7.3e-4, double pendulum 1.7e-4, four-bar 6.5e-5,
		// parallelogram 7.4e-5, stiff double pendulum 7.6e-4), leaving room for a change of
		// step sequence, not for a wrong energy term (which is of order 1). These were 10-60 %
		// lower (four-bar 2.6e-5) while W_nc included −λᵀ G v of every row: λ times hht's
		// velocity residual, which hid part of the integration error that Π measures.
		maxRel float64
	}{
		{"slider-crank", 1, 2e-3},
		{"double-pendulum", 2, 4e-4},
		{"four-bar", 0, 2e-4},
		{"parallelogram", 1, 2e-4},
		{"stiff-double-pendulum", 2, 2e-3},
		// The friction work (planar.System.ReactionPower) is of order 1 of the energy
		// exchanged; measured 2.7e-6 with it.
		{"joint-friction", 2, 1e-5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := loadExample(t, c.name)
			if got := b.DOF(); got != c.dof {
				t.Errorf("DOF = %d, want %d", got, c.dof)
			}
			r := runExample(t, b, RunOptions{})
			rel := r.EnergyDrift / r.EnergyScale
			t.Logf("tol %g: drift %.3e J of %.3g J exchanged (%.2e); max |g| %.1e", r.Tol, r.EnergyDrift, r.EnergyScale, rel, r.Solution.MaxResidual.Pos)
			if !(rel <= c.maxRel) {
				t.Errorf("energy drift %.3e of the energy exchanged, want <= %.1e", rel, c.maxRel)
			}
			// Index-3 methods keep g at the Newton tolerance, far below the step's error:
			// 1e-8 m is 1e-7 of the mechanisms' size (about 0.1 to 2 m).
			if p := r.Solution.MaxResidual.Pos; !(p <= 1e-8) {
				t.Errorf("max |g| = %.2e m, want <= 1e-8", p)
			}
			if testing.Short() {
				return
			}
			tight := runExample(t, b, RunOptions{Tol: r.Tol / 100})
			t.Logf("tol %g: drift %.3e J", tight.Tol, tight.EnergyDrift)
			// With the local error ∝ h^(p+1) held at tol, the global error scales as
			// tol^(p/(p+1)): a factor 100^(2/3) ≈ 22 for HHT (p = 2), 10 even for p = 1. Ask
			// for 4 (measured 15 to 26 on these examples).
			if !(tight.EnergyDrift*4 <= r.EnergyDrift) {
				t.Errorf("drift %.3e at tol %g is not 4× below %.3e at tol %g", tight.EnergyDrift, tight.Tol, r.EnergyDrift, r.Tol)
			}
		})
	}
}

// TestParallelogramRedundant: the third crank's row is found redundant and named, and the
// run with the reduced system keeps every row, the redundant one included, satisfied.
func TestParallelogramRedundant(t *testing.T) {
	b := loadExample(t, "parallelogram")
	red := b.RedundantJoints()
	if len(red) != 1 {
		t.Fatalf("redundant rows %v, want exactly one", red)
	}
	joint, _ := splitChannel(red[0])
	if !slices.Contains([]string{"ground1", "ground2", "ground3", "top1", "top2", "top3"}, joint) {
		t.Errorf("redundant row %q does not belong to a revolute of the linkage", red[0])
	}
	r := runExample(t, b, RunOptions{})
	res := r.Channel("residual.position")
	worst := 0.0
	for _, x := range res {
		worst = math.Max(worst, x)
	}
	// The integrated rows hold to ε = MaxResidual.Pos (the index-3 Newton tolerance). The
	// dropped row is implied by them only through the linkage's geometry: with crank 2 at
	// angle φ its lower end's height y obeys y² − y·sin φ = O(ε), so |y| ≈ ε/|sin φ| and at
	// worst (crank horizontal) √ε. That is the bound on the full system's residual.
	eps := r.Solution.MaxResidual.Pos
	t.Logf("max |g|: integrated rows %.2e, all rows %.2e", eps, worst)
	if !(worst <= math.Sqrt(eps)) {
		t.Errorf("max |g| over all rows = %.2e, want <= sqrt(%.2e)", worst, eps)
	}
	// The parallelogram stays one: crank 3 turns with crank 1. A residual of 1.1e-8 m
	// (measured above) on a 0.5 m crank is 2e-8 rad; 1e-7 rad leaves a factor 5.
	th1, th3 := r.Channel("crank1.theta"), r.Channel("crank3.theta")
	for k := range th1 {
		if d := math.Abs(th1[k] - th3[k]); d > 1e-7 {
			t.Fatalf("t = %g: crank angles differ by %.2e rad", r.Data[0][k], d)
		}
	}
}

// TestAndrewsExample: the YAML version of Andrews' mechanism agrees with the test set's
// reference at t = 0.03 to scd ≥ 6 (issue 3: the modeling layer and the coded problem must
// tell the same story).
func TestAndrewsExample(t *testing.T) {
	p, err := problems.Get("andrews")
	if err != nil {
		t.Fatal(err)
	}
	b := loadExample(t, "andrews")
	if nq, nc := b.System.Size(); nq != 21 || nc != 20 || b.DOF() != 1 {
		t.Fatalf("size (%d, %d), DOF %d; want (21, 20), 1", nq, nc, b.DOF())
	}
	r := runExample(t, b, RunOptions{TEnd: p.Ref.T})
	q := r.Solution.Q[len(r.Solution.Q)-1]
	ang := planar.AndrewsAngles(q)
	worst := 0.0
	for i, ref := range p.Ref.Q {
		worst = math.Max(worst, math.Abs(ang[i]-ref)/math.Abs(ref))
	}
	scd := -math.Log10(worst)
	t.Logf("andrews.yaml at t = %g: scd %.2f", p.Ref.T, scd)
	if scd < 6 {
		t.Errorf("scd = %.2f, want >= 6 (issue 3)", scd)
	}
}

// TestChainExamples: the chains written with repeat blocks have N bodies and N joints (N
// from their parameters), run with hht at their tolerance 1e-4, and keep the energy
// balance: drift ≤ 5e-3 of the energy exchanged (measured 4.6e-5 for the bars, 4.8e-4 for
// the rods over 1 s, 1.9e-6 for the twisted revolute chain at its tolerance 1e-6; the bound
// leaves room for a changed step sequence, not for a wrong copy, whose error would be of
// order 1).
func TestChainExamples(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		nq   int // coordinates per body
	}{{"chain-bars", 100, 3}, {"chain3d", 20, 7}, {"revolute-chain3d", 20, 7}} {
		t.Run(c.name, func(t *testing.T) {
			b := loadExample(t, c.name)
			if got := b.Doc.Model.Parameters["N"]; got != float64(c.n) {
				t.Fatalf("N = %g, want %d", got, c.n)
			}
			if nq, _ := b.Integrated.Size(); nq != c.n*c.nq || b.Doc.NumBodies() != c.n {
				t.Fatalf("%d bodies, %d coordinates; want %d, %d", b.Doc.NumBodies(), nq, c.n, c.n*c.nq)
			}
			r := runExample(t, b, RunOptions{})
			if !(r.EnergyScale > 100) || !(r.EnergyDrift <= 5e-3*r.EnergyScale) {
				t.Errorf("energy drift %.3g J of %.3g J exchanged, want ≤ 5e-3 of it", r.EnergyDrift, r.EnergyScale)
			}
		})
	}
}

// TestChainExamplesAt10000: the example files with N: 10000 parse into 10 000 bodies and
// joints: the size of issue 15's guarding test stays within MaxRepeatValues and
// MaxMappingKeys.
func TestChainExamplesAt10000(t *testing.T) {
	if testing.Short() {
		t.Skip("parses two models of 10 000 bodies")
	}
	for _, name := range []string{"chain-bars", "chain3d"} {
		data, err := os.ReadFile(filepath.Join("..", "examples", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		src := regexp.MustCompile(`parameters: \{N: \d+,`).ReplaceAllString(string(data), "parameters: {N: 10000,")
		doc, err := Parse(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		joints := len(doc.Model.Joints)
		if doc.Spatial != nil {
			joints = len(doc.Spatial.Joints)
		}
		if doc.NumBodies() != 10000 || joints != 10000 {
			t.Errorf("%s: %d bodies, %d joints; want 10000 of each", name, doc.NumBodies(), joints)
		}
	}
}

package reproduce

import (
	"math"
	"strings"
	"testing"

	"linkage/integrate"
)

// TestYen1998FlexFigures: the runs of Figs. 9-12 (Short leaves out h = 1/2000 and Table 2)
// complete; after the torque stops (t ≥ 0.3 s) the mechanism is conservative, so the energy
// at 1 s equals that at 0.3 s up to the integration error (0.2 % at these steps); the two
// formulations give the same slow motion φ₂ (Fig. 8's claim, here at h = 1/500); and the
// strongest damping (ρ = 0) leaves the least high-frequency motion at mid-span (Fig. 9).
func TestYen1998FlexFigures(t *testing.T) {
	res, err := Yen1998Flex(Yen1998FlexOptions{Short: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + res.Table())
	for _, runs := range [][]Yen1998FlexRun{res.EnergyRho, res.EnergySteps, res.Compare[:]} {
		for _, r := range runs {
			e3, e1 := r.energyAt(Yen1998FlexTorqueOff), r.Energy[len(r.Energy)-1]
			if rel := math.Abs(e1-e3) / e3; !(rel < 2e-3) {
				t.Errorf("%s ρ = %g h = %g: energy %.6g at 0.3 s, %.6g at 1 s (relative change %.2g)", r.Form, r.Rho, r.H, e3, e1, rel)
			}
			if !(e3 > 0.3 && e3 < 0.33) {
				t.Errorf("%s ρ = %g h = %g: energy at 0.3 s %.6g J, want the work of 0.2 N·m over the crank's turn (≈ 0.32 J)", r.Form, r.Rho, r.H, e3)
			}
		}
	}
	a, b := res.Compare[0], res.Compare[1]
	var dphi float64
	for i := range a.Phi2 {
		dphi = math.Max(dphi, math.Abs(a.Phi2[i]-b.Phi2[i]))
	}
	if dphi > 1e-3 {
		t.Errorf("φ₂ of %s and %s differ by %.3g rad, want the same slow motion", a.Form, b.Form, dphi)
	}
	rough := func(r Yen1998FlexRun) float64 { // RMS second difference of the mid-span deflection after the torque
		w := r.Nodes[Yen1998FlexElements/2-1]
		var s float64
		var n int
		for i := 1; i+1 < len(w); i++ {
			if r.T[i] >= Yen1998FlexTorqueOff {
				d := w[i+1] - 2*w[i] + w[i-1]
				s += d * d
				n++
			}
		}
		return math.Sqrt(s / float64(n))
	}
	r05, r0 := rough(res.Midspan[0]), rough(res.Midspan[1])
	t.Logf("mid-span roughness: ρ = 0.5: %.3g, ρ = 0: %.3g", r05, r0)
	if !(r0 < r05) {
		t.Errorf("ρ = 0 leaves more high-frequency motion at mid-span (%.3g) than ρ = 0.5 (%.3g)", r0, r05)
	}
}

// TestYen1998FlexMaxStep pins the Table 2 search with the default method (genalpha,
// index 3) at Newton tolerance 1e-5 on a short grid: the search runs from the smallest
// step up and stops at the first step with a Newton failure, 1/75 (measured: 1/100 is the
// largest step without one).
func TestYen1998FlexMaxStep(t *testing.T) {
	f, err := newYen1998Flex()
	if err != nil {
		t.Fatal(err)
	}
	meth := Yen1998FlexGenAlpha()
	n, stop := f.maxStep(&meth, integrate.Index3, 1e-5, []int{50, 75, 100, 125, 150})
	if n != 100 {
		t.Errorf("largest step 1/%d, want 1/100 (measured); search stopped by %q", n, stop)
	}
	if want := "at 1/75: 1 Newton failures"; !strings.HasPrefix(stop, want) {
		t.Errorf("the search stopped by %q, want %q", stop, want)
	}
}

// flexStepper returns one fixed step h = 1/500 of genalpha (index 3, ρ = 0.75, a fresh
// Jacobian every iteration as in Table 2) on the flexible slider-crank (17 coordinates, 8
// constraints), initialized and warmed up by one step.
func flexStepper(tb testing.TB) func() {
	f, err := newYen1998Flex()
	if err != nil {
		tb.Fatal(err)
	}
	meth := Yen1998FlexGenAlpha()
	m := meth.New(Yen1998FlexRhoTable, integrate.Index3)
	if err := m.Init(f.sys, f.start, integrate.StepControl{FixedH: 1.0 / 500, RTol: Yen1998FlexTol, ATol: Yen1998FlexTol}); err != nil {
		tb.Fatal(err)
	}
	step := func() {
		if err := m.Step(math.Inf(1)); err != nil {
			tb.Fatal(err)
		}
	}
	step()
	return step
}

// BenchmarkYen1998FlexStep is one step of flexStepper.
func BenchmarkYen1998FlexStep(b *testing.B) {
	step := flexStepper(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		step()
	}
}

// TestYen1998FlexStepAllocs: a genalpha step on the flexible mechanism allocates nothing
// after warm-up.
func TestYen1998FlexStepAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(20, flexStepper(t)); n != 0 {
		t.Errorf("a step allocates %v times, want 0", n)
	}
}

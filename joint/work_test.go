package joint_test

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"linkage/assembly"
	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// countingOutput counts the dense-output interpolations a WorkMeter asks for.
type countingOutput struct {
	assembly.DenseOutput
	n int
}

func (c *countingOutput) Interpolate(dst *integrate.State, t float64) {
	c.n++
	c.DenseOutput.Interpolate(dst, t)
}

// powerOnly hides a source's Conservative, so that its meter integrates every power.
type powerOnly struct{ assembly.PowerSource }

// spinningChain is a chain of three rods on spherical joints, hung from the origin along +x
// and turning about the vertical, with a torsional spring (k, d) on every Cardan angle
// and, when driven, its first angle prescribed as 0.3 sin(2t).
func spinningChain(t *testing.T, k, d float64, driven bool) (*joint.System, integrate.State) {
	t.Helper()
	const l = 0.5
	md := &joint.Model{Gravity: [3]float64{0, 0, -9.81}}
	rod := joint.Body{Mass: 1, COM: [3]float64{l / 2, 0, 0}, Inertia: [3][3]float64{{1e-4, 0, 0}, {0, l * l / 12, 0}, {0, 0, l * l / 12}}}
	f, origin := joint.Ground, [3]float64{}
	for i := range 3 {
		rod.Name = fmt.Sprint("rod", i+1)
		f = md.Spherical(fmt.Sprint("ball", i+1), f, origin, rod)
		origin = [3]float64{l, 0, 0}
	}
	for i := range 9 {
		md.Spring(i, k, d, 0.1)
	}
	if driven {
		md.Drive("spin", 0, func(t float64) float64 { return 0.3 * math.Sin(2*t) },
			func(t float64) float64 { return 0.6 * math.Cos(2*t) }, func(t float64) float64 { return -1.2 * math.Sin(2*t) })
	}
	sys, err := md.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	v0 := make([]float64, nq)
	v0[0], v0[4] = 1, -0.5
	c, err := dae.Initialize(sys, 0, make([]float64, nq), v0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sys, integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
}

// TestWorkMeterSkipsConservative: a WorkMeter on a conservative System (springs with no
// damping, no drive) interpolates nothing and reports the work a meter integrating every
// power reports (zero, bit for bit) at every sample; with dampers or a drive, Conservative
// is false and the meter does what it did before the skip (the same numbers, nonzero, the
// same interpolations as the meter without the skip).
func TestWorkMeterSkipsConservative(t *testing.T) {
	for _, tc := range []struct {
		name         string
		d            float64
		driven, cons bool
	}{
		{"springs", 0, false, true},
		{"dampers", 0.05, false, false},
		{"drive", 0, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, s0 := spinningChain(t, 2, tc.d, tc.driven)
			if sys.Conservative() != tc.cons {
				t.Fatalf("Conservative() = %v, want %v", sys.Conservative(), tc.cons)
			}
			e, err := integrate.Lookup("dopri5")
			if err != nil {
				t.Fatal(err)
			}
			meth := e.New()
			_, nc := sys.Size()
			skip, full := &countingOutput{DenseOutput: meth}, &countingOutput{DenseOutput: meth}
			wSkip := assembly.NewWorkMeter(sys, nc, nil, skip, 0)
			wFull := assembly.NewWorkMeter(powerOnly{sys}, nc, nil, full, 0)
			var samples int
			var worst float64
			sample := func(s *integrate.State) error {
				a, b := wSkip.At(s.T), wFull.At(s.T)
				if a != b {
					t.Errorf("t = %g: W = %+v with the skip, %+v without", s.T, a, b)
				}
				worst = math.Max(worst, math.Abs(b.NonConservative)+math.Abs(b.Driving))
				samples++
				return nil
			}
			observe := func(s *integrate.State) error {
				wSkip.Observe(s)
				return wFull.Observe(s)
			}
			_, err = integrate.Solve(meth, "dopri5", sys, s0, 1, integrate.SolveOptions{
				Control: integrate.StepControl{RTol: 1e-6, ATol: 1e-6}, OutputStep: 0.05, Sample: sample, Observer: observe})
			if err != nil {
				t.Fatal(err)
			}
			if wSkip.Total() != wFull.Total() {
				t.Errorf("Total %+v with the skip, %+v without", wSkip.Total(), wFull.Total())
			}
			switch {
			case samples < 20 || full.n == 0:
				t.Fatalf("%d samples, %d interpolations without the skip: the run did not exercise the meter", samples, full.n)
			case tc.cons && (skip.n != 0 || worst != 0):
				t.Errorf("conservative: %d interpolations, largest |W| %g; want 0 and 0", skip.n, worst)
			case !tc.cons && (skip.n != full.n || worst < 1e-3):
				t.Errorf("%d interpolations (%d without the skip), largest |W| %g: want the same count and nonzero work", skip.n, full.n, worst)
			}
			t.Logf("%d samples, interpolations %d (skip) and %d, largest |W| %.3g", samples, skip.n, full.n, worst)
		})
	}
}

// TestSystemAllocatesNoDenseMass: building a System allocates storage linear in the
// coordinates: Chain3D(1000) (3000 coordinates) at most 6× Chain3D(250) (4× the
// coordinates; 16× with an n² matrix). The n² scratch of the dense Mass (72 MB at 3000)
// is sized at Mass's first call, so the O(N) paths of a long chain never pay for it.
func TestSystemAllocatesNoDenseMass(t *testing.T) {
	alloc := func(n int) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, _, err := Chain3D(n); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(250), alloc(1000)
	if ratio := float64(large) / float64(small); ratio > 6 {
		t.Errorf("a System of 3000 coordinates allocated %d bytes, %.1f× the %d of 750: want linear growth (4×)", large, ratio, small)
	}
}

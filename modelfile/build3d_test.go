package modelfile

import (
	"math"
	"strings"
	"testing"
)

// The spatial RSSR four-bar: its rocker angle φ is a closed-form function of the driven
// crank angle θ = 2π t. With A = 0.1 (cos θ, sin θ, 0), the rocker pivot O4 = (0, 0.4, 0.25)
// and B = O4 + 0.3 (0, cos φ, sin φ), the coupler length L gives
//
//	d_y cos φ + d_z sin φ = (|d|² + c² − L²)/(2c),   d = A − O4,   c = 0.3,
//
// so φ = δ + arccos(K/ρ) with d_y = ρ cos δ, d_z = ρ sin δ (the branch of the start pose,
// φ(0) = −90°; d_y < 0 throughout, so δ never wraps). The rocker's centre of mass is
// O4 + 0.15 (0, cos φ, sin φ). hht at tol 1e-7 (the file's) measures a largest deviation of
// 2.6e-7 m over the 201 samples; the bound 1e-5 m is the file's tolerance times the 0.1 m
// scale of the crank, times 100 for the index-3 method's global error.
func TestSpatialFourBarExample(t *testing.T) {
	b := loadExample(t, "spatial-fourbar")
	if d := b.DOF(); d != 1 {
		t.Errorf("dof %d, want 1 (the coupler's spin about the line of its spherical joints)", d)
	}
	if red := b.RedundantJoints(); len(red) != 0 {
		t.Errorf("redundant rows %v, want none", red)
	}
	r := runExample(t, b, RunOptions{})
	const c, L = 0.3, 0.4153311931459038
	ty, tz := r.Channel("rocker.y"), r.Channel("rocker.z")
	var worst float64
	for k, tk := range r.Data[0] {
		th := 2 * math.Pi * tk
		dy, dz := 0.1*math.Sin(th)-0.4, -0.25
		dx := 0.1 * math.Cos(th)
		rho, delta := math.Hypot(dy, dz), math.Atan2(dz, dy)
		K := (dx*dx + dy*dy + dz*dz + c*c - L*L) / (2 * c)
		phi := delta + math.Acos(K/rho)
		worst = math.Max(worst, math.Hypot(ty[k]-(0.4+0.15*math.Cos(phi)), tz[k]-(0.25+0.15*math.Sin(phi))))
	}
	t.Logf("largest deviation %.2g m", worst)
	if !(worst <= 1e-5) {
		t.Errorf("rocker centre of mass deviates from the closed-form RSSR position by %.2g m, want ≤ 1e-5", worst)
	}
	if res := r.Solution.MaxResidual.Pos; !(res <= 1e-8) { // measured 7.9e-10: hht's Newton tolerance
		t.Errorf("max |g| = %.2g, want ≤ 1e-8", res)
	}
	// The motion does work on the mechanism; the invariant T + V − W_nc (seed 001 eq. 12)
	// must hold all the same: measured drift 1.5e-4 of the 0.62 J exchanged at the file's
	// tol 1e-7 with hht; bound 1e-3.
	if rel := r.EnergyDrift / r.EnergyScale; !(r.EnergyScale > 0.1 && rel <= 1e-3) {
		t.Errorf("energy invariant drift %.2g of %.3g J exchanged, want ≤ 1e-3", rel, r.EnergyScale)
	}
}

// The spatial double pendulum is conservative: T + V must stay constant. radau5 at the
// file's tol 1e-8 measures a drift of 4.2e-8 of the energy exchanged (19.2 J) over 3 s; the
// bound 1e-6 is the tolerance times 100. The normalization rows hold at the accepted steps
// to the Newton tolerance (max |g| measured 6.5e-11, bound 1e-9); the output samples are
// radau5's dense output between steps, off the unit sphere by the interpolation error
// (measured 8.1e-9 in |p| − 1, bound 1e-8, the file's tolerance).
func TestSpatialDoublePendulumExample(t *testing.T) {
	b := loadExample(t, "spatial-double-pendulum")
	if d := b.DOF(); d != 6 {
		t.Errorf("dof %d, want 6 (three rotations per rod)", d)
	}
	r := runExample(t, b, RunOptions{})
	if !(r.EnergyScale > 10) || !(r.EnergyDrift/r.EnergyScale <= 1e-6) {
		t.Errorf("energy drift %.2g J of %.3g J exchanged, want ≤ 1e-6 relative", r.EnergyDrift, r.EnergyScale)
	}
	if res := r.Solution.MaxResidual.Pos; !(res <= 1e-9) {
		t.Errorf("max |g| = %.2g, want ≤ 1e-9", res)
	}
	sol := r.Solution
	var worst float64
	for k := range sol.T {
		for _, c := range []int{3, 10} { // p of rod1 and rod2
			p := sol.Q[k][c : c+4]
			worst = math.Max(worst, math.Abs(math.Sqrt(p[0]*p[0]+p[1]*p[1]+p[2]*p[2]+p[3]*p[3])-1))
		}
	}
	t.Logf("max ||p| − 1| over the samples: %.2g", worst)
	if !(worst <= 1e-8) {
		t.Errorf("max ||p| − 1| over the samples = %.2g, want ≤ 1e-8", worst)
	}
}

// TestSpatialDoublePendulumHHTFailures: hht's failure memory (fresh matrices after a
// reused one failed twice, steps capped after a corrector failure) acts on a small
// Euler-parameter model too, not only from 40 unknowns up. At tol 1e-4 the double pendulum
// (nq + nc = 22) took 172 Newton failures and 866 iterations in 190 steps without it; with
// it 23 and 501, the same steps and positions to 1e-4 relative (BENCHMARKS.md, "hht's
// failure memory at every size").
func TestSpatialDoublePendulumHHTFailures(t *testing.T) {
	b := loadExample(t, "spatial-double-pendulum")
	r := runExample(t, b, RunOptions{Method: "hht", Tol: 1e-4})
	st := r.Solution.Stats
	t.Logf("steps %d, Newton failures %d, iterations %d, Jacobians %d", st.Steps, st.NewtonFailures, st.NewtonIters, st.Jacobians)
	if st.NewtonFailures > 40 {
		t.Errorf("%d Newton failures in %d steps, want at most 40", st.NewtonFailures, st.Steps)
	}
}

// 3D files get the same errors as planar ones: file:line:column, the path and what was
// expected.
func TestSpatialParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"dimension: 3\nbodies:\n  - {name: a, mass: 1, inertia: [1, 1]}\n", "m.yaml:3:33: bodies[0].inertia: 2 values; want [Jxx, Jyy, Jzz]"},
		{"dimension: 3\nbodies:\n  - {name: a, mass: 1, inertia: [1, 1, -1]}\n", "bodies[0].inertia: inertia [1 1 -1] is not positive definite"},
		{"dimension: 3\ngravity: [0, -9.81]\nbodies: []\n", "m.yaml:2:10: gravity: want a list of three numbers [x, y, z], got a list of 2 values"},
		{"dimension: 4\nbodies: []\n", "dimension: dimension = 4; want 2 (planar) or 3"},
		{"dimension: 3\nbodies:\n  - {name: a, mass: 1, inertia: [1, 1, 1]}\nmarkers:\n  - {name: m, body: a}\njoints:\n  - {name: j, type: hinge, i: m, j: m}\n",
			"m.yaml:7:21: joints[0].type: unknown joint type \"hinge\"; want one of: spherical, revolute"},
		{"dimension: 3\nbodies:\n  - {name: a, mass: 1, inertia: [1, 1, 1]}\ninitial:\n  bodies:\n    a: {quaternion: [1, 0, 0, 0], angles: [0, 0, 0]}\n",
			"initial.bodies.a.angles: give either quaternion or angles, not both"},
	} {
		_, err := Parse("m.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.src, err, c.want)
		}
	}
}

// TestSpatialReactionChannels: a rod hanging at rest from a spherical joint carries its
// weight: the joint's load on the rod is (0, 0, m g) in global axes and, with marker I
// turned by 90° about x (its y axis along global z), (0, m g, 0) in marker I's axes. The
// moment about the joint point is zero. Rounding only: 1e-9 relative.
func TestSpatialReactionChannels(t *testing.T) {
	src := `name: hanging
dimension: 3
gravity: [0, 0, -9.81]
bodies:
  - {name: rod, mass: 2, inertia: [0.01, 0.01, 0.001]}
markers:
  - {name: O, body: ground, axis: [0, -1, 0], x_axis: [1, 0, 0]}
  - {name: top, body: rod, point: [0, 0, 0.5]}
joints:
  - {name: pin, type: spherical, i: O, j: top}
initial:
  bodies:
    rod: {position: [0, 0, -0.5]}
simulation: {method: radau5, tol: 1.0e-8, t_end: 0.1, output_step: 0.05, outputs: [pin]}
`
	doc, err := Parse("hanging.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	r := runExample(t, b, RunOptions{})
	const mg = 2 * 9.81
	for name, want := range map[string]float64{"pin.fx": 0, "pin.fy": 0, "pin.fz": mg,
		"pin.tx": 0, "pin.ty": 0, "pin.tz": 0, "pin.fy_local": mg} {
		xs := r.Channel(name)
		if len(xs) != 3 { // t = 0, 0.05, 0.1
			t.Fatalf("%s has %d samples, want 3", name, len(xs))
		}
		for k, x := range xs {
			if math.Abs(x-want) > 1e-9*mg {
				t.Errorf("%s[%d] = %.12g, want %g", name, k, x, want)
				break
			}
		}
	}
}

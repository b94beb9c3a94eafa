package joint_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
	"linkage/law"
)

var xAxis, yAxis = [3]float64{1, 0, 0}, [3]float64{0, 1, 0}

// slope is a 2 kg block on a 30° slope (a translational joint from the ground along
// u = (cos 30°, −sin 30°)) with friction μ and, when arm > 0, the bending moment
// about the contact point in its normal force; the block's centre of mass is 0.1 m above
// the contact point, and a 1 kg bar hangs from the block on a pin with friction (pin
// radius 0.02 m) unless bare. Coordinates: slide, slide.n, slide.theta (arm > 0),
// then pin.x, pin.y, pin.
func slope(t *testing.T, mu, vreg, arm float64, bare bool) *joint.System {
	t.Helper()
	m := &joint.Model{Gravity: [3]float64{0, -9.81, 0}}
	s30, c30 := 0.5, math.Sqrt(3)/2
	u, n := [3]float64{c30, -s30}, [3]float64{s30, c30}
	block := joint.Body{Name: "block", Mass: 2, COM: [3]float64{0.1 * n[0], 0.1 * n[1]}, Inertia: [3][3]float64{{0.1, 0, 0}, {0, 0.1, 0}, {0, 0, 0.1}}}
	slip := law.Friction{Mu: mu, VReg: vreg, Radius: 1}
	slide := m.Prismatic("slide", joint.Ground, [3]float64{}, u, joint.Body{Name: "slide"})
	holds := []joint.Hold{{Name: "n", Coord: slide + 1, Weight: 1}}
	if arm > 0 {
		m.Prismatic("slide.n", slide, [3]float64{}, n, joint.Body{Name: "slide.n"})
		m.Revolute("slide.theta", slide+1, [3]float64{}, zAxis, block)
		holds = append(holds, joint.Hold{Name: "theta", Coord: slide + 2, Weight: 1 / arm})
	} else {
		m.Prismatic("slide.n", slide, [3]float64{}, n, block)
	}
	m.Friction("slide", slide, slip, holds...)
	if !bare {
		f := m.Prismatic("pin.x", slide+len(holds), [3]float64{0.2, -0.1}, xAxis, joint.Body{Name: "pin.x"})
		f = m.Prismatic("pin.y", f, [3]float64{}, yAxis, joint.Body{Name: "pin.y"})
		pin := m.Revolute("pin", f, [3]float64{}, zAxis, bar("bar", 1, 1))
		m.Friction("pin", pin, law.Friction{Mu: 0.3, VReg: vreg, Radius: 0.02, Viscous: 0.01},
			joint.Hold{Name: "x", Coord: pin - 2, Weight: 1}, joint.Hold{Name: "y", Coord: pin - 1, Weight: 1})
	}
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestFrictionDerivatives: by dae.Check at random states and multipliers, ∂f_λ/∂q, ∂f_λ/∂v
// and ∂f_λ/∂λ of a slider's friction (normal force and bending moment) and a pin's
// against central differences of f_λ, to 1e-6 relative; the hold rows are named after the
// friction and the slack coordinate.
func TestFrictionDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 21))
	sys := slope(t, 0.3, 0.3, 0.05, false)
	nq, nc := sys.Size()
	for trial := 0; trial < 4; trial++ {
		q, v, a, lambda := make([]float64, nq), make([]float64, nq), make([]float64, nq), make([]float64, nc)
		for i := range q {
			q[i], v[i], a[i] = rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5
		}
		for i := range lambda {
			lambda[i] = 20 * (rng.Float64() - 0.5)
		}
		out, err := dae.Check(sys, dae.CheckPoint{T: 0.1, Q: q, V: v, A: a, Lambda: lambda}, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, m := range out {
			if strings.HasPrefix(m.Quantity, "df_lambda/") {
				checked++
			}
		}
		if checked != 3 {
			t.Fatalf("dae.Check compared %d derivatives of f_λ, want 3: %v", checked, out)
		}
	}
	var names []string
	for i := range nc {
		names = append(names, sys.ConstraintName(i))
	}
	if got := strings.Join(names, " "); got != "slide.n slide.theta pin.x pin.y" {
		t.Errorf("rows %q, want slide.n slide.theta pin.x pin.y", got)
	}
}

// TestFrictionSlopeClosedForm: the block slides down the slope from 1 m/s at
// a = g (sin 30° − μ cos 30°) (v_reg = 1e-4 m/s, far below its speed; no moment: the
// normal force alone presses it), so its speed at t = 0.5 is 1 + a/2, with an explicit
// and an implicit method; the friction work read from ReactionPower by the slide's
// coordinate is −μ N Δs (checked at the start), and the hold rows stay at zero.
func TestFrictionSlopeClosedForm(t *testing.T) {
	sys := slope(t, 0.3, 1e-4, 0, true)
	g, mu := 9.81, 0.3
	acc := g * (0.5 - mu*math.Sqrt(3)/2)
	q0, v0 := []float64{0, 0}, []float64{1, 0}
	for _, method := range []string{"dopri5", "hht"} {
		sol := solveJoint(t, sys, q0, v0, []int{0}, method, 1e-8, 0, 0.5)
		want := 1 + 0.5*acc
		if d := math.Abs(sol.Final.V[0] - want); d > 1e-6 {
			t.Errorf("%s: speed %.10g at t = 0.5, want %.10g (a = g(sin 30° − μ cos 30°))", method, sol.Final.V[0], want)
		}
		if r := math.Abs(sol.Final.Q[1]); r > 1e-8 {
			t.Errorf("%s: slack coordinate slide.n = %.3g, want 0", method, r)
		}
		nrm := 2 * g * math.Sqrt(3) / 2
		if l := math.Abs(sol.Final.Lambda[0]); math.Abs(l-nrm) > 1e-6*nrm {
			t.Errorf("%s: |λ_n| = %.10g, want the normal force m g cos 30° = %.10g", method, l, nrm)
		}
		t.Logf("%s: |Δv| %.1e, steps %d", method, math.Abs(sol.Final.V[0]-want), sol.Stats.Steps)
	}
	lambda := []float64{2 * g * math.Sqrt(3) / 2}
	if p, want := sys.ReactionPower(0, q0, v0, lambda), -mu*lambda[0]; math.Abs(p-want) > 1e-9 {
		t.Errorf("friction power %.12g at 1 m/s, want −μN = %.12g", p, want)
	}
}

// TestFrictionBadInputIsRefusedByName: friction on a missing coordinate, on its own hold,
// with a bad law, a bad weight or no holds is refused by System, naming the friction.
func TestFrictionBadInputIsRefusedByName(t *testing.T) {
	ok := law.Friction{Mu: 0.3, VReg: 1e-3, Radius: 1}
	cases := []struct {
		add  func(m *joint.Model)
		want string
	}{
		{func(m *joint.Model) { m.Friction("f", 7, ok, joint.Hold{Name: "n", Coord: 1, Weight: 1}) }, `friction "f" on coordinate 7`},
		{func(m *joint.Model) { m.Friction("f", 0, ok, joint.Hold{Name: "n", Coord: 0, Weight: 1}) }, `hold "n" on the joint's own coordinate 0`},
		{func(m *joint.Model) {
			m.Friction("f", 0, law.Friction{Mu: -1, VReg: 1, Radius: 1}, joint.Hold{Name: "n", Coord: 1, Weight: 1})
		}, `friction "f": friction: mu = -1`},
		{func(m *joint.Model) { m.Friction("f", 0, ok, joint.Hold{Name: "n", Coord: 1, Weight: math.NaN()}) }, `hold "n" weight NaN`},
		{func(m *joint.Model) { m.Friction("f", 0, ok) }, `friction "f": no hold rows`},
		{func(m *joint.Model) { m.Friction("f", 0, ok, joint.Hold{Name: "n", Coord: 5, Weight: 1}) }, `drive "f.n" on coordinate 5`},
	}
	for _, c := range cases {
		m := &joint.Model{}
		f := m.Prismatic("slide", joint.Ground, [3]float64{}, xAxis, joint.Body{Name: "slide"})
		m.Prismatic("slide.n", f, [3]float64{}, yAxis, joint.Body{Name: "block", Mass: 1})
		c.add(m)
		if _, err := m.System(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

// TestFrictionAllocatesNothing: f_λ, its derivatives and its power allocate nothing once
// the System exists (the implicit methods evaluate them in every Newton iteration).
func TestFrictionAllocatesNothing(t *testing.T) {
	sys := slope(t, 0.3, 1e-3, 0.05, false)
	nq, nc := sys.Size()
	q, v, f, lambda := make([]float64, nq), make([]float64, nq), make([]float64, nq), make([]float64, nc)
	for i := range lambda {
		lambda[i] = float64(i + 1)
	}
	fq, fv, fl := mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nc, nil)
	allocs := testing.AllocsPerRun(20, func() {
		sys.AddReactionForce(f, 0, q, v, lambda)
		sys.ReactionForceDerivative(fq, fv, fl, 0, q, v, lambda)
		_ = sys.ReactionPower(0, q, v, lambda)
	})
	if allocs != 0 {
		t.Errorf("%g allocations, want 0", allocs)
	}
}

// TestFrictionStepAllocatesNothing: a step of hht, radau5 and dopri5 on the slope with the
// hanging bar (slider and pin friction) allocates nothing after the first.
func TestFrictionStepAllocatesNothing(t *testing.T) {
	sys := slope(t, 0.3, 1e-3, 0.05, false)
	nq, _ := sys.Size()
	q0, v0 := make([]float64, nq), make([]float64, nq)
	v0[0], v0[nq-1] = 1, 2
	c, err := dae.Initialize(sys, 0, q0, v0, &dae.InitOptions{Keep: []int{0, nq - 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"hht", "radau5", "dopri5"} {
		e, err := integrate.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		m := e.New()
		start := integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
		if err := m.Init(sys, start.Clone(), integrate.StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		if a := stepAllocs(t, m, 3); a != 0 {
			t.Errorf("%s step with joint friction: %g allocations, want 0", name, a)
		}
	}
}

// TestFrictionSlopeCreeps: with μ = 0.8 the friction limit μ m g cos 30° exceeds the load
// m g sin 30° (by 1/0.7217), so the block released at rest sticks: the regularized law
// lets it creep at c' = v_reg atanh(tan 30°/μ) = 9.11e-5 m/s (v_reg = 1e-4), which hht
// reaches by t = 0.5 to 1e-6 relative.
func TestFrictionSlopeCreeps(t *testing.T) {
	sys := slope(t, 0.8, 1e-4, 0, true)
	want := 1e-4 * math.Atanh(math.Tan(math.Pi/6)/0.8)
	sol := solveJoint(t, sys, []float64{0, 0}, []float64{0, 0}, []int{0}, "hht", 1e-8, 0, 0.5)
	t.Logf("creep speed %.6g (want %.6g), %d steps", sol.Final.V[0], want, sol.Stats.Steps)
	if v := sol.Final.V[0]; math.Abs(v-want) > 1e-6*want {
		t.Errorf("creep speed %.10g, want v_reg atanh(tan 30°/μ) = %.10g", v, want)
	}
}

// TestPlanarCutFriction: friction on the four-bar's revolute cut joint B (PlanarCutFriction)
// acts on the relative angle of the coupler and the rocker: with a viscous law alone
// (μ = 0, 1 N m s/rad) its power is −(ω_rocker − ω_coupler)² with the angular velocities
// from FrameMotion, to 1e-12; with μ its derivatives match central differences (dae.Check,
// 1e-6) at random states and multipliers; a cut joint that is not planar or not there is
// refused by name.
func TestPlanarCutFriction(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 8))
	m, _, _, _ := fourBar(t, true)
	m.PlanarCutFriction("B", law.Friction{Viscous: 1, VReg: 1, Radius: 0.01})
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := sys.Size()
	coupler, rocker := m.Coordinate("A"), m.Coordinate("rockerpin")
	for trial := 0; trial < 3; trial++ {
		q, v, lambda := make([]float64, nq), make([]float64, nq), make([]float64, nc)
		for i := range q {
			q[i], v[i] = 2*rng.Float64()-1, 2*rng.Float64()-1
		}
		wc := sys.FrameMotion(q, v, nil, coupler, [3]float64{}).Omega[2]
		wr := sys.FrameMotion(q, v, nil, rocker, [3]float64{}).Omega[2]
		if p, want := sys.ReactionPower(0, q, v, lambda), -(wr-wc)*(wr-wc); math.Abs(p-want) > 1e-12 {
			t.Errorf("trial %d: viscous power %.15g, want −(ω_rocker − ω_coupler)² = %.15g", trial, p, want)
		}
	}
	m, _, _, _ = fourBar(t, true)
	m.PlanarCutFriction("B", law.Friction{Mu: 0.3, VReg: 0.5, Radius: 0.01, Viscous: 0.1})
	if sys, err = m.System(); err != nil {
		t.Fatal(err)
	}
	for trial := 0; trial < 3; trial++ {
		q, v, a, lambda := make([]float64, nq), make([]float64, nq), make([]float64, nq), make([]float64, nc)
		for i := range q {
			q[i], v[i], a[i] = 2*rng.Float64()-1, 2*rng.Float64()-1, rng.Float64()
		}
		for i := range lambda {
			lambda[i] = 50 * (rng.Float64() - 0.5)
		}
		if _, err := dae.Check(sys, dae.CheckPoint{T: 0.1, Q: q, V: v, A: a, Lambda: lambda}, 1e-6); err != nil {
			t.Fatal(err)
		}
	}
	bad := &joint.Model{}
	f := bad.Revolute("r", joint.Ground, [3]float64{}, xAxis, joint.Body{Name: "b", Mass: 1})
	bad.Cut("c", f, [3]float64{1, 0, 0}, joint.Ground, [3]float64{1, 0, 0}, xAxis, yAxis)
	bad.PlanarCutFriction("c", law.Friction{Mu: 0.1, VReg: 1, Radius: 1})
	if _, err := bad.System(); err == nil || !strings.Contains(err.Error(), `rotation "r" on the path of the cut joint's frames is not about z`) {
		t.Errorf("err = %v, want the rotation about x named", err)
	}
	m, _, _, _ = fourBar(t, true)
	m.PlanarCutFriction("D", law.Friction{Mu: 0.1, VReg: 1, Radius: 1})
	if _, err := m.System(); err == nil || !strings.Contains(err.Error(), `friction "D": no point cut joint of that name`) {
		t.Errorf("err = %v, want the missing cut joint named", err)
	}
}

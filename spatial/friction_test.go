package spatial_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/spatial"
)

// TestFrictionDerivatives checks ∂f_λ/∂q, ∂f_λ/∂v and ∂f_λ/∂λ of revolute and
// translational friction (arm set) against central differences and their sparse values
// against the dense matrices (dae.Check runs dae.CheckSparse), at random poses with fast
// rates (tanh saturated) and with rates 100 times smaller (in its bend).
func TestFrictionDerivatives(t *testing.T) {
	m, g0, a1, a2, b1 := twoBodies()
	pin := m.AddRevolute("pin", g0, a1)
	slide := m.AddTranslational("slide", a2, b1)
	m.SetFriction(pin, spatial.JointFriction{Mu: 0.3, VReg: 0.01, PinRadius: 0.02, Viscous: 0.05})
	m.SetFriction(slide, spatial.JointFriction{Mu: 0.2, VReg: 0.05, Arm: 0.3, Viscous: 0.1})
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := sys.Size()
	r := rand.New(rand.NewPCG(7, 8))
	for k := range 4 {
		p := randomPoint(r, nq, nc)
		if k%2 == 1 {
			for i := range p.V {
				p.V[i] *= 0.01
			}
		}
		ms, err := dae.Check(sys, p, checkTol)
		if err != nil {
			t.Errorf("pose %d: %v", k, err)
		}
		var seen int
		for _, m := range ms {
			if strings.HasPrefix(m.Quantity, "df_lambda") {
				seen++
			}
		}
		if seen != 3 {
			t.Errorf("pose %d: dae.Check compared %d λ-force derivatives, want 3", k, seen)
		}
	}
	m.SetFriction(spatial.JointID(99), spatial.JointFriction{Mu: 0.1, VReg: 1})
	if _, err := m.Assemble(); err == nil || !strings.Contains(err.Error(), "friction on joint 99: no such joint") {
		t.Errorf("friction on a missing joint: err = %v", err)
	}
}

// TestPendulumPinFriction3D: the uniform rod of planar's TestPendulumPinFriction (m = 1,
// length 1, pinned at one end, released at rest 0.05 rad from the vertical) built as a
// spatial revolute about z. The pin force has no axial part, so the friction torque is
// μ R N as in the plane and the swing decays by the closed form derived there:
// m g l (cos A_{n+1} − cos A_n) = T₀ (A_n + A_{n+1}), T₀ = μ R m g, within 1 % (the O(A²)
// parts of N).
func TestPendulumPinFriction3D(t *testing.T) {
	const a0, mu, radius, grav, l = 0.05, 0.2, 0.01, 9.81, 0.5
	for _, name := range []string{"hht", "bdf", "radau5", "radau5 index3", "genalpha", "multi-index", "ali3"} {
		m := spatial.NewModel()
		m.SetGravity(spatial.Vec3{0, -grav, 0})
		rod := m.AddBody(spatial.Body{Name: "rod", Mass: 1, Inertia: spatial.Diag(1e-3, 1.0/12, 1.0/12),
			Pos:    spatial.Vec3{l * math.Sin(a0), -l * math.Cos(a0), 0},
			Orient: spatial.QuatFromAxisAngle(spatial.Vec3{0, 0, 1}, a0-math.Pi/2)})
		pin := m.AddRevolute("pin", m.AddMarker(spatial.Marker{Body: spatial.Ground}),
			m.AddMarker(spatial.Marker{Body: rod, Point: spatial.Vec3{-l, 0, 0}}))
		m.SetFriction(pin, spatial.JointFriction{Mu: mu, VReg: 1e-6, PinRadius: radius})
		sys, err := m.Assemble()
		if err != nil {
			t.Fatal(err)
		}
		q0, v0 := sys.InitialGuess()
		red, s0, _ := startReduced(t, sys, q0, v0, nil)
		var out []float64
		for k := 1; k <= 3500; k++ {
			out = append(out, float64(k)*1e-3)
		}
		ctl := integrate.StepControl{RTol: 1e-9, ATol: 1e-11}
		if name == "ali3" { // fixed steps only
			ctl = integrate.StepControl{FixedH: 1e-3}
		}
		sol, err := integrate.Solve(method(t, name), name, red, s0, 3.5,
			integrate.SolveOptions{Control: ctl, Output: out})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		amps := []float64{a0}
		ang := make([]float64, len(sol.Q))
		for i, q := range sol.Q {
			ang[i], _ = sys.JointCoordinate(pin, q)
		}
		a00 := ang[0] // the joint angle at rest hanging down is a00 − a0
		for i := 1; i+1 < len(ang); i++ {
			if (ang[i]-ang[i-1])*(ang[i+1]-ang[i]) < 0 { // an extreme, refined by a parabola
				d1, d2 := ang[i+1]-ang[i-1], ang[i+1]-2*ang[i]+ang[i-1]
				amps = append(amps, math.Abs(ang[i]-d1*d1/(8*d2)-(a00-a0)))
			}
		}
		if len(amps) < 4 {
			t.Fatalf("%s: found %d swing extremes, want ≥ 4", name, len(amps))
		}
		T0 := mu * radius * grav
		for n := 0; n+1 < len(amps); n++ {
			an, x := amps[n], amps[n]-2*mu*radius/l
			for range 20 { // Newton on the energy balance
				x -= (grav*l*(math.Cos(x)-math.Cos(an)) - T0*(an+x)) / (-grav*l*math.Sin(x) - T0)
			}
			if got, want := an-amps[n+1], an-x; math.Abs(got-want) > 0.01*want {
				t.Errorf("%s: half swing %d: decrement %.5g, closed form %.5g", name, n+1, got, want)
			}
		}
	}
}

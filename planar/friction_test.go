package planar_test

import (
	"math"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
	"linkage/planar"
)

// frictionMethods are the methods the closed-form friction tests run (issue 16: hht, bdf,
// radau5 and genalpha at least), each at tolerances that put its integration error well
// below the tested tolerance; "name form" runs a formulation other than the default.
var frictionMethods = []string{"hht", "genalpha", "newmark", "bdf", "radau5", "radau5 index3", "daealpha", "daealpha index1-proj", "lie-genalpha", "lie-genalpha ggl", "gcp-newmark", "gcp-fv", "ali3", "ali1", "multi-index"}

// newFrictionMethod returns the method frictionMethods names ("name" or "name form") and
// its registry entry.
func newFrictionMethod(t *testing.T, name string) (integrate.Entry, integrate.Method) {
	t.Helper()
	base, form, _ := strings.Cut(name, " ")
	e, err := integrate.Lookup(base)
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.NewMethod(integrate.Formulation(form))
	if err != nil {
		t.Fatal(err)
	}
	return e, m
}

// explicitFrictionMethods are the explicit methods that solve eq. 17 with f_λ by Newton
// on λ; they run the closed forms whose friction law is not stiff (the slide at 1e4 VReg,
// the pin at R ω/VReg with a stiffness μ R² N/(VReg I_O) of about 600/s). rk4 runs at
// FixedH = 1e-3 (runFriction).
var explicitFrictionMethods = []string{"dopri5", "rk4", "hedop5", "gcp-abm"}

// incline is a block of mass m on a slope of angle theta held by a translational joint
// along the slope (ground marker turned by theta), with friction f; the block starts at
// the origin with speed v0 along the slope (negative: down).
func incline(t *testing.T, theta, v0 float64, f planar.JointFriction) (*planar.System, planar.JointID) {
	t.Helper()
	const m, grav = 2.0, 9.81
	mod := planar.NewModel()
	mod.SetGravity(planar.Vec{0, -grav})
	b := mod.AddBody(planar.Body{Name: "block", Mass: m, Inertia: 0.1, Angle: theta,
		Vel: planar.Vec{v0 * math.Cos(theta), v0 * math.Sin(theta)}})
	j := mod.AddTranslational("slide", mod.AddMarker(planar.Marker{Body: planar.Ground, Angle: theta}),
		mod.AddMarker(planar.Marker{Body: b}))
	mod.SetFriction(j, f)
	sys, err := mod.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys, j
}

// pinPendulum is a uniform rod of length 1 and mass 1 pinned to the ground at one end,
// released at rest from angle a0 with pin friction f.
func pinPendulum(t *testing.T, a0 float64, f planar.JointFriction) (*planar.System, planar.JointID) {
	t.Helper()
	const m, L, grav = 1.0, 1.0, 9.81
	mod := planar.NewModel()
	mod.SetGravity(planar.Vec{0, -grav})
	b := mod.AddBody(planar.Body{Name: "rod", Mass: m, Inertia: m * L * L / 12,
		Pos: planar.Vec{L / 2 * math.Sin(a0), -L / 2 * math.Cos(a0)}, Angle: a0 - math.Pi/2})
	j := mod.AddRevolute("pin", mod.AddMarker(planar.Marker{Body: planar.Ground}),
		mod.AddMarker(planar.Marker{Body: b, Point: planar.Vec{-L / 2, 0}}))
	mod.SetFriction(j, f)
	sys, err := mod.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys, j
}

func runFriction(t *testing.T, name string, sys *planar.System, tEnd float64, ctl integrate.StepControl, out []float64) *integrate.Solution {
	t.Helper()
	e, m := newFrictionMethod(t, name)
	s0, _ := start(t, sys)
	if !e.Adaptive {
		ctl = integrate.StepControl{FixedH: 1e-3}
	}
	sol, err := integrate.Solve(m, name, sys, s0, tEnd, integrate.SolveOptions{Control: ctl, Output: out})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return sol
}

// TestFrictionDerivatives checks ∂f_λ/∂q, ∂f_λ/∂v and ∂f_λ/∂λ of revolute and
// translational friction (arm included) against central differences, and their sparse
// values against the dense matrices (dae.Check runs dae.CheckSparse), at states where
// the joints slide at about VReg (where tanh bends most) and faster, with reactions of
// both signs and one near zero (where N_ε smooths |N|).
func TestFrictionDerivatives(t *testing.T) {
	for _, c := range []struct {
		name      string
		eps       float64
		v, lambda []float64
	}{
		{"sliding at about VReg", 0, []float64{0.01, -0.02, 0.3, 0.05, 0.02, 0.31}, []float64{3, -4, 2.5, -0.7}},
		{"fast", 0, []float64{0.5, -1, 2, 1.5, 0.2, 2.2}, []float64{-1, 0.5, -6, 0.2}},
		// Reactions of the order of ε = 0.1 N, where N_ε bends: central differences with
		// steps of 6e-6 resolve it (a reaction of the order of the steps would not).
		{"reaction near zero", 0.1, []float64{0.01, 0.02, 0.2, 0.03, -0.01, 0.21}, []float64{0.05, -0.02, 0.03, 0.01}},
	} {
		sys := twoFrictionJoints(t, c.eps)
		q := []float64{0.5, 0.02, 0.1, 1.2, 0.3, 0.45}
		ms, err := dae.Check(sys, dae.CheckPoint{T: 0, Q: q, V: c.v, Lambda: c.lambda}, 1e-6)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		var seen int
		for _, m := range ms {
			if strings.HasPrefix(m.Quantity, "df_lambda") {
				seen++
			}
		}
		if seen != 3 {
			t.Errorf("%s: dae.Check compared %d λ-force derivatives, want 3 (q, v, λ)", c.name, seen)
		}
	}
}

// twoFrictionJoints is a body pinned to the ground with pin friction and a second body
// sliding on it with translational friction (arm set), NormalEps eps in both.
func twoFrictionJoints(t *testing.T, eps float64) *planar.System {
	t.Helper()
	mod := planar.NewModel()
	mod.SetGravity(planar.Vec{0, -9.81})
	a := mod.AddBody(planar.Body{Name: "a", Mass: 1, Inertia: 0.1, Pos: planar.Vec{0.5, 0}})
	b := mod.AddBody(planar.Body{Name: "b", Mass: 2, Inertia: 0.2, Pos: planar.Vec{1.2, 0.1}, Angle: 0.3})
	pin := mod.AddRevolute("pin", mod.AddMarker(planar.Marker{Body: planar.Ground}),
		mod.AddMarker(planar.Marker{Body: a, Point: planar.Vec{-0.5, 0}}))
	sl := mod.AddTranslational("slide", mod.AddMarker(planar.Marker{Body: a, Point: planar.Vec{0.2, 0.1}, Angle: 0.4}),
		mod.AddMarker(planar.Marker{Body: b, Point: planar.Vec{-0.1, 0.05}, Angle: 0.1}))
	mod.SetFriction(pin, planar.JointFriction{Mu: 0.3, VReg: 0.01, PinRadius: 0.02, Viscous: 0.05, NormalEps: eps})
	mod.SetFriction(sl, planar.JointFriction{Mu: 0.2, VReg: 0.05, Arm: 0.3, Viscous: 0.1, NormalEps: eps})
	sys, err := mod.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestInclineSliding: a block sliding down a slope of 30° with μ = 0.3 accelerates along
// the slope at a = g(sin θ − μ cos θ) (the normal reaction is m g cos θ and the Coulomb
// force μ m g cos θ opposes the motion); from x(0) = 0, x'(0) = v0 < 0,
// x(t) = v0 t − a t²/2. The block starts at 1 m/s, 1e4 times VReg, where tanh is −1 to
// rounding, so the closed form holds exactly for the regularized law too.
func TestInclineSliding(t *testing.T) {
	const theta, mu, grav, v0, tEnd = math.Pi / 6, 0.3, 9.81, -1.0, 1.0
	acc := grav * (math.Sin(theta) - mu*math.Cos(theta))
	want := v0*tEnd - acc*tEnd*tEnd/2
	for _, name := range append(frictionMethods, explicitFrictionMethods...) {
		sys, j := incline(t, theta, v0, planar.JointFriction{Mu: mu, VReg: 1e-4})
		sol := runFriction(t, name, sys, tEnd, integrate.StepControl{RTol: 1e-8, ATol: 1e-8}, []float64{tEnd})
		x, _ := sys.JointCoordinate(j, sol.Final.Q)
		// The motion is quadratic in t, which every method integrates to its Newton
		// tolerance; 1e-6 relative allows the local errors of a run at tolerance 1e-8.
		if d := math.Abs(x - want); d > 1e-6*math.Abs(want) {
			t.Errorf("%s: slide at t=%g: x = %.10g, closed form %.10g (|Δ| = %.2g)", name, tEnd, x, want, d)
		}
		// The normal reaction is the n row's λ: m g cos θ.
		if n := math.Abs(sol.Final.Lambda[0]); math.Abs(n-2*grav*math.Cos(theta)) > 1e-6*n {
			t.Errorf("%s: normal reaction %.10g, want m g cos θ = %.10g", name, n, 2*grav*math.Cos(theta))
		}
	}
}

// TestInclineSticking: below tan θ = μ the block sticks: with the regularized law it
// creeps instead, at the speed where the friction balances the slope force,
// m g sin θ = μ m g cos θ tanh(|x'|/VReg), i.e. |x'| = VReg·atanh(tan θ/μ), reached after a
// transient of time constant m VReg/(μ N) (microseconds here). From rest, the creep speed
// at t = 1 must match to 1e-6 relative (ATol = 1e-12 is 1e-8 of the creep speed), and the distance crept stays below VReg·atanh(·)·t.
func TestInclineSticking(t *testing.T) {
	const theta, mu, vReg, tEnd = math.Pi / 9, 0.5, 1e-4, 1.0 // tan 20° = 0.364 < 0.5
	creep := vReg * math.Atanh(math.Tan(theta)/mu)
	for _, name := range frictionMethods {
		sys, j := incline(t, theta, 0, planar.JointFriction{Mu: mu, VReg: vReg})
		sol := runSticking(t, name, sys, tEnd)
		x, _ := sys.JointCoordinate(j, sol.Final.Q)
		// x' along the slope: the joint coordinate's rate is u·v of the block.
		v := sol.Final.V[0]*math.Cos(theta) + sol.Final.V[1]*math.Sin(theta)
		if math.Abs(-v-creep) > 1e-6*creep {
			t.Errorf("%s: creep speed %.10g, want VReg·atanh(tan θ/μ) = %.10g", name, -v, creep)
		}
		if x > 0 || -x > creep*tEnd {
			t.Errorf("%s: crept %.3g m in %g s, want within [0, %.3g] (down the slope)", name, -x, tEnd, creep*tEnd)
		}
	}
}

// runSticking runs TestInclineSticking's method name. The trapezoidal rule of ali3, ali1
// and multi-index is A- but not L-stable: at steps far above the stick's time constant
// m VReg/(μN) = 2.2e-5 s its velocity rings about the creep speed (factor
// (1 − hk/2m)/(1 + hk/2m) → −1 with k = μN/VReg), and at h = 1e-3 the Newton iteration
// jumps between the two saturated sides of tanh and does not converge (measured: ali3 and
// ali1 fail the second step; multi-index at RTol = 1e-8 ends 2.9e-6 off the creep speed).
// They run at h = 2e-5 (factor +0.37: no ringing; at 1e-4, factor −0.38, the overshoot of
// the first steps carries the block past VReg·atanh(·)·t) and multi-index at RTol = 1e-9
// (at 1e-10 its energy estimate from rest cut the first step below HMin).
func runSticking(t *testing.T, name string, sys *planar.System, tEnd float64) *integrate.Solution {
	ctl := integrate.StepControl{RTol: 1e-8, ATol: 1e-12}
	switch name {
	case "ali3", "ali1":
		_, m := newFrictionMethod(t, name)
		s0, _ := start(t, sys)
		sol, err := integrate.Solve(m, name, sys, s0, tEnd, integrate.SolveOptions{Control: integrate.StepControl{FixedH: 2e-5}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return sol
	case "multi-index":
		ctl.RTol = 1e-9
	}
	return runFriction(t, name, sys, tEnd, ctl, []float64{tEnd})
}

// TestPendulumPinFriction: a uniform rod (m = 1, length 1, pivot at one end: l = 1/2 to
// the centre, I_O = m/3) swings with a pin friction torque T = μ R N; for small friction
// and amplitude N ≈ m g, so T₀ = μ R m g is constant in magnitude. Energy balance over a
// half swing from rest at A_n to rest at A_{n+1} (on the other side):
//
//	m g l (cos A_{n+1} − cos A_n) = T₀ (A_n + A_{n+1}),
//
// whose small-angle form is the classical linear decay A_{n+1} = A_n − 2 T₀/(m g l) =
// A_n − 2 μ R / l per half swing. The O(A²) parts of N (the centripetal m l ω² ≈ 0.75 m g A²,
// the tangential reaction ∝ A) change T₀ by under 0.2 % at A ≤ 0.05, so the decrements
// measured from the swing extremes must match the energy form within 1 %.
func TestPendulumPinFriction(t *testing.T) {
	const a0, mu, radius, grav, l = 0.05, 0.2, 0.01, 9.81, 0.5
	const h, tEnd = 1e-3, 3.5 // about four half swings (period 1.64 s)
	for _, name := range append(frictionMethods, explicitFrictionMethods...) {
		sys, j := pinPendulum(t, a0, planar.JointFriction{Mu: mu, VReg: 1e-6, PinRadius: radius})
		var out []float64
		for k := 1; float64(k)*h <= tEnd; k++ {
			out = append(out, float64(k)*h)
		}
		sol := runFriction(t, name, sys, tEnd, integrate.StepControl{RTol: 1e-9, ATol: 1e-11}, out)
		// Swing extremes: where the angle rate changes sign, refined by the parabola
		// through three samples.
		var amps []float64
		ang := make([]float64, len(sol.Q))
		for i, q := range sol.Q {
			ang[i], _ = sys.JointCoordinate(j, q)
			ang[i] += math.Pi / 2 // 0 hanging down
		}
		amps = append(amps, a0)
		for i := 1; i+1 < len(ang); i++ {
			if (ang[i]-ang[i-1])*(ang[i+1]-ang[i]) < 0 {
				d1, d2 := ang[i+1]-ang[i-1], ang[i+1]-2*ang[i]+ang[i-1]
				amps = append(amps, math.Abs(ang[i]-d1*d1/(8*d2)))
			}
		}
		if len(amps) < 4 {
			t.Fatalf("%s: found %d swing extremes, want ≥ 4", name, len(amps))
		}
		T0 := mu * radius * grav // per unit mass
		for n := 0; n+1 < len(amps); n++ {
			// Solve the energy balance for A_{n+1} by Newton from the linear decay.
			an := amps[n]
			x := an - 2*mu*radius/l
			for range 20 {
				r := grav*l*(math.Cos(x)-math.Cos(an)) - T0*(an+x)
				x -= r / (-grav*l*math.Sin(x) - T0)
			}
			got, want := an-amps[n+1], an-x
			if math.Abs(got-want) > 0.01*want {
				t.Errorf("%s: half swing %d: amplitude %.6g → %.6g, decrement %.5g, closed form %.5g", name, n+1, an, amps[n+1], got, want)
			}
		}
	}
}

// TestFrictionRefusedAndErrors: a method without λ-dependent forces refuses a model with
// friction naming the capability, and bad friction parameters are named by Assemble.
func TestFrictionRefusedAndErrors(t *testing.T) {
	sys, _ := incline(t, 0.3, 0, planar.JointFriction{Mu: 0.3, VReg: 1e-3})
	s0, _ := start(t, sys)
	_, m := newFrictionMethod(t, "daealpha cs")
	err := m.Init(sys, s0, integrate.StepControl{FixedH: 1e-3})
	if err == nil || !strings.Contains(err.Error(), "dae.ReactionForce") {
		t.Errorf("daealpha cs on a model with friction: err = %v, want a refusal naming dae.ReactionForce", err)
	}
	mod := planar.NewModel()
	b := mod.AddBody(planar.Body{Name: "b", Mass: 1, Inertia: 1})
	d := mod.AddDistance("rod", mod.AddMarker(planar.Marker{Body: planar.Ground}), mod.AddMarker(planar.Marker{Body: b, Point: planar.Vec{1, 0}}), 1)
	mod.SetFriction(d, planar.JointFriction{Mu: 0.1, VReg: 1e-3})
	mod.SetFriction(7, planar.JointFriction{Mu: 0.1, VReg: 1e-3})
	_, err = mod.Assemble()
	for _, want := range []string{`distance "rod": friction applies to revolute and translational joints only`, "friction on joint 7: no such joint"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Assemble: err = %v, want it to contain %q", err, want)
		}
	}
	mod = planar.NewModel()
	b = mod.AddBody(planar.Body{Name: "b", Mass: 1, Inertia: 1})
	pin := mod.AddRevolute("pin", mod.AddMarker(planar.Marker{Body: planar.Ground}), mod.AddMarker(planar.Marker{Body: b}))
	mod.SetFriction(pin, planar.JointFriction{Mu: 0.1, VReg: 1e-3})
	if _, err = mod.Assemble(); err == nil || !strings.Contains(err.Error(), `revolute "pin": friction: pin_radius = 0, want a finite value > 0`) {
		t.Errorf("pin friction without pin_radius: err = %v, want it named", err)
	}
}

// frictionChain is n uniform bars (0.5 m, 1 kg) pinned end to end, the first to the
// ground, every pin with friction, released horizontal: with n ≥ 7 (nq + nc ≥ 40) the
// implicit methods take the sparse evaluation path.
func frictionChain(t *testing.T, n int) *planar.System {
	t.Helper()
	const L = 0.5
	mod := planar.NewModel()
	mod.SetGravity(planar.Vec{0, -9.81})
	prev := mod.AddMarker(planar.Marker{Body: planar.Ground})
	for k := range n {
		b := mod.AddBody(planar.Body{Name: "bar" + string(rune('a'+k)), Mass: 1, Inertia: L * L / 12, Pos: planar.Vec{L/2 + L*float64(k), 0}})
		j := mod.AddRevolute("pin"+string(rune('a'+k)), prev, mod.AddMarker(planar.Marker{Body: b, Point: planar.Vec{-L / 2, 0}}))
		mod.SetFriction(j, planar.JointFriction{Mu: 0.3, VReg: 1e-3, PinRadius: 0.01, Viscous: 0.01})
		prev = mod.AddMarker(planar.Marker{Body: b, Point: planar.Vec{L / 2, 0}})
	}
	sys, err := mod.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// denseOnly hides the sparse evaluation path of a planar System (dae.SparseEvaluator), so
// that the methods assemble dense Newton matrices from its dense derivatives.
type denseOnly struct {
	dae.System
	dae.ReactionForce
	dae.MassDerivative
	dae.ConstraintForceDerivative
	dae.ForceDerivative
}

func hideSparse(s *planar.System) denseOnly { return denseOnly{s, s, s, s, s} }

// TestFrictionSparseMatchesDense: on a 10-bar chain with pin friction (nq + nc = 50) the
// sparse evaluation path (∂f_λ/∂λ on G's pattern, scattered where Gᵀ goes; for the
// explicit methods its rows are the columns of the Newton iteration on λ) and the dense
// one give the same fixed-step solution, and a step allocates nothing after warm-up on
// the sparse path (the chain) and the dense one (the pendulum).
func TestFrictionSparseMatchesDense(t *testing.T) {
	sys := frictionChain(t, 10)
	s0, _ := start(t, sys)
	const h, steps = 2e-3, 25
	for _, name := range append(frictionMethods, explicitFrictionMethods...) {
		var final [2][]float64
		// ali3 and multi-index (ali3 at fixed steps) have no sparse path, and on this chain
		// at h = 2e-3 their multiplier iteration (eq. 9) contracts by 0.87 per iteration
		// with or without friction and stops at its 25 iterations: the pendulum below
		// checks their allocations.
		chain := []dae.System{sys, hideSparse(sys)}
		if name == "ali3" || name == "multi-index" {
			chain = nil
		}
		for k, s := range chain {
			_, m := newFrictionMethod(t, name)
			if err := m.Init(s, s0, integrate.StepControl{FixedH: h}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for range steps {
				if err := m.Step(1); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			// The sparse path here, the dense one on the small pendulum below (a large system
			// without patterns is not the dense path's case: bdf and radau5 allocate there
			// with or without friction, measured 2 and 10 per step).
			if n := testing.AllocsPerRun(5, func() { _ = m.Step(1) }); k == 0 && n != 0 {
				t.Errorf("%s (sparse path): Step allocates %v times per call after warm-up, want 0", name, n)
			}
			final[k] = append([]float64(nil), m.Current().Q...)
		}
		pend, _ := pinPendulum(t, 0.3, planar.JointFriction{Mu: 0.3, VReg: 1e-3, PinRadius: 0.01})
		p0, _ := start(t, pend)
		_, m := newFrictionMethod(t, name)
		if err := m.Init(pend, p0, integrate.StepControl{FixedH: h}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for range steps {
			if err := m.Step(1); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if n := testing.AllocsPerRun(5, func() { _ = m.Step(1) }); n != 0 {
			t.Errorf("%s (dense path): Step allocates %v times per call after warm-up, want 0", name, n)
		}
		// Both paths solve the same Newton systems to the Newton tolerance (about 1e-10
		// of q at this h); different LU orderings leave rounding-level differences.
		for i := range final[0] {
			if d := math.Abs(final[0][i] - final[1][i]); d > 1e-8 {
				t.Errorf("%s: q[%d] sparse %.12g, dense %.12g", name, i, final[0][i], final[1][i])
				break
			}
		}
	}
}

// TestFrictionInitialize: dae.Initialize's accelerations and multipliers satisfy the
// equations of motion with the friction pressed by those multipliers,
// M a + Gᵀλ = f + f_λ(λ), to rounding, on a swinging chain whose pin forces and friction
// depend on each other.
func TestFrictionInitialize(t *testing.T) {
	sys := frictionChain(t, 3)
	q0, v0 := sys.InitialGuess()
	for i := 2; i < len(v0); i += 3 {
		v0[i] = 1.5 // spinning bars: Initialize projects the velocities onto the constraints
	}
	c, err := dae.Initialize(sys, 0, q0, v0, nil)
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := sys.Size()
	M, G := mat.NewDense(nq, nq, nil), mat.NewDense(nc, nq, nil)
	sys.Mass(M, 0, c.Q)
	sys.ConstraintJacobian(G, 0, c.Q)
	f := make([]float64, nq)
	sys.Force(f, 0, c.Q, c.V)
	fNoFriction := append([]float64(nil), f...)
	sys.AddReactionForce(f, 0, c.Q, c.V, c.Lambda)
	var r mat.VecDense
	r.MulVec(M, mat.NewVecDense(nq, c.A))
	var gl mat.VecDense
	gl.MulVec(G.T(), mat.NewVecDense(nc, c.Lambda))
	var worst, friction float64
	for i := range nq {
		worst = math.Max(worst, math.Abs(r.AtVec(i)+gl.AtVec(i)-f[i]))
		friction = math.Max(friction, math.Abs(f[i]-fNoFriction[i]))
	}
	// Rounding of forces of order m g = 10 N; the friction torques are about 1e-2 N m, far
	// above it, so a start that left them out would fail by that much.
	if worst > 1e-10 || friction < 1e-3 {
		t.Errorf("|M a + Gᵀλ − f − f_λ(λ)| = %.2g (want ≤ 1e-10); friction terms %.2g", worst, friction)
	}
}

// TestPinFrictionRadauIndex3: on the pin friction of pinPendulum (μ = 0.3, R = 2 cm, a
// stiff law: v_reg = 1e-4 m/s, swung from 1 rad), radau5's index3 form, which measures v
// at its index-1 scale for such systems (integrate.Radau5), keeps the angle at t = 3
// within the tolerance's order of a tight index2 reference (4.6e-4 = 460 times the
// tolerance at 1e-6 with the index scaling of v in the error test). Single tolerances are
// erratic on this stiff law: over 11 tolerances per decade around 1e-5 … 1e-8 the error
// ranged from 0.3 to 34 times the tolerance before radau5's first-iterate guard (session 17,
// radauMonitor.staleFirst) and from 0.3 to 37 times after it, with medians 1.7-4.5 and
// 1.4-6.3. So the test takes the median over five tolerances around each (k = −2 … 2,
// tol·10^(k/20)): before the guard 0.83-4.5, after it 1.1-3.8 times the tolerance.
func TestPinFrictionRadauIndex3(t *testing.T) {
	sys, j := pinPendulum(t, 1.0, planar.JointFriction{Mu: 0.3, VReg: 1e-4, PinRadius: 0.02})
	s0, _ := start(t, sys)
	angle := func(form integrate.Formulation, tol float64) float64 {
		m := &integrate.Radau5{Formulation: form}
		sol, err := integrate.Solve(m, "radau5", sys, s0, 3, integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol}})
		if err != nil {
			t.Fatalf("%s tol %g: %v", form, tol, err)
		}
		x, _ := sys.JointCoordinate(j, sol.Final.Q)
		return x
	}
	ref := angle(integrate.Index2, 1e-11)
	for _, tol := range []float64{1e-5, 1e-6, 1e-7, 1e-8} {
		// the tolerance bounds local errors; 10 times it bounds the median global error
		// over the five tolerances, and the index scaling of v failed it by 460 at 1e-6
		ratios := make([]float64, 0, 5)
		for k := -2; k <= 2; k++ {
			tk := tol * math.Pow(10, float64(k)/20)
			ratios = append(ratios, math.Abs(angle(integrate.Index3, tk)-ref)/tk)
		}
		sort.Float64s(ratios)
		if r := ratios[2]; r > 10 {
			t.Errorf("tol %g: median |Δangle(3)|/tol over five tolerances = %.2g (all %.2g), want ≤ 10", tol, r, ratios)
		}
	}
}

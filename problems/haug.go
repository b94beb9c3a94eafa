package problems

import (
	"fmt"
	"math"

	"linkage/dae"
	"linkage/integrate"
	"linkage/planar"
)

// The three models of seed 000 (Haug, Negrut, Iancu 1997), section 4, built with package
// planar in body coordinates q_i = (x_i, y_i, θ_i). The paper leaves most parameters out
// (its Tables 1 and 3 are empty but for the lengths and masses); the values chosen here are
// fixed, documented on the parameter structs, and are those of examples/*.yaml where that
// file exists, except the RSDA stiffness of the double pendulum (see HaugPendulumParams).
// None of them has a published reference solution: Ref carries no Q, and
// reproduce.Haug1997 computes an RK4 reference with a very small step, as the paper does.

// HaugPendulumParams are the parameters of the stiff double pendulum of seed 000,
// section 4.1 (Table 1 gives only L1 = 1 m). Both bodies are uniform bars (centroidal
// inertia m L²/12) joined to the ground and to each other by revolutes at their ends, each
// revolute carrying a rotational spring-damper (RSDA) with free angle 0 on the relative
// angle. They start horizontal (the centres at (L1/2, 0) and (L1 + L2/2, 0)), bar 1 at
// rest and bar 2 turning at Omega2 (Table 2's only non-zero entry, 10), and gravity is
// 9.81 m/s² in −y. The end time is 0.1 s (section 4.1).
type HaugPendulumParams struct {
	L1, L2 float64 // bar lengths [1, 1 m]
	M1, M2 float64 // bar masses [1, 1 kg]
	// K1, K2 are the RSDA stiffnesses at the shoulder (ground-bar 1) and at the elbow
	// (bar 1-bar 2) [1e6, 1e6 N·m/rad]. examples/stiff-double-pendulum.yaml uses 1e4, which
	// puts the fast mode at about 300 rad/s; 1e6 puts it at about 3000 rad/s, so that the
	// explicit method's stability limit falls near the paper's h_max = 1.2e-4 s for ABM
	// (section 4.1) instead of 30 times above it.
	K1, K2 float64
	C1, C2 float64 // RSDA damping [2, 2 N·m·s/rad], as in the example YAML
	Omega2 float64 // initial angular velocity of bar 2 [10 rad/s] (Table 2)
}

// DefaultHaugPendulum returns the parameters documented on HaugPendulumParams.
func DefaultHaugPendulum() HaugPendulumParams {
	return HaugPendulumParams{L1: 1, L2: 1, M1: 1, M2: 1, K1: 1e6, K2: 1e6, C1: 2, C2: 2, Omega2: 10}
}

// HaugCrankParams are the parameters of the slider-crank of seed 000, section 4.2 (Table 3:
// L1 = 0.3, m1 = 3, L2 = 0.6, m2 = 9; k and c are missing). Crank and connecting rod are
// uniform bars; the crank turns about the origin, the rod's tip B slides on the ground's x
// axis (a point-on-line joint) and a TSDA pulls B toward a ground anchor at (AnchorX, 0).
// The start is Table 4's pose: crank vertical (θ₁ = π/2), rod from (0, L1) to
// (√(L2² − L1²), 0), at rest; gravity 9.81 m/s² in −y; end time 0.1 s. The defaults of K,
// C, FreeLength and AnchorX are those of examples/slider-crank.yaml, so the spring starts
// stretched by 0.0804 m and the tip's natural frequency is about 100 rad/s.
type HaugCrankParams struct {
	L1, M1, L2, M2 float64 // [0.3 m, 3 kg, 0.6 m, 9 kg] (Table 3)
	K, C           float64 // TSDA stiffness and damping [1e5 N/m, 200 N·s/m]
	FreeLength     float64 // TSDA free length [0.6 m]
	AnchorX        float64 // the TSDA's ground point (AnchorX, 0) [1.2 m]
}

// DefaultHaugCrank returns the parameters documented on HaugCrankParams.
func DefaultHaugCrank() HaugCrankParams {
	return HaugCrankParams{L1: 0.3, M1: 3, L2: 0.6, M2: 9, K: 1e5, C: 200, FreeLength: 0.6, AnchorX: 1.2}
}

// HaugAndrewsParams are the spring-damper of seed 000, section 4.3: Andrews' squeezing
// mechanism (planar.Andrews, the IVP test set's data) with the spring between body 3 and
// the ground stiffened to K and given a damper C along it [30000 N/m, 100000 N·s/m].
// End time 0.035 s.
type HaugAndrewsParams struct {
	K, C float64
}

// DefaultHaugAndrews returns section 4.3's k = 30000, c = 100000.
func DefaultHaugAndrews() HaugAndrewsParams { return HaugAndrewsParams{K: 30000, C: 100000} }

// End times of seed 000, sections 4.1-4.3.
const (
	HaugPendulumTEnd = 0.1
	HaugCrankTEnd    = 0.1
	HaugAndrewsTEnd  = 0.035
)

// andrewsSpringK is the stiffness c0 of the spring in planar.Andrews (the test set's).
const andrewsSpringK = 4530.0

// HaugPendulum returns the stiff double pendulum of seed 000, section 4.1 (6 coordinates,
// 4 constraints, 2 degrees of freedom), started consistently with θ₁, θ₂ and their rates
// kept from the guess. Bad parameters give an error naming them.
func HaugPendulum(p HaugPendulumParams) (Problem, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"L1", p.L1}, {"L2", p.L2}, {"M1", p.M1}, {"M2", p.M2}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return Problem{}, fmt.Errorf("problems: haug-pendulum: %s = %g, want a finite value > 0", f.name, f.v)
		}
	}
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	bar1 := m.AddBody(planar.Body{Name: "bar1", Mass: p.M1, Inertia: p.M1 * p.L1 * p.L1 / 12, Pos: planar.Vec{p.L1 / 2, 0}})
	bar2 := m.AddBody(planar.Body{Name: "bar2", Mass: p.M2, Inertia: p.M2 * p.L2 * p.L2 / 12,
		Pos: planar.Vec{p.L1 + p.L2/2, 0}, Vel: planar.Vec{0, p.Omega2 * p.L2 / 2}, AngVel: p.Omega2})
	o := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground})
	b1o := m.AddMarker(planar.Marker{Name: "bar1.O", Body: bar1, Point: planar.Vec{-p.L1 / 2, 0}})
	b1a := m.AddMarker(planar.Marker{Name: "bar1.A", Body: bar1, Point: planar.Vec{p.L1 / 2, 0}})
	b2a := m.AddMarker(planar.Marker{Name: "bar2.A", Body: bar2, Point: planar.Vec{-p.L2 / 2, 0}})
	shoulder := m.AddRevolute("shoulder", o, b1o)
	elbow := m.AddRevolute("elbow", b1a, b2a)
	m.AddRSDA(planar.RSDA{Name: "spring1", Joint: shoulder, K: p.K1, C: p.C1})
	m.AddRSDA(planar.RSDA{Name: "spring2", Joint: elbow, K: p.K2, C: p.C2})
	src := fmt.Sprintf("seed 000 (Haug, Negrut, Iancu 1997), section 4.1, Tables 1-2; chosen: L = %g, %g m, m = %g, %g kg, "+
		"k = %g, %g N·m/rad, c = %g, %g N·m·s/rad, θ₂'(0) = %g rad/s, bars horizontal, gravity 9.81",
		p.L1, p.L2, p.M1, p.M2, p.K1, p.K2, p.C1, p.C2, p.Omega2)
	return haugProblem(m, "haug-pendulum", "stiff double pendulum with two RSDAs (seed 000, 4.1)", src,
		HaugPendulumTEnd, []int{2, 5})
}

// HaugCrank returns the slider-crank of seed 000, section 4.2 (6 coordinates, 5
// constraints, 1 degree of freedom), started consistently with the crank angle kept.
func HaugCrank(p HaugCrankParams) (Problem, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"L1", p.L1}, {"M1", p.M1}, {"L2", p.L2}, {"M2", p.M2}, {"FreeLength", p.FreeLength}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return Problem{}, fmt.Errorf("problems: haug-crank: %s = %g, want a finite value > 0", f.name, f.v)
		}
	}
	if !(p.L2 > p.L1) {
		return Problem{}, fmt.Errorf("problems: haug-crank: L2 = %g, want > L1 = %g so the rod reaches the slot", p.L2, p.L1)
	}
	// Table 4: the crank points up, the rod runs from the crank pin (0, L1) down to the
	// slot at (√(L2² − L1²), 0).
	phi := -math.Asin(p.L1 / p.L2)
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	crank := m.AddBody(planar.Body{Name: "crank", Mass: p.M1, Inertia: p.M1 * p.L1 * p.L1 / 12,
		Pos: planar.Vec{0, p.L1 / 2}, Angle: math.Pi / 2})
	rod := m.AddBody(planar.Body{Name: "rod", Mass: p.M2, Inertia: p.M2 * p.L2 * p.L2 / 12,
		Pos: planar.Vec{p.L2 / 2 * math.Cos(phi), p.L1 + p.L2/2*math.Sin(phi)}, Angle: phi})
	o := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground})
	slot := m.AddMarker(planar.Marker{Name: "slot", Body: planar.Ground})
	anchor := m.AddMarker(planar.Marker{Name: "anchor", Body: planar.Ground, Point: planar.Vec{p.AnchorX, 0}})
	co := m.AddMarker(planar.Marker{Name: "crank.O", Body: crank, Point: planar.Vec{-p.L1 / 2, 0}})
	ca := m.AddMarker(planar.Marker{Name: "crank.A", Body: crank, Point: planar.Vec{p.L1 / 2, 0}})
	ra := m.AddMarker(planar.Marker{Name: "rod.A", Body: rod, Point: planar.Vec{-p.L2 / 2, 0}})
	rb := m.AddMarker(planar.Marker{Name: "rod.B", Body: rod, Point: planar.Vec{p.L2 / 2, 0}})
	m.AddRevolute("main", o, co)
	m.AddRevolute("crankpin", ca, ra)
	m.AddPointOnLine("slider", slot, rb)
	m.AddTSDA(planar.TSDA{Name: "spring", I: anchor, J: rb, K: p.K, C: p.C, FreeLength: p.FreeLength})
	src := fmt.Sprintf("seed 000 (Haug, Negrut, Iancu 1997), section 4.2, Tables 3-4; chosen: TSDA k = %g N/m, c = %g N·s/m, "+
		"free length %g m, anchor (%g, 0), uniform bars, gravity 9.81", p.K, p.C, p.FreeLength, p.AnchorX)
	return haugProblem(m, "haug-crank", "slider-crank with a TSDA (seed 000, 4.2)", src, HaugCrankTEnd, []int{2})
}

// HaugAndrews returns Andrews' mechanism in body coordinates (21 coordinates, 20
// constraints, 1 degree of freedom) with the spring-damper of seed 000, section 4.3.
// planar.Andrews carries the test set's spring (c0 = 4530 N/m, free length l0); a second
// TSDA between the same two points with stiffness K − 4530, damping C and the same free
// length completes it, so the tension is K(l − l0) + C l' as in the paper. Body 1's angle is
// kept from the test set's consistent start.
func HaugAndrews(p HaugAndrewsParams) (Problem, error) {
	if !(p.K >= andrewsSpringK) || math.IsInf(p.K, 0) {
		return Problem{}, fmt.Errorf("problems: haug-andrews: K = %g, want a finite value >= the test set's %g", p.K, andrewsSpringK)
	}
	if !(p.C >= 0) || math.IsInf(p.C, 0) {
		return Problem{}, fmt.Errorf("problems: haug-andrews: C = %g, want a finite value >= 0", p.C)
	}
	m := planar.Andrews()
	// The spring's points, as in planar.Andrews: C = (xc, yc) on the ground and D at local
	// (sd − sa, sb − sc) on body 3 (the body frame's origin at its centre of mass).
	const (
		xc, yc         = 0.014, 0.072
		sa, sb, sc, sd = 1874e-5, 1043e-5, 18e-3, 2e-2
		l0             = 7785e-5
	)
	gc := m.AddMarker(planar.Marker{Name: "C2", Body: planar.Ground, Point: planar.Vec{xc, yc}})
	d3 := m.AddMarker(planar.Marker{Name: "D2", Body: 3, Point: planar.Vec{sd - sa, sb - sc}})
	m.AddTSDA(planar.TSDA{Name: "damper", I: gc, J: d3, K: p.K - andrewsSpringK, C: p.C, FreeLength: l0})
	src := fmt.Sprintf("seed 000 (Haug, Negrut, Iancu 1997), section 4.3: Andrews' mechanism (IVP test set data, "+
		"planar.Andrews) with the body-3 spring k = %g N/m and a damper c = %g N·s/m along it", p.K, p.C)
	return haugProblem(m, "haug-andrews", "Andrews' mechanism with k = 30000, c = 100000 (seed 000, 4.3)", src,
		HaugAndrewsTEnd, []int{2})
}

// Haug1997 returns the three models of seed 000, section 4, with default parameters, in
// the paper's order: haug-pendulum, haug-crank, haug-andrews.
func Haug1997() ([]Problem, error) {
	pend, err := HaugPendulum(DefaultHaugPendulum())
	if err != nil {
		return nil, err
	}
	crank, err := HaugCrank(DefaultHaugCrank())
	if err != nil {
		return nil, err
	}
	andr, err := HaugAndrews(DefaultHaugAndrews())
	if err != nil {
		return nil, err
	}
	return []Problem{pend, crank, andr}, nil
}

// haugProblem assembles m and starts it consistently (dae.Initialize, seed 002 Remark 2b)
// keeping the coordinates keep at their guessed positions and velocities.
func haugProblem(m *planar.Model, name, title, src string, tEnd float64, keep []int) (Problem, error) {
	sys, err := m.Assemble()
	if err != nil {
		return Problem{}, fmt.Errorf("problems: %s: %w", name, err)
	}
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, &dae.InitOptions{Keep: keep})
	if err != nil {
		return Problem{}, fmt.Errorf("problems: %s: %w", name, err)
	}
	if len(c.Redundant) != 0 {
		return Problem{}, fmt.Errorf("problems: %s: redundant constraints %v", name, c.Redundant)
	}
	return Problem{
		Name: name, Title: title, Source: src, System: sys, T0: 0, TEnd: tEnd,
		Start: integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda},
		Ref:   Reference{T: tEnd, Source: "none published; reproduce.Haug1997 computes an RK4 reference with a very small step"},
		Tol:   1e-6,
	}, nil
}

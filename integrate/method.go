package integrate

import "linkage/dae"

// State is a point of a solution: time, positions q, velocities v, accelerations a = q”
// and Lagrange multipliers λ of seed 002, eq. 16, and the first-order states X of a
// dae.FirstOrder system (seed 004, eq. 8a; nil for systems without them).
type State struct {
	T               float64
	Q, V, A, Lambda []float64
	X               []float64
}

// NewState returns a zero State sized for nq coordinates and nc constraints.
func NewState(nq, nc int) State {
	return State{Q: make([]float64, nq), V: make([]float64, nq), A: make([]float64, nq), Lambda: make([]float64, nc)}
}

// CopyFrom copies s into x; the slices of x must have the sizes of those of s.
func (x *State) CopyFrom(s *State) {
	x.T = s.T
	copy(x.Q, s.Q)
	copy(x.V, s.V)
	copy(x.A, s.A)
	copy(x.Lambda, s.Lambda)
	copy(x.X, s.X)
}

// Clone returns a deep copy of s (V and A keep their own lengths: on a Lie group, v has
// the group's dimension, not q's length).
func (x *State) Clone() State {
	c := State{Q: make([]float64, len(x.Q)), V: make([]float64, len(x.V)), A: make([]float64, len(x.A)),
		Lambda: make([]float64, len(x.Lambda))}
	if x.X != nil {
		c.X = make([]float64, len(x.X))
	}
	c.CopyFrom(x)
	return c
}

// accepted is a method's record of its run: the last accepted state, the one before it
// and the work counters. Every workspace holds one and every method embeds a pointer to
// it (set by Init), which gives the Current, Previous and Stats of the Method contract
// once for all methods; what a method keeps in State.A (a, q̈ or v̇) its doc says.
type accepted struct {
	cur, prev State
	stats     Stats
}

// Current returns the last accepted state (read only; it changes with the next Step).
func (r *accepted) Current() *State { return &r.cur }

// Previous returns the state before the last accepted step (the start before the first).
func (r *accepted) Previous() *State { return &r.prev }

// Stats returns the work counters since Init (zero before Init).
func (r *accepted) Stats() Stats {
	if r == nil {
		return Stats{}
	}
	return r.stats
}

// mustInit panics on a Step of a method whose Init has not run (ready false): a misuse,
// which panics rather than returning an error (STYLE.md, errors and failure).
func mustInit(ready bool, method string) {
	if !ready {
		panic("integrate: " + method + ": Step before Init")
	}
}

// Method is a stateful stepper for the equations of motion of a dae.System.
//
// Init starts it from a consistent state (see dae.Initialize) and resolves its options;
// after Init nothing allocates. Step takes one accepted step toward tEnd, never past it,
// and returns nil only when the step met every test of the method (converged Newton
// iteration, error test when adaptive); on failure it returns a *StepError and leaves the
// last accepted state untouched. Current returns the last accepted state (read only; it
// changes with the next Step). Interpolate writes the dense-output value at t in
// [Previous().T, Current().T] into dst.
//
// A tEnd that does not lie ahead of Current().T (tEnd ≤ t, or NaN) is refused by every
// method alike: Step takes no step, changes neither the state, nor the Stats, nor the
// StepControl it resolves at its first Step, and returns a *StepError (T = t, H = 0)
// wrapping ErrNoProgress. A caller loop `for m.Current().T < tEnd { m.Step(tEnd) }` never
// meets it; a loop that does not compare times stops at the error instead of spinning.
type Method interface {
	Init(sys dae.System, start State, ctl StepControl) error
	Step(tEnd float64) error
	Current() *State
	Previous() *State
	Interpolate(dst *State, t float64)
	Stats() Stats
}

// KinematicInterpolator is a Method whose dense output of t, q, v (and the first-order
// states X) costs far less than that of a and λ: InterpolateKinematics writes those at t
// in [Previous().T, Current().T] into dst, the same values Interpolate writes, and sets
// dst.A and dst.Lambda to NaN, so that a reader that needed them gets NaN, never the
// values of another time. At t equal to Previous().T or Current().T it copies that state
// whole, as Interpolate does. Output that reads positions and velocities alone uses it
// (SolveOptions.KinematicSamples).
type KinematicInterpolator interface {
	InterpolateKinematics(dst *State, t float64)
}

package modelfile

import (
	"fmt"

	"linkage/dae"
	"linkage/integrate"
	"linkage/spatial"
)

// onLieGroup is the group step of the 3D Lie-group route: the consistent Euler-parameter
// start of Build (dae.Initialize, redundant rows dropped) seen on (SO(3) × ℝ³)ᴺ by
// spatial.LieSystem, keeping the same joint rows.
func onLieGroup(b *Built) error {
	var rows []int
	if len(b.Consistent.Redundant) > 0 {
		rows = b.Consistent.KeptRows()
	}
	ls, err := spatial.NewLieSystem(b.Spatial.System, rows)
	if err != nil {
		return fmt.Errorf("%s: rotations: lie-group: %w", b.Doc.File, err)
	}
	b.Spatial.Lie = ls
	return nil
}

// RotationsReport describes b's rotation route for linkage check: empty on the default
// route, else the group, its dimension and constraint rows.
func (b *Built) RotationsReport() string {
	if b.Doc.Model.Rotations != RotationsLieGroup {
		return ""
	}
	if b.Spatial == nil {
		return fmt.Sprintf("lie-group: the body coordinates as the additive group (SO(2) commutes), integrated by %s", DefaultLieMethod)
	}
	_, nv, nc := b.Spatial.Lie.LieSize()
	pf := ""
	if nn := b.Spatial.Lie.NumPfaffian(); nn > 0 {
		pf = fmt.Sprintf(" and %d Pfaffian rows", nn)
	}
	return fmt.Sprintf("lie-group: SO(3) × ℝ³ per body, %d velocities, %d joint rows%s (the normalizations are kept by the group), integrated by %s", nv, nc, pf, DefaultLieMethod)
}

// onGroup returns the method of a run on the Lie group: m itself for a planar model (the
// Lie-group method integrates the body coordinates as dae.VectorSpace), m on b's
// spatial.LieSystem seen through lieRoute for a 3D one. A method without the registry's
// Lie column is refused by name.
func (b *Built) onGroup(e integrate.Entry, m integrate.Method, f integrate.Formulation) (integrate.Method, error) {
	lm, ok := m.(integrate.LieMethod)
	if !e.Lie || !ok {
		_, err := e.NewLieMethod(f)
		return nil, fmt.Errorf("%s: rotations: lie-group: %w", b.Doc.File, err)
	}
	if b.Spatial == nil {
		return m, nil
	}
	return newLieRoute(b.Spatial.Lie, lm), nil
}

// lieRoute runs a Lie-group method on a spatial.LieSystem and shows its states in the
// layout of the Euler-parameter system Build integrated (b.Integrated: q, q̇ = E w,
// q̈ = E ẇ + Ė w and λ with the normalization multipliers first), so that Solve's
// residuals, the recorder's channels and the work meter read them unchanged.
type lieRoute struct {
	m         integrate.LieMethod
	sys       *spatial.LieSystem
	n         int // bodies: the normalization rows of the integrated system
	cur, prev integrate.State
	tmp       integrate.State // a state on the group (Interpolate)
}

func newLieRoute(sys *spatial.LieSystem, m integrate.LieMethod) *lieRoute {
	return &lieRoute{m: m, sys: sys}
}

var _ integrate.Method = (*lieRoute)(nil)

// Init starts the method from start, a consistent state of the Euler-parameter system
// (sys): the quaternions normalized to rounding, w = (ẋ, 2 G(p) ṗ), λ without the
// normalization multipliers (and the rolling disks' μ after λ, on both sides).
func (r *lieRoute) Init(sys dae.System, start integrate.State, ctl integrate.StepControl) error {
	nq, nv, nc := r.sys.LieSize()
	nn := r.sys.NumPfaffian()
	_, ncInt := sys.Size()
	r.n = ncInt - nc
	g := integrate.State{T: start.T, Q: make([]float64, nq), V: make([]float64, nv), A: make([]float64, nv), Lambda: make([]float64, nc+nn)}
	copy(g.Q, start.Q)
	spatial.NormalizeQuaternions(g.Q)
	r.sys.LieVelocity(g.V, g.Q, start.V)
	copy(g.Lambda, start.Lambda[r.n:])
	if err := r.m.InitLie(r.sys, g, ctl); err != nil {
		return err
	}
	r.cur, r.prev = integrate.NewState(nq, ncInt+nn), integrate.NewState(nq, ncInt+nn)
	r.tmp = g.Clone()
	r.show(&r.cur, r.m.Current())
	r.prev.CopyFrom(&r.cur)
	return nil
}

// show writes the Euler-parameter view of the group state g into dst.
func (r *lieRoute) show(dst *integrate.State, g *integrate.State) {
	dst.T = g.T
	copy(dst.Q, g.Q)
	r.sys.EulerVelocity(dst.V, g.Q, g.V)
	r.sys.EulerAcceleration(dst.A, g.Q, g.V, g.A)
	copy(dst.Lambda[r.n:], g.Lambda)
	r.sys.NormalizationMultipliers(dst.Lambda[:r.n], g.T, dst.Q, dst.V, g.Lambda)
}

// Step takes one step of the method on the group.
func (r *lieRoute) Step(tEnd float64) error {
	if err := r.m.Step(tEnd); err != nil {
		return err
	}
	r.prev.CopyFrom(&r.cur)
	r.show(&r.cur, r.m.Current())
	return nil
}

func (r *lieRoute) Current() *integrate.State  { return &r.cur }
func (r *lieRoute) Previous() *integrate.State { return &r.prev }
func (r *lieRoute) Stats() integrate.Stats     { return r.m.Stats() }

// Interpolate writes the view of the method's dense output at t.
func (r *lieRoute) Interpolate(dst *integrate.State, t float64) {
	r.m.Interpolate(&r.tmp, t)
	r.show(dst, &r.tmp)
}

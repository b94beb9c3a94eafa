package spatial

import (
	"linkage/assembly"
	"linkage/dae"
)

// friction.go: (q, v, λ) ⇒ f_λ, ∂f_λ/∂q, ∂f_λ/∂v, ∂f_λ/∂λ of joint friction
// (dae.ReactionForce; assembly.JointFriction gives the formulas). A revolute joint's
// friction acts on its angle about z_I, pressed by the pin force N = |(λ_x, λ_y, λ_z)|
// (rows d = 0 in global axes; the axial thrust counts as the radial load does, the
// bending moments of rows .zx, .zy are left out); a translational joint's acts on its
// displacement along z_I with N² = λ_dx² + λ_dy² + (λ_zx² + λ_zy²)/arm² (the normal
// forces and, with arm > 0, the bending moments; the torsion row .xy is left out).

// JointFriction is Coulomb friction with a smoothed stick-slip law plus viscous friction
// in a revolute or translational joint, pressed by the joint's own reaction (see
// assembly.FrictionSpec for the fields).
type JointFriction = assembly.FrictionSpec

// frictionState is a joint friction evaluated at (q, v, λ).
type frictionState = assembly.FrictionState[[14]float64]

// frictionElem is an assembled joint friction.
type frictionElem = assembly.JointFriction[coord]

// SetFriction gives joint j (revolute or translational) friction f; Assemble checks both.
// A later call replaces an earlier one.
func (m *Model) SetFriction(j JointID, f JointFriction) {
	if m.friction == nil {
		m.friction = map[JointID]JointFriction{}
	}
	m.friction[j] = f
}

// assembleFriction builds the friction elements of joints with friction, reporting bad
// parameters and joints of other kinds through ck.
func (m *Model) assembleFriction(s *System, ck *assembly.Checker) {
	for _, j := range assembly.FrictionJoints(m.friction, len(m.joints), ck) {
		js, jd := m.joints[j-1], s.joints[j-1]
		what := jointKindNames[js.kind] + " \"" + js.name + "\""
		var force, moment []int
		switch js.kind {
		case kindRevolute:
			force = []int{jd.first, jd.first + 1, jd.first + 2} // .x .y .z
		case kindTranslational:
			force, moment = []int{jd.first, jd.first + 1}, []int{jd.first + 2, jd.first + 3} // .dx .dy; .zx .zy
		default:
			ck.Bad("%s: friction applies to revolute and translational joints only", what)
			continue
		}
		e, err := assembly.NewJointFriction(js.kind == kindRevolute, m.friction[j], jd.pair, jd.coord, force, moment)
		if err != nil {
			ck.Bad("%s: %v", what, err)
			continue
		}
		if jd.pair >= 0 { // else the joint itself is bad and reported
			s.frictions = append(s.frictions, e)
		}
	}
}

// NumFrictions returns the number of joints with friction (assembly.FrictionRoute).
func (s *System) NumFrictions() int { return len(s.frictions) }

// FrictionAt returns the i-th joint friction evaluated at (q, v, λ), with the Hessian of
// its joint coordinate when hess (assembly.FrictionRoute).
func (s *System) FrictionAt(i int, q, v, lambda []float64, hess bool) (st frictionState) {
	fr := &s.frictions[i]
	var k pairKin
	var e coordEval
	pr := &s.pairs[fr.Pair]
	pr.kin(q, &k)
	e.eval(&fr.Coord, &k, hess)
	st.Pair, st.Cols = fr.Pair, pr.col[:]
	st.Grad = e.grad
	st.VP = pr.rate(v)
	if hess {
		st.Hess = e.hess
	}
	st.Evaluate(fr.Rows, fr.W, fr.Law, lambda)
	return st
}

var (
	_ dae.ReactionForce       = (*System)(nil)
	_ dae.SparseReactionForce = (*System)(nil)
)

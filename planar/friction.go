package planar

import (
	"linkage/assembly"
	"linkage/dae"
)

// friction.go: (q, v, λ) ⇒ f_λ, ∂f_λ/∂q, ∂f_λ/∂v, ∂f_λ/∂λ of joint friction
// (dae.ReactionForce; assembly.JointFriction gives the formulas). A revolute joint's
// friction acts on its angle c = (θ_J + φ_J) − (θ_I + φ_I) with the pin force
// N = |(λ_x, λ_y)| (the rows r_J − r_I = 0 are in global axes, so −Gᵀλ puts −λ on J's
// pin) at the pin radius; a translational joint's acts on its displacement c = u_I·(r_J −
// r_I) with N² = λ_n² + (λ_θ/arm)², λ_θ the moment that keeps the slider from turning
// (left out when arm is 0).

// JointFriction is Coulomb friction with a smoothed stick-slip law plus viscous friction
// in a revolute or translational joint, pressed by the joint's own reaction (see
// assembly.FrictionSpec for the fields).
type JointFriction = assembly.FrictionSpec

// frictionState is a joint friction evaluated at (q, v, λ).
type frictionState = assembly.FrictionState[[6]float64]

// frictionElem is an assembled joint friction.
type frictionElem = assembly.JointFriction[coordKind]

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
		f := m.friction[j]
		js := m.joints[j-1]
		jd := s.joints[j-1]
		what := jointKindNames[js.kind] + " \"" + js.name + "\""
		var force, moment []int
		switch js.kind {
		case kindRevolute:
			force = []int{jd.first, jd.first + 1} // the pin force (λ_x, λ_y)
		case kindTranslational:
			force, moment = []int{jd.first}, []int{jd.first + 1} // λ_n, and the moment λ_θ
		default:
			ck.Bad("%s: friction applies to revolute and translational joints only", what)
			continue
		}
		e, err := assembly.NewJointFriction(js.kind == kindRevolute, f, jd.pair, jd.coord, force, moment)
		if err != nil {
			ck.Bad("%s: %v", what, err)
			continue
		}
		if jd.pair < 0 {
			continue // the joint itself is bad and reported
		}
		s.frictions = append(s.frictions, e)
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
	e.eval(fr.Coord, &k)
	vp := pr.rate(v)
	st.Pair, st.Cols = fr.Pair, pr.col[:]
	copy(st.Grad[:], e.grad[:])
	copy(st.VP[:], vp[:])
	if hess {
		copy(st.Hess[:], e.hess[:])
	}
	st.Evaluate(fr.Rows, fr.W, fr.Law, lambda)
	return st
}

var (
	_ dae.ReactionForce       = (*System)(nil)
	_ dae.SparseReactionForce = (*System)(nil)
)

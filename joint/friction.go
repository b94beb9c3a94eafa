package joint

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/law"
)

// friction.go: joint friction on a tree joint (dae.ReactionForce). A tree joint has no
// multiplier, so its reaction is made one: the joint is given slack degrees of freedom in
// the directions it transmits force (a pin: two translations in the plane; a slider: the
// translation normal to its axis and a rotation about the contact point), each held at
// zero by a row q_h = 0 (a drive with f ≡ 0) whose multiplier λ_h is the reaction
// component along it: the generalized force −λ_h of the hold row is the force along a
// prismatic slack, or the moment about a revolute slack's axis. With those rows the
// friction of law.Friction acts on the joint's own coordinate c = q_i,
//
//	f_λ,i = F(q'_i, N²),   N² = Σ_h (w_h λ_h)²,
//	∂f_λ/∂q = 0,   ∂f_λ,i/∂q'_i = ∂F/∂c',   ∂f_λ,i/∂λ_h = 2 w_h² λ_h ∂F/∂(N²),
//
// the law and the reaction norm of the body route's joint friction (assembly.JointFriction:
// a pin's N² = λ_x² + λ_y², a slider's λ_n² + (λ_θ/arm)²), whose rows hold the same
// reaction components (the norm is the same in any axes of the plane, and a slider's moment
// is taken about the contact point, as the body route's angle row gives a pure moment
// there). The slack rows cost one coordinate and one multiplier each, as a cut joint
// would; the joint stays in the tree, so motions and springs on it stay joint drives and
// joint springs.

// Hold is a slack coordinate of a joint with friction: Coord is held at zero by a row
// named after the friction and Name, whose multiplier weighs Weight in N² (1 for a force,
// 1/arm for a moment).
type Hold struct {
	Name   string
	Coord  int
	Weight float64
}

// friction is joint friction on coordinate coord pressed by the multipliers of the drives
// drives[k] (hold rows) weighted w[k].
type friction struct {
	name   string
	coord  int
	law    law.Friction
	drives []int
	w      []float64
}

// Friction puts the joint friction l on coordinate i (the joint's angle or displacement;
// the rate of the law is q'_i), pressed by the reaction read from holds: each hold's
// coordinate is held at zero by a row NAME.HOLD (its multiplier is the reaction component
// along that slack degree of freedom) and enters N² with its weight. The slack coordinates
// are joints of the tree between the parent and the child of joint i (Prismatic,
// Revolute, with massless bodies); they should span the directions in which the joint
// transmits the reaction that presses it.
func (m *Model) Friction(name string, i int, l law.Friction, holds ...Hold) {
	if i < 0 || i >= len(m.prims) {
		m.fail(fmt.Errorf("joint: friction %q on coordinate %d: model has %d coordinates", name, i, len(m.prims)))
		return
	}
	if err := l.Check(); err != nil {
		m.fail(fmt.Errorf("joint: friction %q: %w", name, err))
		return
	}
	if len(holds) == 0 {
		m.fail(fmt.Errorf("joint: friction %q: no hold rows, want at least one reaction component to press the joint", name))
		return
	}
	zero := func(float64) float64 { return 0 }
	fr := friction{name: name, coord: i, law: l}
	for _, h := range holds {
		switch {
		case h.Coord == i:
			m.fail(fmt.Errorf("joint: friction %q: hold %q on the joint's own coordinate %d, want a slack coordinate", name, h.Name, i))
			return
		case !(h.Weight >= 0) || math.IsInf(h.Weight, 0):
			m.fail(fmt.Errorf("joint: friction %q: hold %q weight %g, want a finite value ≥ 0", name, h.Name, h.Weight))
			return
		}
		fr.drives = append(fr.drives, len(m.drives))
		fr.w = append(fr.w, h.Weight)
		m.Drive(name+"."+h.Name, h.Coord, zero, zero, zero)
	}
	m.frictions = append(m.frictions, fr)
}

var (
	_ dae.ReactionForce = (*System)(nil)
)

// HasReactionForce reports whether the model has joint friction (dae.ReactionForce).
func (s *System) HasReactionForce() bool { return len(s.m.frictions) > 0 }

// frictionLoad returns F, ∂F/∂c' and ∂F/∂(N²) of fr at (v, λ), and the first hold row.
func (s *System) frictionLoad(fr *friction, v, lambda []float64) (f, fs, fn2 float64, row0 int) {
	row0 = s.nc - len(s.m.drives)
	var n2 float64
	for k, d := range fr.drives {
		x := fr.w[k] * lambda[row0+d]
		n2 += x * x
	}
	f, fs, fn2 = fr.law.Eval(v[fr.coord], n2)
	return f, fs, fn2, row0
}

// AddReactionForce adds the friction forces f_λ,i = F(q'_i, N²) to dst.
func (s *System) AddReactionForce(dst []float64, _ float64, _, v, lambda []float64) {
	for k := range s.m.frictions {
		fr := &s.m.frictions[k]
		f, _, _, _ := s.frictionLoad(fr, v, lambda)
		dst[fr.coord] += f
	}
}

// ReactionForceDerivative writes ∂f_λ/∂q (zero: the friction acts on a coordinate, with
// no geometry), ∂f_λ/∂v and ∂f_λ/∂λ (dae.ReactionForce).
func (s *System) ReactionForceDerivative(fq, fv, fl *mat.Dense, _ float64, _, v, lambda []float64) {
	fq.Zero()
	fv.Zero()
	if fl != nil {
		fl.Zero()
	}
	for k := range s.m.frictions {
		fr := &s.m.frictions[k]
		_, fs, fn2, row0 := s.frictionLoad(fr, v, lambda)
		i := fr.coord
		fv.Set(i, i, fv.At(i, i)+fs)
		if fl == nil {
			continue
		}
		for h, d := range fr.drives {
			r := row0 + d
			fl.Set(i, r, fl.At(i, r)+2*fr.w[h]*fr.w[h]*lambda[r]*fn2)
		}
	}
}

// ReactionPower returns the power Σ F q'_i of the friction forces (≤ 0), the part of the
// non-conservative power that depends on λ (assembly.ReactionPowerSource).
func (s *System) ReactionPower(_ float64, _, v, lambda []float64) float64 {
	var p float64
	for k := range s.m.frictions {
		fr := &s.m.frictions[k]
		f, _, _, _ := s.frictionLoad(fr, v, lambda)
		p += f * v[fr.coord]
	}
	return p
}

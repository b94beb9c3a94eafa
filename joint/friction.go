package joint

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/law"
)

// friction.go: joint friction (dae.ReactionForce). A tree joint has no multiplier, so its
// reaction is made one: the joint is given slack degrees of freedom in the directions it
// transmits force (a pin: two translations in the plane; a slider: the translation normal
// to its axis and a rotation about the contact point), each held at zero by a row q_h = 0
// (a drive with f ≡ 0) whose multiplier λ_h is the reaction component along it: the
// generalized force −λ_h of the hold row is the force along a prismatic slack, or the
// moment about a revolute slack's axis (Friction). A planar revolute cut joint has its
// reaction in its own rows (PlanarCutFriction). The friction of law.Friction then acts on
// a rate c' = ∇c·q' with a constant ∇c (the joint's coordinate, ∇c = e_i; or the relative
// angle of the cut joint's frames):
//
//	f_λ = F(c', N²) ∇c,   N² = Σ_h (w_h λ_h)²,
//	∂f_λ/∂q = 0,   ∂f_λ/∂v = ∂F/∂c' ∇c ∇cᵀ,   ∂f_λ/∂λ_h = 2 w_h² λ_h ∂F/∂(N²) ∇c,
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

// friction is joint friction on the rate c' = Σ_k grad[k]·q'_{coords[k]} (a tree joint's
// coordinate, or the relative angle of a planar cut joint's frames), pressed by the
// multipliers of the drives drives[k] (hold rows) or, when cut ≥ 0, of the rows of point
// cut joint m.cuts[cut], weighted w[k].
type friction struct {
	name   string
	coords []int
	grad   []float64
	law    law.Friction
	drives []int
	cut    int
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
	fr := friction{name: name, coords: []int{i}, grad: []float64{1}, law: l, cut: -1}
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

// pressRow returns the multiplier row of the k-th reaction component pressing fr.
func (s *System) pressRow(fr *friction, k int) int {
	if fr.cut < 0 {
		return s.nc - len(s.m.drives) + fr.drives[k]
	}
	r := 0
	for _, c := range s.m.cuts[:fr.cut] {
		r += len(c.dirs)
	}
	return r + k
}

// frictionLoad returns c', F, ∂F/∂c' and ∂F/∂(N²) of fr at (v, λ).
func (s *System) frictionLoad(fr *friction, v, lambda []float64) (rate, f, fs, fn2 float64) {
	var n2 float64
	for k, w := range fr.w {
		x := w * lambda[s.pressRow(fr, k)]
		n2 += x * x
	}
	for k, i := range fr.coords {
		rate += fr.grad[k] * v[i]
	}
	f, fs, fn2 = fr.law.Eval(rate, n2)
	return rate, f, fs, fn2
}

// AddReactionForce adds the friction forces f_λ = F(c', N²) ∇c to dst.
func (s *System) AddReactionForce(dst []float64, _ float64, _, v, lambda []float64) {
	for k := range s.m.frictions {
		fr := &s.m.frictions[k]
		_, f, _, _ := s.frictionLoad(fr, v, lambda)
		for j, i := range fr.coords {
			dst[i] += f * fr.grad[j]
		}
	}
}

// ReactionForceDerivative writes ∂f_λ/∂q (zero: ∇c is constant), ∂f_λ/∂v = F_s ∇c ∇cᵀ
// and ∂f_λ/∂λ_r = 2 w_r² λ_r F_N2 ∇c (dae.ReactionForce).
func (s *System) ReactionForceDerivative(fq, fv, fl *mat.Dense, _ float64, _, v, lambda []float64) {
	fq.Zero()
	fv.Zero()
	if fl != nil {
		fl.Zero()
	}
	for k := range s.m.frictions {
		fr := &s.m.frictions[k]
		_, _, fs, fn2 := s.frictionLoad(fr, v, lambda)
		for a, i := range fr.coords {
			for b, j := range fr.coords {
				fv.Set(i, j, fv.At(i, j)+fs*fr.grad[a]*fr.grad[b])
			}
			if fl == nil {
				continue
			}
			for h, w := range fr.w {
				r := s.pressRow(fr, h)
				fl.Set(i, r, fl.At(i, r)+2*w*w*lambda[r]*fn2*fr.grad[a])
			}
		}
	}
}

// ReactionPower returns the power Σ F c' of the friction forces (≤ 0), the part of the
// non-conservative power that depends on λ (assembly.ReactionPowerSource).
func (s *System) ReactionPower(_ float64, _, v, lambda []float64) float64 {
	var p float64
	for k := range s.m.frictions {
		fr := &s.m.frictions[k]
		rate, f, _, _ := s.frictionLoad(fr, v, lambda)
		p += f * rate
	}
	return p
}

// PlanarCutFriction puts the joint friction l on the revolute cut joint name (Cut, with
// its point rows along two directions of the plane), pressed by its pin force
// N² = λ₀² + λ₁²: the friction acts on the relative angle c of its frames about the world z
// axis, c' = ω_b·z − ω_a·z = Σ_j (s_j,ang·z) q'_j over the rotations on the path to b less
// those on the path to a. In a planar tree, whose rotations are all about z, the axes s_j,ang
// are z itself, so ∇c is constant (entries ±1 and 0 for translations) and ∂f_λ/∂q = 0; a
// rotation on either path about another axis is refused, naming it.
func (m *Model) PlanarCutFriction(name string, l law.Friction) {
	k := slices.IndexFunc(m.cuts, func(c cut) bool { return c.name == name })
	if k < 0 || len(m.cuts[k].dirs) != 2 {
		m.fail(fmt.Errorf("joint: friction %q: no point cut joint of that name with two rows (a planar revolute cut joint)", name))
		return
	}
	if err := l.Check(); err != nil {
		m.fail(fmt.Errorf("joint: friction %q: %w", name, err))
		return
	}
	fr := friction{name: name, law: l, cut: k, w: []float64{1, 1}}
	grad := map[int]float64{}
	for _, side := range []struct {
		f    int
		sign float64
	}{{m.cuts[k].b, 1}, {m.cuts[k].a, -1}} {
		for j := side.f; j != Ground; j = m.prims[j].parent {
			p := &m.prims[j]
			if p.prismatic {
				continue
			}
			if z := p.axis[2]; math.Abs(math.Abs(z)-1) > 1e-12 {
				m.fail(fmt.Errorf("joint: friction %q: rotation %q on the path of the cut joint's frames is not about z (axis %v), want a planar tree", name, p.name, p.axis))
				return
			}
			grad[j] += side.sign * p.axis[2]
		}
	}
	for _, j := range slices.Sorted(maps.Keys(grad)) {
		if grad[j] != 0 {
			fr.coords, fr.grad = append(fr.coords, j), append(fr.grad, grad[j])
		}
	}
	m.frictions = append(m.frictions, fr)
}

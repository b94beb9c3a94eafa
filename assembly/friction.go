package assembly

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"linkage/law"
)

// friction.go: (q, v, λ) of a joint ⇒ its friction force along its joint coordinate c,
// with the normal force from the joint's own multipliers (dae.ReactionForce):
//
//	N² = Σ_k (W_k λ_{r_k})²,   F = law.Friction(c', N²),   f_p = F ∇c,   c' = ∇c·v_p,
//	∂f_p/∂q = ∇c (F_s ∇²c v_p)ᵀ + F ∇²c,   ∂f_p/∂v = F_s ∇c ∇cᵀ,
//	∂f_p/∂λ_{r_k} = 2 W_k² λ_{r_k} F_N2 ∇c,
//
// with F_s = ∂F/∂c', F_N2 = ∂F/∂(N²). The power F c' = vᵀ f_p ≤ 0 is dissipated. The
// q- and v-derivatives are those of a damper whose force is −F (SpringDamper), so they
// share its writers.

// JointFriction is the friction of a joint acting along coordinate Coord (of the route's
// kind C) of pair Pair, pressed by the reactions λ_{Rows[k]} weighted by W[k].
type JointFriction[C any] struct {
	Pair  int
	Coord C
	Rows  []int     // the joint's multipliers that make up the normal force
	W     []float64 // their weights in N² (a bending-moment row: 1/arm)
	Law   law.Friction
}

// FrictionSpec is the friction a user gives a revolute or translational joint
// (planar.JointFriction, spatial.JointFriction): Coulomb friction with a smoothed
// stick-slip law plus viscous friction, pressed by the joint's own reaction (law.Friction:
// F = −(μ R N_ε tanh(R c'/VReg) + Viscous·c'), N_ε = √(N² + NormalEps²)).
type FrictionSpec struct {
	Mu        float64 // Coulomb coefficient ≥ 0
	VReg      float64 // regularization slip speed > 0 [m/s]: at 3·VReg the friction is 99.5 % of μN
	Viscous   float64 // viscous coefficient ≥ 0 [N s/m; revolute N m s/rad]
	PinRadius float64 // revolute joints: pin radius R > 0 [m]; the torque is μ R N
	Arm       float64 // translational joints: bending-moment arm ≥ 0 [m]; 0 leaves the moment out
	NormalEps float64 // ε [N] of N_ε; 0 takes law.DefaultNormalEps
}

// NewJointFriction returns the friction spec gives a revolute (a pin radius) or
// translational (an arm) joint acting along coordinate c of pair, with the normal force
// N² = Σ λ_f² over the rows force plus Σ (λ_m/arm)² over the rows moment (left out when
// arm is 0), or an error naming the first bad parameter by its model-file key.
func NewJointFriction[C any](revolute bool, spec FrictionSpec, pair int, c C, force, moment []int) (JointFriction[C], error) {
	l := law.Friction{Mu: spec.Mu, VReg: spec.VReg, Viscous: spec.Viscous, Radius: 1, NormalEps: spec.NormalEps}
	jf := JointFriction[C]{Pair: pair, Coord: c, Rows: append(append([]int(nil), force...), moment...)}
	for range force {
		jf.W = append(jf.W, 1)
	}
	mw := 0.0
	if revolute {
		if spec.Arm != 0 {
			return jf, fmt.Errorf("friction: arm = %g applies to translational joints; a revolute joint takes pin_radius", spec.Arm)
		}
		l.Radius = spec.PinRadius
	} else {
		if spec.PinRadius != 0 {
			return jf, fmt.Errorf("friction: pin_radius = %g applies to revolute joints; a translational joint takes arm", spec.PinRadius)
		}
		if !(spec.Arm >= 0) || math.IsInf(spec.Arm, 0) {
			return jf, fmt.Errorf("friction: arm = %g, want a finite value ≥ 0", spec.Arm)
		}
		if spec.Arm > 0 {
			mw = 1 / spec.Arm
		}
	}
	for range moment {
		jf.W = append(jf.W, mw)
	}
	if err := l.Check(); err != nil {
		if revolute {
			err = errors.New(strings.Replace(err.Error(), "radius", "pin_radius", 1))
		}
		return jf, err
	}
	jf.Law = l
	return jf, nil
}

// FrictionLoad is a joint friction's load at one (q, v, λ).
type FrictionLoad struct {
	Rate        float64    // c'
	Normal2     float64    // N²
	F, Fs, FN2  float64    // F, ∂F/∂c', ∂F/∂(N²)
	damperEquiv law.SDLoad // the damper with force −F (for AddJacobianQ, AddOuter)
}

// frictionLoad evaluates law l at rate c' with the normal force of the multipliers rows
// weighted by w.
func frictionLoad(rows []int, w []float64, l law.Friction, rate float64, lambda []float64) FrictionLoad {
	ld := FrictionLoad{Rate: rate}
	for k, r := range rows {
		x := w[k] * lambda[r]
		ld.Normal2 += x * x
	}
	ld.F, ld.Fs, ld.FN2 = l.Eval(rate, ld.Normal2)
	ld.damperEquiv = law.SDLoad{Rate: rate, Fd: -ld.F, Kd: -ld.Fs}
	return ld
}

// addJacobianLambda adds ∂f_p/∂λ = 2 W_k² λ_{r_k} F_N2 ∇c of a friction pressed by the
// multipliers rows (weights w) into dst: into the nq×nc matrix ∂f/∂λ, or, with transposed
// set, into (∂f/∂λ)ᵀ on G's pattern (dae.SparseReactionForce).
func addJacobianLambda(dst Target, transposed bool, rows []int, w []float64, cols []int, l *FrictionLoad, grad []float64, lambda []float64) {
	for k, r := range rows {
		s := 2 * w[k] * w[k] * lambda[r] * l.FN2
		for a, col := range cols {
			if col < 0 || grad[a] == 0 {
				continue
			}
			if transposed {
				dst.Add(r, col, s*grad[a])
			} else {
				dst.Add(col, r, s*grad[a])
			}
		}
	}
}

// FrictionState is one joint friction evaluated at (q, v, λ) by its route: the pair and its
// columns (len(Cols) = n coordinates p of the pair, at most 14), the joint coordinate's
// gradient ∇c and (when asked) Hessian ∇²c over p (the first n entries and rows), the
// pair's rates v_p, the multipliers that press the joint with their weights, and the load.
type FrictionState[R HessianRow] struct {
	Pair     int // the pair's index in Elements.Pairs
	Cols     []int
	Grad, VP [14]float64
	Hess     [14]R
	Rows     []int
	W        []float64
	Load     FrictionLoad
}

// Evaluate fills the rows, weights and load of a friction with law l pressed by the
// multipliers rows (weights w) at rate c' = ∇c·v_p (Cols, Grad and VP set).
func (st *FrictionState[R]) Evaluate(rows []int, w []float64, l law.Friction, lambda []float64) {
	var rate float64
	for k := range st.Cols {
		rate += st.Grad[k] * st.VP[k]
	}
	st.Rows, st.W, st.Load = rows, w, frictionLoad(rows, w, l, rate, lambda)
}

// AddForce adds f_p = F ∇c to dst at the pair's columns.
func (st *FrictionState[R]) AddForce(dst []float64) {
	AddScaled(dst, st.Cols, st.Load.F, st.Grad[:len(st.Cols)])
}

// AddDerivatives adds ∂f_p/∂q, ∂f_p/∂v (to fq, fv) and ∂f_p/∂λ (to fl, transposed: to
// (∂f/∂λ)ᵀ on G's pattern) of a state evaluated with its Hessian.
func (st *FrictionState[R]) AddDerivatives(fq, fv, fl Target, transposed bool, lambda []float64) {
	n := len(st.Cols)
	AddJacobianQ(fq, st.Pair, st.Cols, &st.Load.damperEquiv, st.Grad[:n], st.Hess[:n], st.VP[:n])
	if st.Load.Fs != 0 {
		AddOuter(fv, st.Pair, st.Cols, st.Load.Fs, st.Grad[:n]) // ∂f_p/∂v = F_s ∇c ∇cᵀ
	}
	addJacobianLambda(fl, transposed, st.Rows, st.W, st.Cols, &st.Load, st.Grad[:n], lambda)
}

// Power returns the power F c' the friction delivers to the bodies (≤ 0).
func (st *FrictionState[R]) Power() float64 { return st.Load.F * st.Load.Rate }

// FrictionRoute is a route's System with joint friction as the shared writers below walk
// it: FrictionAt returns element i evaluated at (q, v, λ), with the Hessian when hess.
type FrictionRoute[R HessianRow] interface {
	NumFrictions() int
	FrictionAt(i int, q, v, lambda []float64, hess bool) FrictionState[R]
}

// AddFrictionForces adds f_λ = Σ F ∇c of every joint friction of r to dst.
func AddFrictionForces[R HessianRow](r FrictionRoute[R], dst, q, v, lambda []float64) {
	for i := range r.NumFrictions() {
		st := r.FrictionAt(i, q, v, lambda, false)
		st.AddForce(dst)
	}
}

// WriteFrictionDerivatives writes ∂f_λ/∂q, ∂f_λ/∂v and ∂f_λ/∂λ of every joint friction of
// r into fq, fv and fl (transposed: (∂f_λ/∂λ)ᵀ on G's pattern).
func WriteFrictionDerivatives[R HessianRow](r FrictionRoute[R], fq, fv, fl Target, transposed bool, q, v, lambda []float64) {
	fq.Zero()
	fv.Zero()
	fl.Zero()
	for i := range r.NumFrictions() {
		st := r.FrictionAt(i, q, v, lambda, true)
		st.AddDerivatives(fq, fv, fl, transposed, lambda)
	}
}

// FrictionPower returns vᵀ f_λ = Σ F c' of every joint friction of r (≤ 0).
func FrictionPower[R HessianRow](r FrictionRoute[R], q, v, lambda []float64) float64 {
	var p float64
	for i := range r.NumFrictions() {
		st := r.FrictionAt(i, q, v, lambda, false)
		p += st.Power()
	}
	return p
}

// Frictions gives a route's System the methods of dae.ReactionForce and
// dae.SparseReactionForce and the friction power (ReactionPowerSource) from its
// FrictionRoute: the System embeds Frictions and calls Init at the end of assembly, as it
// does Matrices, whose patterns the sparse values use.
type Frictions[R HessianRow] struct {
	r FrictionRoute[R]
	m *Matrices
}

// Init binds the route and its matrices.
func (f *Frictions[R]) Init(r FrictionRoute[R], m *Matrices) { f.r, f.m = r, m }

// HasReactionForce reports whether a joint has friction (dae.ReactionForce): a model
// without friction is a System without λ-dependent forces.
func (f *Frictions[R]) HasReactionForce() bool { return f.r.NumFrictions() > 0 }

// AddReactionForce adds the joint friction forces f_λ(q, v, λ) to dst.
func (f *Frictions[R]) AddReactionForce(dst []float64, _ float64, q, v, lambda []float64) {
	AddFrictionForces(f.r, dst, q, v, lambda)
}

// ReactionForceDerivative writes ∂f_λ/∂q, ∂f_λ/∂v and ∂f_λ/∂λ (dae.ReactionForce).
func (f *Frictions[R]) ReactionForceDerivative(fq, fv, fl *mat.Dense, _ float64, q, v, lambda []float64) {
	var tl Target
	if fl != nil {
		tl = Dense(fl)
	}
	WriteFrictionDerivatives(f.r, Dense(fq), Dense(fv), tl, false, q, v, lambda)
}

// ReactionForceDerivativeValues writes ∂f_λ/∂q, ∂f_λ/∂v on dae.CouplingCSR and
// (∂f_λ/∂λ)ᵀ on dae.ConstraintCSR (dae.SparseReactionForce).
func (f *Frictions[R]) ReactionForceDerivativeValues(fq, fv, flT []float64, _ float64, q, v, lambda []float64) {
	WriteFrictionDerivatives(f.r, f.m.CouplingTarget(fq), f.m.CouplingTarget(fv), f.m.ConstraintTarget(flT), true, q, v, lambda)
}

// ReactionPower returns the power vᵀ f_λ = Σ F c' of the joint friction forces (≤ 0), the
// part of the non-conservative power that depends on λ (ReactionPowerSource).
func (f *Frictions[R]) ReactionPower(_ float64, q, v, lambda []float64) float64 {
	return FrictionPower(f.r, q, v, lambda)
}

// FrictionJoints returns the joints of specs in increasing order, reporting through ck the
// ones outside [1, njoints].
func FrictionJoints[K ~int](specs map[K]FrictionSpec, njoints int, ck *Checker) []K {
	var out []K
	for _, j := range slices.Sorted(maps.Keys(specs)) {
		if j < 1 || int(j) > njoints {
			ck.Bad("friction on joint %d: no such joint (the model has %d)", j, njoints)
			continue
		}
		out = append(out, j)
	}
	return out
}

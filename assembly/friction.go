package assembly

import (
	"errors"
	"fmt"
	"math"
	"strings"

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
	Rate        float64 // c'
	Normal2     float64 // N²
	F, Fs, FN2  float64 // F, ∂F/∂c', ∂F/∂(N²)
	damperEquiv SDLoad  // the damper with force −F (for AddJacobianQ, AddOuter)
}

// Load evaluates the law at rate c' and multipliers λ.
func (jf *JointFriction[C]) Load(rate float64, lambda []float64) FrictionLoad {
	l := FrictionLoad{Rate: rate}
	for k, r := range jf.Rows {
		x := jf.W[k] * lambda[r]
		l.Normal2 += x * x
	}
	l.F, l.Fs, l.FN2 = jf.Law.Eval(rate, l.Normal2)
	l.damperEquiv = SDLoad{Rate: rate, Fd: -l.F, Kd: -l.Fs}
	return l
}

// AddForce adds f_p = F ∇c into dst at the pair's columns.
func (l *FrictionLoad) AddForce(dst []float64, cols []int, grad []float64) {
	AddScaled(dst, cols, l.F, grad)
}

// AddJacobianQ adds ∂f_p/∂q into dst at the pair's columns.
func AddFrictionJacobianQ[R HessianRow](dst Target, cols []int, l *FrictionLoad, grad []float64, hess []R, vp []float64) {
	AddJacobianQ(dst, cols, &l.damperEquiv, grad, hess, vp)
}

// AddJacobianV adds ∂f_p/∂v = F_s ∇c ∇cᵀ into dst at the pair's columns.
func (l *FrictionLoad) AddJacobianV(dst Target, cols []int, grad []float64) {
	if l.Fs != 0 {
		AddOuter(dst, cols, l.Fs, grad)
	}
}

// AddJacobianLambda adds ∂f_p/∂λ into dst: into the nq×nc matrix ∂f/∂λ, or, with
// transposed set, into (∂f/∂λ)ᵀ on G's pattern (dae.SparseReactionForce).
func (jf *JointFriction[C]) AddJacobianLambda(dst Target, transposed bool, cols []int, l *FrictionLoad, grad []float64, lambda []float64) {
	for k, r := range jf.Rows {
		s := 2 * jf.W[k] * jf.W[k] * lambda[r] * l.FN2
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

// Power returns the power F c' the friction delivers to the bodies (≤ 0).
func (l *FrictionLoad) Power() float64 { return l.F * l.Rate }

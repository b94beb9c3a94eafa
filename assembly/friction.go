package assembly

import "linkage/law"

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

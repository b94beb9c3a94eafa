package assembly

import "linkage/law"

// springdamper.go: (t, c, c') of a scalar pair coordinate ⇒ the force of a spring-damper
// along it, its derivatives, power and energy:
//
//	F = spring(c − c_free) + damper(c') + act(t),   f_p = −F ∇c,
//	∂f_p/∂q = −∇c (k ∇c + d ∇²c v_p)ᵀ − F ∇²c,   ∂f_p/∂v = −d ∇c ∇cᵀ,
//
// with k = spring', d = damper', c' = ∇c·v_p. A TSDA is one along a length, an RSDA one
// along an angle, a bushing one per axis.

// SpringDamper is a spring-damper-actuator whose law (law.SpringDamper: F, its load,
// reading, energy and power) acts along coordinate Coord (of the route's kind C) of pair
// Pair.
type SpringDamper[C any] struct {
	law.SpringDamper
	Pair  int
	Coord C
}

// NewSpringDamper returns the element; a nil spring or damper is linear with coefficient k
// or d.
func NewSpringDamper[C any](pair int, c C, free float64, spring, damper law.Force, k, d float64, act law.Func) SpringDamper[C] {
	return SpringDamper[C]{SpringDamper: law.NewSpringDamper(free, spring, damper, k, d, act), Pair: pair, Coord: c}
}

// AddJacobianQ adds ∂f_p/∂q = −∇c (k ∇c + d ∇²c v_p)ᵀ − F ∇²c of load l into dst at the
// columns cols of pair k, at the positions of its block found once when dst holds them.
func AddJacobianQ[R HessianRow](dst Target, k int, cols []int, l *law.SDLoad, grad []float64, hess []R, vp []float64) {
	F := l.Force()
	var hv R // ∇²c v_p
	for a := range len(hv) {
		for b := range len(hv) {
			hv[a] += hess[a][b] * vp[b]
		}
	}
	n := len(cols)
	blk := dst.slots.block(k, n)
	for a, ca := range cols {
		if ca < 0 {
			continue
		}
		if blk != nil {
			pos := blk[a*n : (a+1)*n]
			for b, cb := range cols {
				if cb >= 0 {
					addPos(dst.vals, pos[b], ca, cb, -(grad[a]*(l.Ks*grad[b]+l.Kd*hv[b]) + F*hess[a][b]))
				}
			}
			continue
		}
		out := dst.Row(ca)
		if d := out.dense; d != nil { // the dense path without a branch per entry
			for b, cb := range cols {
				if cb >= 0 {
					d[cb] -= grad[a]*(l.Ks*grad[b]+l.Kd*hv[b]) + F*hess[a][b]
				}
			}
			continue
		}
		for b, cb := range cols {
			if cb >= 0 {
				out.Add(cb, -(grad[a]*(l.Ks*grad[b]+l.Kd*hv[b]) + F*hess[a][b]))
			}
		}
	}
}

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

// SpringDamper is a spring-damper-actuator acting along coordinate Coord (of the route's
// kind C) of pair Pair.
type SpringDamper[C any] struct {
	Pair           int
	Coord          C
	Free           float64 // c_free
	Spring, Damper law.Force
	Act            law.Func      // nil: no actuator
	pot            law.Potential // the spring's, nil when it has none
}

// NewSpringDamper returns the element; a nil spring or damper is linear with coefficient k
// or d.
func NewSpringDamper[C any](pair int, c C, free float64, spring, damper law.Force, k, d float64, act law.Func) SpringDamper[C] {
	if spring == nil {
		spring = law.Linear{K: k}
	}
	if damper == nil {
		damper = law.Linear{K: d}
	}
	pot, _ := spring.(law.Potential)
	return SpringDamper[C]{Pair: pair, Coord: c, Free: free, Spring: spring, Damper: damper, Act: act, pot: pot}
}

// SDLoad is a spring-damper's load at one (t, q, v).
type SDLoad struct {
	Rate   float64 // c'
	Fs, Ks float64 // spring force and stiffness
	Fd, Kd float64 // damper force and its derivative
	Fa     float64 // actuator
}

// Load evaluates the laws at (t, c, c').
func (sd *SpringDamper[C]) Load(t, c, rate float64) SDLoad {
	l := SDLoad{Rate: rate}
	l.Fs, l.Ks = sd.Spring.Eval(c - sd.Free)
	l.Fd, l.Kd = sd.Damper.Eval(rate)
	if sd.Act != nil {
		l.Fa, _, _ = sd.Act.Eval(t)
	}
	return l
}

// SDReading is a spring-damper's state as the output channels report it: the coordinate c
// (a length or an angle), the deflection c − c_free, the rate c', the force F (positive
// when it pulls the markers together or turns J back towards I) and the power −F c' the
// element delivers to the bodies (negative while it takes energy out, as a damper does).
type SDReading struct {
	Value, Deflection, Rate, Force, Power float64
}

// Reading returns the channels of sd at coordinate value c with load l.
func (sd *SpringDamper[C]) Reading(c float64, l *SDLoad) SDReading {
	F := l.Force()
	return SDReading{Value: c, Deflection: c - sd.Free, Rate: l.Rate, Force: F, Power: -F * l.Rate}
}

// Force returns F = spring + damper + actuator.
func (l *SDLoad) Force() float64 { return l.Fs + l.Fd + l.Fa }

// HasPotential reports whether the spring law has a closed-form integral, so that its
// energy enters V (Energy) rather than its work P_nc (Power).
func (sd *SpringDamper[C]) HasPotential() bool { return sd.pot != nil }

// Energy returns the spring's potential ∫ F at coordinate value c (0 without Potential).
func (sd *SpringDamper[C]) Energy(c float64) float64 {
	if sd.pot == nil {
		return 0
	}
	return sd.pot.Integral(c - sd.Free)
}

// Conservative reports whether Power is zero at every state: the spring has a Potential,
// the damper is linear with d = 0 and there is no actuator.
func (sd *SpringDamper[C]) Conservative() bool {
	d, linear := sd.Damper.(law.Linear)
	return sd.pot != nil && linear && d.K == 0 && sd.Act == nil
}

// Power returns the element's non-conservative power −F_nc c', F_nc = damper + actuator
// (+ spring when it has no Potential).
func (sd *SpringDamper[C]) Power(l *SDLoad) float64 {
	F := l.Fd + l.Fa
	if sd.pot == nil {
		F += l.Fs
	}
	return -F * l.Rate
}

// AddJacobianQ adds ∂f_p/∂q = −∇c (k ∇c + d ∇²c v_p)ᵀ − F ∇²c of load l into dst at the
// pair's columns.
func AddJacobianQ[R HessianRow](dst Target, cols []int, l *SDLoad, grad []float64, hess []R, vp []float64) {
	F := l.Force()
	var hv R // ∇²c v_p
	for a := range len(hv) {
		for b := range len(hv) {
			hv[a] += hess[a][b] * vp[b]
		}
	}
	for a, ca := range cols {
		if ca < 0 {
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

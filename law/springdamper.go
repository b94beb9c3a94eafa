package law

// SpringDamper is the scalar law of a spring-damper-actuator along a coordinate c of any
// route (a length for a TSDA, an angle for an RSDA, one axis of a bushing): the tension
//
//	F = Spring(c − Free) + Damper(c') + Act(t),
//
// positive when it pulls the coordinate back (c down). The route turns F into the
// generalized force −F ∂c/∂q; this type knows nothing of c's geometry. The spring enters
// the potential V when it implements Potential, its work the non-conservative power P_nc
// otherwise (the energy invariant Π of seed 001, eq. 12). Build it with NewSpringDamper.
type SpringDamper struct {
	Free           float64 // c_free
	Spring, Damper Force
	Act            Func      // nil: no actuator
	pot            Potential // the spring's, nil when it has none
}

// NewSpringDamper returns the law with free coordinate free; a nil spring or damper is
// Linear with coefficient k or d, a nil act no actuator.
func NewSpringDamper(free float64, spring, damper Force, k, d float64, act Func) SpringDamper {
	if spring == nil {
		spring = Linear{K: k}
	}
	if damper == nil {
		damper = Linear{K: d}
	}
	pot, _ := spring.(Potential)
	return SpringDamper{Free: free, Spring: spring, Damper: damper, Act: act, pot: pot}
}

// SDLoad is a spring-damper's load at one (t, c, c'): the terms of F and their slopes, which
// the routes' force derivatives ∂f/∂q, ∂f/∂v need.
type SDLoad struct {
	Rate   float64 // c'
	Fs, Ks float64 // spring force and stiffness dFs/dc
	Fd, Kd float64 // damper force and its slope dFd/dc'
	Fa     float64 // actuator
}

// Load evaluates the laws at (t, c, c').
func (sd *SpringDamper) Load(t, c, rate float64) SDLoad {
	l := SDLoad{Rate: rate}
	l.Fs, l.Ks = sd.Spring.Eval(c - sd.Free)
	l.Fd, l.Kd = sd.Damper.Eval(rate)
	if sd.Act != nil {
		l.Fa, _, _ = sd.Act.Eval(t)
	}
	return l
}

// Force returns the tension F = spring + damper + actuator.
func (l *SDLoad) Force() float64 { return l.Fs + l.Fd + l.Fa }

// SDReading is a spring-damper's state as the output channels report it: the coordinate c
// (a length or an angle), the deflection c − c_free, the rate c', the force F (positive
// when it pulls the markers together or turns J back towards I) and the power −F c' the
// element delivers to the bodies (negative while it takes energy out, as a damper does).
type SDReading struct {
	Value, Deflection, Rate, Force, Power float64
}

// Reading returns the channels of sd at coordinate value c with load l.
func (sd *SpringDamper) Reading(c float64, l *SDLoad) SDReading {
	F := l.Force()
	return SDReading{Value: c, Deflection: c - sd.Free, Rate: l.Rate, Force: F, Power: -F * l.Rate}
}

// HasPotential reports whether the spring law has a closed-form integral, so that its
// energy enters V (Energy) rather than its work P_nc (Power).
func (sd *SpringDamper) HasPotential() bool { return sd.pot != nil }

// Energy returns the spring's potential ∫ F at coordinate value c (0 without Potential).
func (sd *SpringDamper) Energy(c float64) float64 {
	if sd.pot == nil {
		return 0
	}
	return sd.pot.Integral(c - sd.Free)
}

// Conservative reports whether Power is zero at every state: the spring has a Potential,
// the damper is linear with d = 0 and there is no actuator.
func (sd *SpringDamper) Conservative() bool {
	d, linear := sd.Damper.(Linear)
	return sd.pot != nil && linear && d.K == 0 && sd.Act == nil
}

// Power returns the element's non-conservative power −F_nc c', F_nc = damper + actuator
// (+ spring when it has no Potential).
func (sd *SpringDamper) Power(l *SDLoad) float64 {
	F := l.Fd + l.Fa
	if sd.pot == nil {
		F += l.Fs
	}
	return -F * l.Rate
}

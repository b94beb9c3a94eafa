package joint

import "linkage/law"

// The spring-damper law of the force elements, F = spring(c − c_free) + damper(c') +
// act(t), its power and energy: the rules of assembly.SpringDamper, written again here
// because package assembly imports integrate, whose tests import joint.

// sdLaw is a SpringDamper with its linear defaults filled in.
type sdLaw struct {
	free           float64
	spring, damper law.Force
	act            law.Func      // nil: no actuator
	pot            law.Potential // the spring's, nil when it has none
}

func newSDLaw(sd SpringDamper) sdLaw {
	l := sdLaw{free: sd.Free, spring: sd.Spring, damper: sd.Damper, act: sd.Actuator}
	if l.spring == nil {
		l.spring = law.Linear{K: sd.K}
	}
	if l.damper == nil {
		l.damper = law.Linear{K: sd.C}
	}
	l.pot, _ = l.spring.(law.Potential)
	return l
}

// sdLoad is a spring-damper's load at one (t, c, c'): the rate, the spring's force Fs and
// stiffness Ks, the damper's force Fd and slope Kd, the actuator's force Fa.
type sdLoad struct {
	Rate, Fs, Ks, Fd, Kd, Fa float64
}

// Force is the tension F = Fs + Fd + Fa.
func (l *sdLoad) Force() float64 { return l.Fs + l.Fd + l.Fa }

// Load evaluates the laws at (t, c, c').
func (sd *sdLaw) Load(t, c, rate float64) sdLoad {
	l := sdLoad{Rate: rate}
	l.Fs, l.Ks = sd.spring.Eval(c - sd.free)
	l.Fd, l.Kd = sd.damper.Eval(rate)
	if sd.act != nil {
		l.Fa, _, _ = sd.act.Eval(t)
	}
	return l
}

// HasPotential reports whether the spring's energy enters V (else its work is in P_nc).
func (sd *sdLaw) HasPotential() bool { return sd.pot != nil }

// conservative reports whether Power is zero at every state: the spring has a Potential,
// the damper is linear with d = 0 and there is no actuator.
func (sd *sdLaw) conservative() bool {
	d, linear := sd.damper.(law.Linear)
	return sd.pot != nil && linear && d.K == 0 && sd.act == nil
}

// Energy is the spring's potential ∫ F at c (0 without a closed-form integral).
func (sd *sdLaw) Energy(c float64) float64 {
	if sd.pot == nil {
		return 0
	}
	return sd.pot.Integral(c - sd.free)
}

// Power is the non-conservative power −F_nc c', F_nc = damper + actuator (+ spring without
// potential).
func (sd *sdLaw) Power(l *sdLoad) float64 {
	F := l.Fd + l.Fa
	if sd.pot == nil {
		F += l.Fs
	}
	return -F * l.Rate
}

// Reading is a spring-damper's state as output channels report it (the fields of
// assembly.SDReading): the coordinate c, the deflection c − c_free, the rate c', the
// tension F and the power −F c' delivered to the bodies.
type Reading struct {
	Value, Deflection, Rate, Force, Power float64
}

// Reading returns the channels at coordinate c with load l.
func (sd *sdLaw) Reading(c float64, l *sdLoad) Reading {
	F := l.Force()
	return Reading{Value: c, Deflection: c - sd.free, Rate: l.Rate, Force: F, Power: -F * l.Rate}
}

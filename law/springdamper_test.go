package law_test

import (
	"math"
	"testing"

	"linkage/law"
)

// hidden is a force law with its Integral hidden (no Potential), so that a spring of it
// counts its work as non-conservative power.
type hidden struct{ law.Force }

// TestSpringDamperLoad: with nil laws the element is linear, F = k (c − c_free) + d c' +
// act(t) exactly; the load's slopes Ks, Kd agree with central differences of Fs, Fd; the
// reading repeats c, c − c_free, c', F and −F c'.
func TestSpringDamperLoad(t *testing.T) {
	lin := law.NewSpringDamper(0.5, nil, nil, 200, 3, law.Const{Value: -4})
	l := lin.Load(1.2, 0.75, -0.4)
	if F, want := l.Force(), 200*0.25+3*-0.4-4; F != want || l.Ks != 200 || l.Kd != 3 {
		t.Errorf("linear law: F = %.17g, Ks = %g, Kd = %g; want %.17g, 200, 3", F, l.Ks, l.Kd, want)
	}
	r := lin.Reading(0.75, &l)
	if want := (law.SDReading{Value: 0.75, Deflection: 0.25, Rate: -0.4, Force: l.Force(), Power: 0.4 * l.Force()}); r != want {
		t.Errorf("reading %+v, want %+v", r, want)
	}

	sd := law.NewSpringDamper(0.1, law.SeedSpring(), law.SeedDamper(), 0, 0, nil)
	const h = 1e-6
	for _, c := range []float64{0.05, 0.1, 0.13, 0.2} {
		for _, rate := range []float64{-0.7, -0.05, 0, 0.02, 0.6} {
			l := sd.Load(0, c, rate)
			ks := (sd.Load(0, c+h, rate).Fs - sd.Load(0, c-h, rate).Fs) / (2 * h)
			kd := (sd.Load(0, c, rate+h).Fd - sd.Load(0, c, rate-h).Fd) / (2 * h)
			if math.Abs(l.Ks-ks) > 1e-6*(1+math.Abs(ks)) || math.Abs(l.Kd-kd) > 1e-6*(1+math.Abs(kd)) {
				t.Errorf("c=%g c'=%g: Ks %g vs %g, Kd %g vs %g by differences", c, rate, l.Ks, ks, l.Kd, kd)
			}
		}
	}
}

// TestSpringDamperEnergyPower: a spring with Potential has dEnergy/dc = Fs (central
// differences) and leaves the power to the damper and actuator; one without adds nothing to
// the energy and its force to the power, so Π = T + V − W_nc stays balanced either way.
func TestSpringDamperEnergyPower(t *testing.T) {
	act := law.Const{Value: 2}
	spring := law.Polynomial{Coef: []float64{0, 1, 0, 1}}
	pot := law.NewSpringDamper(0.3, spring, nil, 0, 5, act)
	non := law.NewSpringDamper(0.3, hidden{spring}, nil, 0, 5, act)
	if !pot.HasPotential() || non.HasPotential() {
		t.Fatalf("HasPotential: polynomial %v, hidden %v; want true, false", pot.HasPotential(), non.HasPotential())
	}
	const h = 1e-6
	for _, c := range []float64{-0.4, 0.3, 0.9} {
		rate := 0.7
		lp, ln := pot.Load(1, c, rate), non.Load(1, c, rate)
		if lp != ln {
			t.Fatalf("c=%g: the same law gives loads %+v and %+v", c, lp, ln)
		}
		if dV := (pot.Energy(c+h) - pot.Energy(c-h)) / (2 * h); math.Abs(dV-lp.Fs) > 1e-8*(1+math.Abs(lp.Fs)) {
			t.Errorf("c=%g: dV/dc = %.12g, want Fs = %.12g", c, dV, lp.Fs)
		}
		if e := non.Energy(c); e != 0 {
			t.Errorf("c=%g: energy without Potential = %g, want 0", c, e)
		}
		if P, want := pot.Power(&lp), -(lp.Fd+lp.Fa)*rate; P != want {
			t.Errorf("c=%g: power with Potential %g, want %g", c, P, want)
		}
		if P, want := non.Power(&ln), -(ln.Fd+ln.Fa+ln.Fs)*rate; P != want {
			t.Errorf("c=%g: power without Potential %g, want %g", c, P, want)
		}
	}
}

// TestSpringDamperConservative: only a spring with Potential, an undamped linear damper and
// no actuator make Power zero at every state; each of damping, a nonlinear damper, an
// actuator or a spring without Potential makes the element non-conservative, and then its
// Power is nonzero somewhere.
func TestSpringDamperConservative(t *testing.T) {
	cases := []struct {
		name string
		sd   law.SpringDamper
		want bool
	}{
		{"linear spring", law.NewSpringDamper(0.2, nil, nil, 30, 0, nil), true},
		{"polynomial spring", law.NewSpringDamper(0.2, law.SeedSpring(), nil, 0, 0, nil), true},
		{"damped", law.NewSpringDamper(0.2, nil, nil, 30, 0.1, nil), false},
		{"nonlinear damper", law.NewSpringDamper(0.2, nil, law.Polynomial{Coef: []float64{0, 0, 1}}, 30, 0, nil), false},
		{"actuated", law.NewSpringDamper(0.2, nil, nil, 30, 0, law.Const{Value: 1}), false},
		{"spring without Potential", law.NewSpringDamper(0.2, hidden{law.Linear{K: 30}}, nil, 0, 0, nil), false},
	}
	for _, c := range cases {
		if got := c.sd.Conservative(); got != c.want {
			t.Errorf("%s: Conservative = %v, want %v", c.name, got, c.want)
		}
		var worst float64
		for _, x := range []float64{-0.3, 0.1, 0.5} {
			for _, rate := range []float64{-2, 0.4, 3} {
				l := c.sd.Load(0.7, x, rate)
				worst = math.Max(worst, math.Abs(c.sd.Power(&l)))
			}
		}
		if (worst == 0) != c.want {
			t.Errorf("%s: largest |Power| %g over the states, want zero exactly when conservative", c.name, worst)
		}
	}
}

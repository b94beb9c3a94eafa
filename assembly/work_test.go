package assembly_test

import (
	"strings"
	"testing"

	"linkage/assembly"
	"linkage/integrate"
	"linkage/law"
)

// liar claims Conservative but has a damper's power −v².
type liar struct{}

func (liar) Conservative() bool                                     { return true }
func (liar) NonConservativePower(t float64, q, v []float64) float64 { return -v[0] * v[0] }
func (liar) DrivingPower(t float64, q, lambda []float64) float64    { return 0 }

// oneStep is the dense output of a step from rest at t = 0 to t = 0.1.
type oneStep struct{ prev integrate.State }

func (o *oneStep) Previous() *integrate.State                  { return &o.prev }
func (o *oneStep) Interpolate(dst *integrate.State, t float64) { panic("no interpolation expected") }

// TestWorkMeterConservativeGuard: a source whose Conservative disagrees with its power is a
// bug the meter reports (a panic naming the type and the power) rather than dropping work.
func TestWorkMeterConservativeGuard(t *testing.T) {
	out := &oneStep{prev: integrate.NewState(1, 0)}
	wm := assembly.NewWorkMeter(liar{}, 0, nil, out, 0)
	cur := integrate.NewState(1, 0)
	cur.T, cur.V[0] = 0.1, 2
	defer func() {
		r := recover()
		msg, _ := r.(string)
		if !strings.Contains(msg, "assembly_test.liar reports Conservative") || !strings.Contains(msg, "NonConservative:-4") {
			t.Errorf("Observe with power −4 on a Conservative source: panic %v", r)
		}
	}()
	wm.Observe(&cur)
}

// noPotential is a spring law without a closed-form integral: its work is P_nc.
type noPotential struct{}

func (noPotential) Eval(x float64) (f, df float64) { return x * x * x, 3 * x * x }

// TestSpringDamperConservative: a spring-damper is Conservative exactly when its Power is
// zero at every state: a spring with a Potential, no damping, no actuator.
func TestSpringDamperConservative(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spring law.Force
		k, d   float64
		act    law.Func
		want   bool
	}{
		{"linear spring", nil, 2, 0, nil, true},
		{"polynomial spring", law.Polynomial{Coef: []float64{0, 1, 0, 3}}, 0, 0, nil, true},
		{"damped", nil, 2, 0.1, nil, false},
		{"actuated", nil, 2, 0, law.Const{Value: 1}, false},
		{"spring without a potential", noPotential{}, 0, 0, nil, false},
	} {
		sd := assembly.NewSpringDamper(0, struct{}{}, 0.1, tc.spring, nil, tc.k, tc.d, tc.act)
		if got := sd.Conservative(); got != tc.want {
			t.Errorf("%s: Conservative %v, want %v", tc.name, got, tc.want)
		}
		l := sd.Load(0.3, 0.7, -1.3) // a state with the spring deflected and moving
		if p := sd.Power(&l); tc.want && p != 0 || !tc.want && p == 0 {
			t.Errorf("%s: Power %g at a moving state, Conservative %v", tc.name, p, tc.want)
		}
	}
}

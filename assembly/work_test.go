package assembly_test

import (
	"strings"
	"testing"

	"linkage/assembly"
	"linkage/integrate"
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

package planar_test

import (
	"math"
	"testing"

	"linkage/assembly"
	"linkage/integrate"
	"linkage/law"
	"linkage/planar"
)

// TestWorkMeterTorque: a wheel pinned at its centre, spun up from ω0 by a constant torque
// τ, turns by θ − θ0 = ω0 t + ½ (τ/J) t², so the torque's work is W_nc = τ (θ − θ0). The
// power τ ω is linear in t, which Simpson's rule integrates exactly, and dopri5 is exact
// on the quadratic θ: W_nc agrees to rounding (1e-12 relative) at every sample time,
// including t = 0 (zero work) and times inside steps, asked for before Observe has seen the
// step; At after Observe and Total agree with the last sample, and the pin (scleronomic) does no driving work.
func TestWorkMeterTorque(t *testing.T) {
	const J, tau, omega0, tEnd = 0.2, 1.5, 2.0, 1.0
	m := planar.NewModel()
	wheel := m.AddBody(planar.Body{Name: "wheel", Mass: 1, Inertia: J, AngVel: omega0})
	m.AddRevolute("pin", m.AddMarker(planar.Marker{Body: planar.Ground}), m.AddMarker(planar.Marker{Body: wheel}))
	m.AddTorque("motor", wheel, law.Const{Value: tau})
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	s0, _ := start(t, sys)
	_, nc := sys.Size()
	times := []float64{0, 0.123, 0.5, 0.77, tEnd}
	meth := dopri5(t)
	wm := assembly.NewWorkMeter(sys, nc, nil, meth, s0.T)
	var samples []assembly.Work // W at the output times, asked for before Observe sees the step
	sample := func(s *integrate.State) error {
		samples = append(samples, wm.At(s.T))
		return nil
	}
	_, err = integrate.Solve(meth, "dopri5", sys, s0, tEnd, integrate.SolveOptions{
		Control: integrate.StepControl{RTol: 1e-6, ATol: 1e-6}, Output: times, Sample: sample, Observer: wm.Observe})
	if err != nil {
		t.Fatal(err)
	}
	want := func(t float64) float64 { return tau * (omega0*t + 0.5*tau/J*t*t) }
	if len(samples) != len(times) {
		t.Fatalf("%d samples, want %d", len(samples), len(times))
	}
	for k, w := range samples {
		if d := math.Abs(w.NonConservative - want(times[k])); d > 1e-12*want(tEnd) || w.Driving != 0 {
			t.Errorf("t = %g: W = %+v, want W_nc = %.15g, W_driving = 0", times[k], w, want(times[k]))
		}
	}
	last := samples[len(samples)-1]
	if tot, at := wm.Total(), wm.At(tEnd); math.Abs(tot.NonConservative-last.NonConservative) > 1e-12*last.NonConservative ||
		math.Abs(at.NonConservative-tot.NonConservative) > 1e-12*tot.NonConservative {
		t.Errorf("Total %+v, At(t_end) after Observe %+v, last sample %+v: want the same", tot, at, last)
	}
}

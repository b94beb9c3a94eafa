package modelfile

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestJointRollingDisk: examples/rolling-disk.yaml on the joint route (the disk on a free
// joint whose Cardan axes are heading, tilt and spin; the rolling disk a holonomic row and
// two Pfaffian rows of package joint) follows the body route's motion (centre, Euler
// parameters, rates, the contact row's λ roll.lambda, energies) to 1e-6 of each channel's size over the file's 6.3 s, a
// turn of precession, both run by dopri5 at tol 1e-10, and to 2e-6 by radau5 (index2,
// whose Newton matrix takes ∂(Aᵀμ)/∂q) at tol 1e-8 (measured 4.7e-7), its λ, which
// converges more slowly, to 6e-6 (measured 1.9e-6; 5.6e-7 at tol 1e-9) and its
// accelerations apart; and keeps the steady
// motion's centre height r cos θ to 1e-7 m.
func TestJointRollingDisk(t *testing.T) {
	data, err := os.ReadFile("../examples/rolling-disk.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(data), "outputs: [disk, roll.lambda, energy, residual]", "outputs: [disk, roll, energy]", 1)
	if src == string(data) {
		t.Fatal("rolling-disk.yaml: outputs not found")
	}
	bb, bj := buildBoth(t, "rolling-disk.yaml", src)
	if got := strings.Join(bj.Joint3.Free, " "); got != "disk" {
		t.Errorf("floating bodies %q, want disk", got)
	}
	opt := RunOptions{Method: "dopri5", Tol: 1e-10}
	rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
	if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 15 || rb.Samples < 300 {
		t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
	}
	t.Logf("largest gap %.2e; steps %d (body) and %d (joint)", compareChannels(t, rb, rj, 1e-6), rb.Solution.Stats.Steps, rj.Solution.Stats.Steps)
	var dz float64
	for _, z := range rj.Channel("disk.z") {
		dz = math.Max(dz, math.Abs(z-0.3*math.Cos(0.3)))
	}
	if !(dz <= 1e-7) {
		t.Errorf("joint route: centre height off r cos θ by %.2g m, want ≤ 1e-7", dz)
	}
	opt = RunOptions{Method: "radau5", Formulation: "index2", Tol: 1e-8}
	rb, rj = runExample(t, bb, opt), runExample(t, bj, opt)
	dropAccelerations(rb, rj) // radau5's converge more slowly (1.8e-5), as its λ does:
	k := slices.Index(rb.Channels, "roll.lambda")
	if gap := channelGap(rb.Data[k], rj.Data[k], false); !(gap <= 6e-6) {
		t.Errorf("radau5: roll.lambda differs by %.2e of its size, want ≤ 6e-6", gap)
	}
	rb.Data[k], rj.Data[k] = nil, nil
	t.Logf("radau5: largest gap %.2e", compareChannels(t, rb, rj, 2e-6))
}

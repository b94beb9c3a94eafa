package dae_test

import (
	"strings"
	"testing"

	"linkage/dae"
)

// invSys is linkSys with the powers of the energy invariant: P_nc = 1.5 and
// P_driving = Σ (r+1) λ_r, so that a test can see which λ reaches it.
type invSys struct{ *linkSys }

func (s invSys) NonConservativePower(t float64, q, v []float64) float64 { return 1.5 }

func (s invSys) DrivingPower(t float64, q, lambda []float64) float64 {
	var p float64
	for r, l := range lambda {
		p += float64(r+1) * l
	}
	return p
}

// energyOnly hides linkSys's other capabilities except Energy; plain hides Energy too.
type (
	energyOnly struct{ dae.System }
	plainSys   struct{ dae.System }
)

func (e energyOnly) Energy(t float64, q, v []float64) (float64, float64) { return 0, 0 }

// TestRequireEnergyInvariant: a method that needs the energy invariant gets the system's
// capability, or an error naming the method and what the system lacks; Reduce keeps the
// capability and hands DrivingPower the full λ (zeros on the dropped rows).
func TestRequireEnergyInvariant(t *testing.T) {
	sys, c := reducedPoint(t)
	if _, err := dae.RequireEnergyInvariant("ali3", invSys{sys}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sys       dae.System
		want, not string
	}{
		{sys, "lacks NonConservativePower and DrivingPower", "Energy (T, V)"},
		{energyOnly{sys}, "lacks NonConservativePower and DrivingPower", "Energy (T, V)"},
		{plainSys{sys}, "lacks Energy (T, V), NonConservativePower and DrivingPower", "\x00"},
	} {
		_, err := dae.RequireEnergyInvariant("ali3", tc.sys)
		if err == nil || !strings.HasPrefix(err.Error(), "ali3: ") || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tc.not) {
			t.Errorf("%T: error %v; want one starting with \"ali3: \" and containing %q", tc.sys, err, tc.want)
		}
	}
	_, nc := sys.Size()
	keep := []int{0, 2}
	if nc < 3 {
		t.Fatalf("nc = %d", nc)
	}
	red := dae.Reduce(invSys{sys}, keep)
	inv, err := dae.RequireEnergyInvariant("ali3", red)
	if err != nil {
		t.Fatal(err)
	}
	// λ = (1, 10) on rows 0 and 2: P_driving = 1·1 + 3·10.
	if got := inv.DrivingPower(0, c.Q, []float64{1, 10}); got != 31 {
		t.Errorf("reduced DrivingPower = %g, want 31", got)
	}
	if got := inv.NonConservativePower(0, c.Q, c.V); got != 1.5 {
		t.Errorf("reduced NonConservativePower = %g, want 1.5", got)
	}
	if _, err := dae.RequireEnergyInvariant("ali3", dae.Reduce(sys, keep)); err == nil {
		t.Error("a reduced system without the capability passed")
	}
}

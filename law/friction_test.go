package law

import (
	"math"
	"strings"
	"testing"
)

// TestFrictionDerivatives: ∂F/∂s and ∂F/∂(N²) against central differences (relative gap
// ≤ 1e-6, the project's derivative-check tolerance), in the bend of tanh, far out on it,
// and with N near zero where N_ε smooths |N|.
func TestFrictionDerivatives(t *testing.T) {
	f := Friction{Mu: 0.3, VReg: 1e-2, Radius: 0.05, Viscous: 0.2, NormalEps: 1e-3}
	for _, c := range []struct{ s, n2 float64 }{{0.1, 4}, {-0.15, 100}, {30, 2}, {0.05, 1e-8}} {
		F, dFds, dFdn2 := f.Eval(c.s, c.n2)
		hs, hn := 1e-6*math.Max(1, math.Abs(c.s)), 1e-6*math.Max(1e-6, c.n2)
		fp, _, _ := f.Eval(c.s+hs, c.n2)
		fm, _, _ := f.Eval(c.s-hs, c.n2)
		gp, _, _ := f.Eval(c.s, c.n2+hn)
		gm, _, _ := f.Eval(c.s, c.n2-hn)
		for _, d := range []struct {
			name    string
			got, fd float64
		}{{"dF/ds", dFds, (fp - fm) / (2 * hs)}, {"dF/dN2", dFdn2, (gp - gm) / (2 * hn)}} {
			if math.Abs(d.got-d.fd) > 1e-6*math.Max(math.Abs(d.fd), 1e-12) {
				t.Errorf("s=%g N²=%g: %s = %.10g, central difference %.10g", c.s, c.n2, d.name, d.got, d.fd)
			}
		}
		// Far out on tanh the law is Coulomb plus viscous: −(μ R N sign(s) + c s).
		if c.s == 30 {
			want := -(f.Mu*f.Radius*math.Sqrt(c.n2+1e-6) + f.Viscous*c.s)
			if math.Abs(F-want) > 1e-12*math.Abs(want) {
				t.Errorf("F(30, 2) = %.15g, want %.15g", F, want)
			}
		}
	}
}

// TestFrictionCheck names the first bad parameter.
func TestFrictionCheck(t *testing.T) {
	for _, c := range []struct {
		f    Friction
		want string
	}{
		{Friction{Mu: -1, VReg: 1, Radius: 1}, "mu = -1"},
		{Friction{Mu: 1, VReg: 0, Radius: 1}, "v_reg = 0"},
		{Friction{Mu: 1, VReg: 1, Radius: math.NaN()}, "radius = NaN"},
		{Friction{Mu: 1, VReg: 1, Radius: 1, Viscous: -2}, "viscous = -2"},
		{Friction{Mu: 1, VReg: 1, Radius: 1, NormalEps: math.Inf(1)}, "normal_eps = +Inf"},
	} {
		if err := c.f.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want it to contain %q", c.f, err, c.want)
		}
	}
	if err := (Friction{Mu: 0.2, VReg: 1e-3, Radius: 1}).Check(); err != nil {
		t.Errorf("valid friction: %v", err)
	}
}

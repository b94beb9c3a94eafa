package law_test

import (
	"math"
	"testing"

	"linkage/law"
)

// derivGap compares f' and f″ of fn with central differences of f and f' at t.
func derivGap(fn law.Func, t float64) (g1, g2 float64) {
	const h = 1e-5
	fp, dp, _ := fn.Eval(t + h)
	fm, dm, _ := fn.Eval(t - h)
	_, d, dd := fn.Eval(t)
	return math.Abs(d - (fp-fm)/(2*h)), math.Abs(dd - (dp-dm)/(2*h))
}

// TestFuncDerivatives: every Func's f' and f″ agree with central differences (error
// O(h²·f‴) ≈ 1e-10 × the scale of these functions, bounded at 1e-7).
func TestFuncDerivatives(t *testing.T) {
	table, err := law.NewTable([]float64{0, 0.5, 1, 2, 2.5}, []float64{0, 1, 0.5, 2, -1})
	if err != nil {
		t.Fatal(err)
	}
	fns := map[string]law.Func{
		"const":      law.Const{Value: 3},
		"poly":       law.Poly{Coef: []float64{1, -2, 0.5, 0.25}},
		"sine":       law.Sine{Amplitude: 2, Omega: 3, Phase: 0.4, Offset: 1},
		"ramp":       law.Ramp{T0: 0.2, T1: 1.4, From: 1, To: 3},
		"smoothstep": law.Smoothstep{T0: 0.2, T1: 1.4, From: 1, To: 3},
		"table":      table,
	}
	for name, fn := range fns {
		for _, t0 := range []float64{-0.3, 0.1, 0.33, 0.77, 1.2, 1.9, 2.2, 3} {
			if g1, g2 := derivGap(fn, t0); g1 > 1e-7 || g2 > 1e-7 {
				t.Errorf("%s at t=%g: derivative gaps %.2g, %.2g, want <= 1e-7", name, t0, g1, g2)
			}
		}
	}
	// The spline interpolates its points and is C2 at the knots (natural spline).
	for k, tk := range []float64{0, 0.5, 1, 2, 2.5} {
		f, _, _ := table.Eval(tk)
		want := []float64{0, 1, 0.5, 2, -1}[k]
		if math.Abs(f-want) > 1e-14 {
			t.Errorf("table(%g) = %.17g, want %g", tk, f, want)
		}
	}
	_, d1, dd1 := table.Eval(1 - 1e-12)
	_, d2, dd2 := table.Eval(1 + 1e-12)
	if math.Abs(d1-d2) > 1e-9 || math.Abs(dd1-dd2) > 1e-9 {
		t.Errorf("table not C2 at t=1: f' %g vs %g, f″ %g vs %g", d1, d2, dd1, dd2)
	}
	s, _, _ := law.Smoothstep{T0: 0, T1: 2, From: 1, To: 3}.Eval(1)
	if s != 2 {
		t.Errorf("smoothstep midpoint = %g, want 2", s)
	}
}

// TestSeedLaws: seed 001's damper (eq. 16) at values computed by hand from the printed
// coefficients, its continuity at the breaks to the printed digits, and the Integral of
// each law against the midpoint rule.
func TestSeedLaws(t *testing.T) {
	d := law.SeedDamper()
	cases := []struct{ v, want float64 }{
		{-0.5, -416.42 + 1844.3*-0.5},
		{0.1, 9945.627*0.1 + 33955.72*0.01 - 59832.25*0.001 - 395651.0*0.0001},
		{0.5, 1919.1638 + 1634.727*0.5},
	}
	for _, c := range cases {
		if f, _ := d.Eval(c.v); math.Abs(f-c.want) > 1e-9*math.Abs(c.want) {
			t.Errorf("seed 001 eq. 16 at v=%g: %.10g, want %.10g", c.v, f, c.want)
		}
	}
	// At the breaks the pieces agree to 0.02 N (the coefficients' printed precision).
	for _, v := range []float64{-0.2, 0.21} {
		lo, _ := d.Eval(v - 1e-12)
		hi, _ := d.Eval(v + 1e-12)
		if math.Abs(lo-hi) > 0.02 {
			t.Errorf("seed 001 eq. 16 jumps by %g N at v=%g", hi-lo, v)
		}
	}
	if f, _ := law.SeedSpring().Eval(0.3); math.Abs(f-(-4.0092e6+2.8397e7*0.3-6.7061e7*0.09+5.2796e7*0.027)) > 1e-6 {
		t.Errorf("seed 001 eq. 15 at x=0.3 = %g", f)
	}
	pl, err := law.NewPiecewiseLinear([]float64{-1, 0, 2}, []float64{-3, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	laws := map[string]interface {
		law.Force
		law.Potential
	}{"damper": d, "spring": law.SeedSpring(), "linear": law.Linear{K: 3}, "piecewise-linear": pl}
	for name, law := range laws {
		for _, x := range []float64{-0.7, -0.1, 0.15, 0.4, 2.5} {
			// Midpoint rule with 20000 panels: error ≤ (b−a)h²/24·max|F″| ≈ 1e-9 relative here,
			// plus the kinks of piecewise laws (one panel each, O(h²·ΔF′)).
			const n = 20000
			var s float64
			for k := range n {
				y, _ := law.Eval(x * (float64(k) + 0.5) / n)
				s += y * x / n
			}
			if got := law.Integral(x); math.Abs(got-s) > 1e-7*math.Max(1, math.Abs(s)) {
				t.Errorf("%s: ∫₀^%g = %.10g, midpoint rule %.10g", name, x, got, s)
			}
		}
	}
	if f, df := pl.Eval(3); f != 1.5 || df != 0.5 {
		t.Errorf("piecewise linear beyond the last point: (%g, %g), want (1.5, 0.5)", f, df)
	}
}

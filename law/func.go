package law

import (
	"fmt"
	"math"
	"sort"
)

// Func is a function of time with its first and second derivatives, used by motions
// (rheonomic drivers, whose g_t and g_tt need f' and f″), actuators and applied loads.
// Eval must not allocate and must be safe for concurrent use.
type Func interface {
	Eval(t float64) (f, df, ddf float64)
}

// Const is the constant function f(t) = Value.
type Const struct{ Value float64 }

// Eval returns (Value, 0, 0).
func (c Const) Eval(float64) (f, df, ddf float64) { return c.Value, 0, 0 }

// Poly is the polynomial f(t) = Σ_k Coef[k]·t^k (Coef[0] is the constant term).
type Poly struct{ Coef []float64 }

// Eval returns f, f', f″ by Horner's scheme.
func (p Poly) Eval(t float64) (f, df, ddf float64) {
	for k := len(p.Coef) - 1; k >= 0; k-- {
		ddf = ddf*t + 2*df
		df = df*t + f
		f = f*t + p.Coef[k]
	}
	return f, df, ddf
}

// Sine is f(t) = Amplitude·sin(Omega·t + Phase) + Offset.
type Sine struct{ Amplitude, Omega, Phase, Offset float64 }

// Eval returns f, f', f″.
func (s Sine) Eval(t float64) (f, df, ddf float64) {
	sn, cs := math.Sincos(s.Omega*t + s.Phase)
	return s.Amplitude*sn + s.Offset, s.Amplitude * s.Omega * cs, -s.Amplitude * s.Omega * s.Omega * sn
}

// Ramp goes linearly from From at T0 to To at T1 and is constant outside [T0, T1]. Its
// derivative jumps at T0 and T1 (f″ is 0 everywhere it exists); use Smoothstep where a
// motion must have a continuous acceleration.
type Ramp struct{ T0, T1, From, To float64 }

// Eval returns f, f', f″ (f' is the slope inside [T0, T1), 0 outside).
func (r Ramp) Eval(t float64) (f, df, ddf float64) {
	switch {
	case t <= r.T0:
		return r.From, 0, 0
	case t >= r.T1:
		return r.To, 0, 0
	}
	s := (r.To - r.From) / (r.T1 - r.T0)
	return r.From + s*(t-r.T0), s, 0
}

// Smoothstep goes from From at T0 to To at T1 along the quintic s(τ) = 10τ³ − 15τ⁴ + 6τ⁵,
// τ = (t − T0)/(T1 − T0), whose first and second derivatives vanish at both ends, so f, f'
// and f″ are continuous; constant outside [T0, T1].
type Smoothstep struct{ T0, T1, From, To float64 }

// Eval returns f, f', f″.
func (s Smoothstep) Eval(t float64) (f, df, ddf float64) {
	switch {
	case t <= s.T0:
		return s.From, 0, 0
	case t >= s.T1:
		return s.To, 0, 0
	}
	w := s.T1 - s.T0
	x := (t - s.T0) / w
	x2 := x * x
	dy := s.To - s.From
	f = s.From + dy*x2*x*(10+x*(-15+6*x))
	df = dy * 30 * x2 * (1 + x*(-2+x)) / w
	ddf = dy * 60 * x * (1 + x*(-3+2*x)) / (w * w)
	return f, df, ddf
}

// Table is the natural cubic spline through the points (T[k], F[k]) (second derivative zero
// at both ends), extended linearly beyond them with the end slopes, so f, f' and f″ are
// continuous everywhere. Build it with NewTable.
type Table struct {
	t, f, m []float64 // knots, values, second derivatives at the knots
}

// NewTable returns the natural cubic spline through (t[k], f[k]); t must be strictly
// increasing with at least two points and all values finite. The slices are copied.
func NewTable(t, f []float64) (*Table, error) {
	n := len(t)
	if n < 2 || len(f) != n {
		return nil, fmt.Errorf("law: table: %d times and %d values, want equal counts of at least 2", n, len(f))
	}
	for k := range n {
		if !finite(t[k]) || !finite(f[k]) {
			return nil, fmt.Errorf("law: table: point %d = (%g, %g) is not finite", k, t[k], f[k])
		}
		if k > 0 && !(t[k] > t[k-1]) {
			return nil, fmt.Errorf("law: table: t[%d] = %g not after t[%d] = %g; want strictly increasing times", k, t[k], k-1, t[k-1])
		}
	}
	tb := &Table{t: append([]float64(nil), t...), f: append([]float64(nil), f...), m: make([]float64, n)}
	// Tridiagonal system for the interior second derivatives (natural end conditions),
	// solved by the Thomas algorithm (de Boor, A Practical Guide to Splines, ch. IV).
	if n > 2 {
		c := make([]float64, n)
		r := make([]float64, n)
		for k := 1; k < n-1; k++ {
			h0, h1 := t[k]-t[k-1], t[k+1]-t[k]
			diag := 2 * (h0 + h1)
			rhs := 6 * ((f[k+1]-f[k])/h1 - (f[k]-f[k-1])/h0)
			if k > 1 {
				diag -= h0 * c[k-1]
				rhs -= h0 * r[k-1]
			}
			c[k] = h1 / diag
			r[k] = rhs / diag
		}
		for k := n - 2; k >= 1; k-- {
			tb.m[k] = r[k] - c[k]*tb.m[k+1]
		}
	}
	return tb, nil
}

// Eval returns the spline value and its first two derivatives at t.
func (tb *Table) Eval(t float64) (f, df, ddf float64) {
	n := len(tb.t)
	k := sort.SearchFloat64s(tb.t, t) - 1 // interval [t_k, t_k+1]
	k = max(0, min(k, n-2))
	h := tb.t[k+1] - tb.t[k]
	m0, m1 := tb.m[k], tb.m[k+1]
	slope := (tb.f[k+1]-tb.f[k])/h - h*(2*m0+m1)/6 // f' at t_k
	if t < tb.t[0] {
		return tb.f[0] + slope*(t-tb.t[0]), slope, 0
	}
	if t > tb.t[n-1] {
		end := (tb.f[n-1]-tb.f[n-2])/h + h*(m0+2*m1)/6 // f' at t_n-1
		return tb.f[n-1] + end*(t-tb.t[n-1]), end, 0
	}
	x := t - tb.t[k]
	c3 := (m1 - m0) / (6 * h)
	f = tb.f[k] + x*(slope+x*(m0/2+x*c3))
	df = slope + x*(m0+3*c3*x)
	ddf = m0 + 6*c3*x
	return f, df, ddf
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

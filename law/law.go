package law

import "fmt"

// Force is a scalar force law with its derivative: a spring force as a function of the
// deflection x, or a damper force as a function of the rate x. Eval must not allocate.
//
// A spring law should also implement Potential, so that its energy enters V; the work of a
// spring law without it is counted as non-conservative power instead, which keeps the
// energy invariant Π of seed 001 (eq. 12) correct either way.
type Force interface {
	Eval(x float64) (f, df float64)
}

// Potential is implemented by laws with a closed-form integral ∫₀ˣ F(s) ds.
type Potential interface {
	Integral(x float64) float64
}

// Linear is the law F = K·x.
type Linear struct{ K float64 }

// Eval returns (K x, K).
func (l Linear) Eval(x float64) (f, df float64) { return l.K * x, l.K }

// Integral returns K x²/2.
func (l Linear) Integral(x float64) float64 { return l.K * x * x / 2 }

// Polynomial is the law F = Σ_k Coef[k]·x^k, e.g. the polymer spring of seed 001, eq. 15.
type Polynomial struct{ Coef []float64 }

// Eval returns F and dF/dx by Horner's scheme.
func (p Polynomial) Eval(x float64) (f, df float64) {
	for k := len(p.Coef) - 1; k >= 0; k-- {
		df = df*x + f
		f = f*x + p.Coef[k]
	}
	return f, df
}

// Integral returns Σ_k Coef[k]·x^(k+1)/(k+1).
func (p Polynomial) Integral(x float64) float64 {
	var s float64
	for k := len(p.Coef) - 1; k >= 0; k-- {
		s = s*x + p.Coef[k]/float64(k+1)
	}
	return s * x
}

// Piecewise is a law made of polynomial pieces: Pieces[0] applies for x < Breaks[0],
// Pieces[k] on [Breaks[k−1], Breaks[k]), the last piece for x ≥ Breaks[len−1]. It represents
// the shock-absorber damping of seed 001, eq. 16, exactly (linear, quartic, linear; see
// SeedDamper). Build it with NewPiecewise.
type Piecewise struct {
	breaks []float64
	pieces []Polynomial
	base   []float64 // ∫₀^breaks[k] F, for Integral
}

// NewPiecewise returns the piecewise-polynomial law; breaks must be strictly increasing,
// len(pieces) = len(breaks) + 1. The law need not be continuous, but a jump in F makes the
// force derivatives undefined at the break.
func NewPiecewise(breaks []float64, pieces []Polynomial) (*Piecewise, error) {
	if len(pieces) != len(breaks)+1 {
		return nil, fmt.Errorf("law: piecewise law: %d breaks need %d pieces, got %d", len(breaks), len(breaks)+1, len(pieces))
	}
	for k, b := range breaks {
		if !finite(b) || (k > 0 && !(b > breaks[k-1])) {
			return nil, fmt.Errorf("law: piecewise law: break %d = %g; want finite, strictly increasing breaks", k, b)
		}
	}
	for k, p := range pieces {
		for i, c := range p.Coef {
			if !finite(c) {
				return nil, fmt.Errorf("law: piecewise law: piece %d coefficient %d = %g is not finite", k, i, c)
			}
		}
	}
	w := &Piecewise{breaks: append([]float64(nil), breaks...), pieces: make([]Polynomial, len(pieces))}
	for k, p := range pieces {
		w.pieces[k] = Polynomial{Coef: append([]float64(nil), p.Coef...)}
	}
	w.base = make([]float64, len(breaks))
	for k := range breaks {
		w.base[k] = w.integral(breaks[k])
	}
	return w, nil
}

// piece returns the index of the piece containing x (linear scan: laws have few breaks).
func (w *Piecewise) piece(x float64) int {
	k := 0
	for k < len(w.breaks) && x >= w.breaks[k] {
		k++
	}
	return k
}

// Eval returns F and dF/dx of the piece containing x.
func (w *Piecewise) Eval(x float64) (f, df float64) { return w.pieces[w.piece(x)].Eval(x) }

// Integral returns ∫₀ˣ F(s) ds, summed piece by piece.
func (w *Piecewise) Integral(x float64) float64 { return w.integral(x) }

// integral walks from 0 to x across the breaks between them.
func (w *Piecewise) integral(x float64) float64 {
	lo, hi, sign := 0.0, x, 1.0
	if x < 0 {
		lo, hi, sign = x, 0, -1
	}
	var s float64
	a := lo
	for a < hi {
		k := w.piece(a)
		b := hi
		if k < len(w.breaks) && w.breaks[k] < hi {
			b = w.breaks[k]
		}
		p := w.pieces[k]
		s += p.Integral(b) - p.Integral(a)
		a = b
	}
	return sign * s
}

// NewPiecewiseLinear returns the law interpolating the points (x[k], f[k]) linearly and
// extending the first and last segments beyond them; x strictly increasing, at least two
// points.
func NewPiecewiseLinear(x, f []float64) (*Piecewise, error) {
	n := len(x)
	if n < 2 || len(f) != n {
		return nil, fmt.Errorf("law: piecewise linear law: %d abscissae and %d values, want equal counts of at least 2", n, len(f))
	}
	pieces := make([]Polynomial, n-1)
	for k := range n - 1 {
		if !(x[k+1] > x[k]) {
			return nil, fmt.Errorf("law: piecewise linear law: x[%d] = %g not after x[%d] = %g", k+1, x[k+1], k, x[k])
		}
		s := (f[k+1] - f[k]) / (x[k+1] - x[k])
		pieces[k] = Polynomial{Coef: []float64{f[k] - s*x[k], s}}
	}
	// Pieces[0] also serves x < x[1], the last piece x ≥ x[n−2]: breaks at interior points.
	return NewPiecewise(x[1:n-1], pieces)
}

// SeedSpring returns the polymer spring force of seed 001 (Cardenal et al.), eq. 15, in N
// for the distance x in m:
//
//	F_S = −4.0092·10⁶ + 2.8397·10⁷ x − 6.7061·10⁷ x² + 5.2796·10⁷ x³.
func SeedSpring() Polynomial {
	return Polynomial{Coef: []float64{-4.0092e6, 2.8397e7, -6.7061e7, 5.2796e7}}
}

// SeedDamper returns the shock-absorber damping force of seed 001, eq. 16, in N for the
// rate v in m/s:
//
//	F_D = −416.42 + 1844.3 v                                        v < −0.2
//	F_D = 9945.627 v + 33955.72 v² − 59832.25 v³ − 395651.0 v⁴      −0.2 ≤ v < 0.21
//	F_D = 1919.1638 + 1634.727 v                                    v ≥ 0.21
//
// The middle piece is a quartic, so the law is piecewise polynomial, not piecewise linear;
// the pieces agree at the breaks to about 0.01 N (continuous to the printed digits), but
// dF/dv jumps there.
func SeedDamper() *Piecewise {
	w, err := NewPiecewise([]float64{-0.2, 0.21}, []Polynomial{
		{Coef: []float64{-416.42, 1844.3}},
		{Coef: []float64{0, 9945.627, 33955.72, -59832.25, -395651.0}},
		{Coef: []float64{1919.1638, 1634.727}},
	})
	if err != nil {
		panic(err) // constant data
	}
	return w
}

package integrate

import (
	"math"
	"testing"
)

// noisyQuadratic is φ(y) = y + (w·(y − y₀))² u/(2S) + η ρ(y): identity Jacobian at y₀,
// curvature ‖φ”(w, w)‖ = 1/S along the unit vector w, and a deterministic pseudo-random
// noise ρ_i ∈ [−1, 1] of amplitude η, a hash of y_i's bits (independent between points as
// rounding is). Its products are the differences of perturb with the increment d sets.
type noisyQuadratic struct {
	y0, w, u, yp, f0 []float64
	scale, eta       float64
	d                *diffNoise
}

func newNoisyQuadratic(n int, eta float64) *noisyQuadratic {
	p := &noisyQuadratic{eta: eta, d: &diffNoise{}}
	for i := range n {
		p.y0 = append(p.y0, 1+float64(i%7)/7)
		p.w = append(p.w, roundingSign(i+3)/math.Sqrt(float64(n)))
		p.u = append(p.u, roundingSign(i+11)/math.Sqrt(float64(n)))
	}
	p.yp, p.f0 = make([]float64, n), make([]float64, n)
	p.scale = 1 + norm2(p.y0)
	p.eval(p.f0, p.y0)
	return p
}

// eval writes φ(y) into dst.
func (p *noisyQuadratic) eval(dst, y []float64) {
	var wd float64
	for i, x := range y {
		wd += p.w[i] * (x - p.y0[i])
	}
	for i, x := range y {
		h := math.Float64bits(x) ^ uint64(i)*0x9e3779b97f4a7c15 // splitmix64's finalizer
		h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
		h = (h ^ h>>27) * 0x94d049bb133111eb
		h ^= h >> 31
		rho := 2*float64(h>>11)/(1<<53) - 1
		dst[i] = x + wd*wd*p.u[i]/(2*p.scale) + p.eta*rho
	}
}

// jacVec is the difference product about y₀ (krylovSystem).
func (p *noisyQuadratic) jacVec(dst, z []float64) {
	eps := perturb(p.yp, p.y0, z, 0, p.d)
	p.eval(dst, p.yp)
	for i := range dst {
		dst[i] = (dst[i] - p.f0[i]) / eps
	}
}

func (p *noisyQuadratic) precondition([]float64) {}

// productError returns ‖J w − (φ(y₀ + σw) − φ(y₀))/σ‖ with the increment σ = s (‖w‖ = 1)
// forced through diffNoise's measuring mode, or the rule's when s = 0.
func (p *noisyQuadratic) productError(s float64) float64 {
	dst := make([]float64, len(p.w))
	if s > 0 {
		p.d.tau = s / p.scale
		defer func() { p.d.tau = 0 }()
	}
	p.jacVec(dst, p.w)
	for i := range dst {
		dst[i] -= p.w[i] // J = I at y₀
	}
	return norm2(dst)
}

// TestDiffNoiseBalancesNoiseAndCurvature checks diffNoise on a function of known noise and
// curvature (noisyQuadratic, n = 60, noise amplitude η = 1e-10 against S = 1 + ‖y‖ ≈ 12,
// so the noise is 10⁵ times ε S): measure finds the noise's 2-norm η√(n/3) (uniform noise)
// to a factor 1.5; the rule's product then errs by at most 1.5 times the smallest error
// over increments from 1e-9 to 1 (the balance of s/(2S) against √2 ν/s, which the rule
// s = √(ν S) misses by a factor 1.14), and √ε S (the rule before, ν unmeasured) errs by
// more than 100 times as much.
func TestDiffNoiseBalancesNoiseAndCurvature(t *testing.T) {
	const n, eta = 60, 1e-10
	p := newNoisyQuadratic(n, eta)
	z, acc, tmp := make([]float64, n), make([]float64, n), make([]float64, n)
	p.d.measure(p, z, acc, tmp)
	want := eta * math.Sqrt(n/3.0)
	if r := p.d.level / want; !(r > 1/1.5 && r < 1.5) {
		t.Errorf("measured noise %.3g, want %.3g (η√(n/3)) to a factor 1.5", p.d.level, want)
	}
	rule := p.productError(0)
	best := math.Inf(1)
	for e := -9.0; e <= 0; e += 0.125 {
		best = math.Min(best, p.productError(math.Pow(10, e)))
	}
	old := p.productError(math.Sqrt(epsilon) * p.scale)
	t.Logf("ν %.3g; product error: rule %.3g (s = %.3g), best %.3g, √ε S %.3g", p.d.level, rule,
		math.Sqrt(p.d.level*p.scale), best, old)
	if rule > 1.5*best {
		t.Errorf("the rule's product error %.3g exceeds 1.5 × the best %.3g", rule, best)
	}
	if old < 100*rule {
		t.Errorf("√ε S errs by %.3g, want ≥ 100 × the rule's %.3g (the noise dominates it)", old, rule)
	}
}

// TestDiffNoiseKeepsRoundingRule checks that without noise above ε the increment is the
// rounding-only √ε S: a noise-free φ measures ν ≤ ε S and perturb's σ equals the nil rule's.
func TestDiffNoiseKeepsRoundingRule(t *testing.T) {
	const n = 60
	p := newNoisyQuadratic(n, 0)
	z, acc, tmp := make([]float64, n), make([]float64, n), make([]float64, n)
	p.d.measure(p, z, acc, tmp)
	if p.d.level > epsilon*p.scale {
		t.Errorf("noise-free φ measured ν = %.3g, want ≤ ε S = %.3g", p.d.level, epsilon*p.scale)
	}
	if got, want := p.d.increment(p.scale, 1), (*diffNoise)(nil).increment(p.scale, 1); got != want {
		t.Errorf("σ = %.6g, want the rounding rule's %.6g", got, want)
	}
}

// TestDiffNoiseMeasureAllocatesNothing: a measurement, which a solve of a step may run,
// allocates nothing.
func TestDiffNoiseMeasureAllocatesNothing(t *testing.T) {
	const n = 60
	p := newNoisyQuadratic(n, 1e-10)
	z, acc, tmp := make([]float64, n), make([]float64, n), make([]float64, n)
	if a := testing.AllocsPerRun(10, func() { p.d.measure(p, z, acc, tmp) }); a != 0 {
		t.Errorf("measure allocated %.0f times per run, want 0", a)
	}
}

package integrate

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bushingCircle is a 3-coordinate system with the constraint of seed 003's bushing,
// g = x² + y² − 1 (eq. 4.4d), for the CS matrix tests; its forces are not used.
type bushingCircle struct{ *pendulum }

func (bushingCircle) Size() (nq, nc int) { return 3, 1 }

// TestCoordSplitAnnihilates: for the LU and the QR form, Π(q) Gᵀ = 0 (P(q) Gᵀ = 0,
// Definition 3.1) to rounding, Π is a projector (Π Π r = Π r), the LU form zeroes the Y
// rows exactly, and P r = 0 only for r in range(Gᵀ). On the bushing's circle the LU form
// pivots on x where |x| > |y| and gives the seed's P = (−y/x, 1, 0; 0, 0, 1) (printed
// after eq. 4.4 with its columns in another order): P r = (r_y − (y/x) r_x, r_θ).
func TestCoordSplitAnnihilates(t *testing.T) {
	ch := newChain(4, 1, 1, 9.81)
	st := chainStart(ch, []float64{0.3, -0.7, 1.2, 2.5})
	nq, nc := ch.Size()
	G := mat.NewDense(nc, nq, nil)
	ch.ConstraintJacobian(G, 0, st.Q)
	for _, qr := range []bool{false, true} {
		c, err := newCoordSplit(ch, qr)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.factorDense(G); err != nil {
			t.Fatal(err)
		}
		r := make([]float64, nq)
		for k := range nc {
			copy(r, G.RawRowView(k))
			c.project(r)
			if n := maxAbs(r); n > 1e-14 {
				t.Errorf("qr=%v: |Π Gᵀ e_%d| = %.2g, want 0 to rounding", qr, k, n)
			}
		}
		rand := make([]float64, nq)
		for i := range rand {
			rand[i] = math.Sin(float64(3*i + 1))
		}
		copy(r, rand)
		c.project(r)
		pr := append([]float64(nil), r...)
		c.project(pr)
		for i := range r {
			if math.Abs(pr[i]-r[i]) > 1e-14 {
				t.Errorf("qr=%v: Π Π r differs from Π r at %d: %.3g vs %.3g", qr, i, pr[i], r[i])
			}
		}
		if !qr {
			for _, y := range c.lu.Cols() {
				if r[y] != 0 {
					t.Errorf("LU: Y row %d of Π r = %g, want exactly 0", y, r[y])
				}
			}
		}
		p := make([]float64, nq-nc)
		copy(r, rand)
		c.apply(p, r)
		if maxAbs(p) < 1e-3 {
			t.Errorf("qr=%v: P r = %v for r outside range(Gᵀ), want a nonzero vector", qr, p)
		}
	}

	sys := bushingCircle{newPendulum(1, 1, 0)}
	c, err := newCoordSplit(sys, false)
	if err != nil {
		t.Fatal(err)
	}
	x, y := 0.8, 0.6
	Gb := mat.NewDense(1, 3, []float64{2 * x, 2 * y, 0})
	if err := c.factorDense(Gb); err != nil {
		t.Fatal(err)
	}
	if ys := c.lu.Cols(); len(ys) != 1 || ys[0] != 0 {
		t.Fatalf("LU of Gᵀ at (x, y) = (%g, %g) pivots on %v, want x (coordinate 0)", x, y, ys)
	}
	r := []float64{0.3, -1.1, 2.0}
	want := []float64{r[1] - y/x*r[0], r[2]}
	p := make([]float64, 2)
	c.apply(p, append([]float64(nil), r...))
	for i := range p {
		if math.Abs(p[i]-want[i]) > 1e-15 {
			t.Errorf("P r = %v, want the seed's (r_y − (y/x) r_x, r_θ) = %v", p, want)
			break
		}
	}
}

// TestDAEAlphaFormsAgree: the index-2 form (eq. 3.3) and the coordinate-split forms (eq.
// 3.6, P by LU and by QR) are the same discrete equations, so with the Newton error held
// at 1e-11 their fixed-step solutions on the 3-link chain agree to 1e-9 in q, v and λ
// over 200 steps of h = 2.5e-3 (measured: 3e-14 in q, 3e-13 in v, 2.4e-12 in λ).
func TestDAEAlphaFormsAgree(t *testing.T) {
	ch := newChain(3, 1, 1, 9.81)
	start := chainStart(ch, nil)
	ctl := StepControl{FixedH: 2.5e-3, RTol: 1e-11, ATol: 1e-11}
	var ref *DAEAlpha
	for _, f := range []Formulation{Index2, CoordinateSplit, CoordinateSplitQR} {
		m := &DAEAlpha{RhoInf: 0.6, Formulation: f}
		if err := m.Init(ch, start.Clone(), ctl); err != nil {
			t.Fatal(err)
		}
		for range 200 {
			if err := m.Step(10); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		if ref == nil {
			ref = m
			continue
		}
		a, b := ref.Current(), m.Current()
		for _, d := range []struct {
			name string
			x, y []float64
		}{{"q", a.Q, b.Q}, {"v", a.V, b.V}, {"λ", a.Lambda, b.Lambda}} {
			var gap float64
			for i := range d.x {
				gap = math.Max(gap, math.Abs(d.x[i]-d.y[i]))
			}
			if gap > 1e-9 {
				t.Errorf("%s vs index2 at t=%g: max |Δ%s| = %.2g, want ≤ 1e-9", f, b.T, d.name, gap)
			}
		}
	}
}

// cmRates runs the corrector of one step of size h from the accepted state of m with a
// fresh matrix at every iterate, as the Newton loop does under JacobianEveryIteration,
// and returns the increment norms.
func cmRates(t *testing.T, m *DAEAlpha, h float64, iters int) []float64 {
	t.Helper()
	w := m.w
	if err := w.predict(h, true); err != nil {
		t.Fatal(err)
	}
	var norms []float64
	for range iters {
		if err := w.residual(); err != nil {
			t.Fatal(err)
		}
		if err := w.factor(); err != nil {
			t.Fatal(err)
		}
		norms = append(norms, w.increment())
	}
	return norms
}

// TestDAEAlphaCMRate: the CM iteration converges linearly, at the rate of the term it
// drops from the Jacobian, d(P(q) r)/dq = P ∂(Gᵀν)/∂q with ν ≈ β̂h²λ (seed 003, after
// Remark 3.2): on the pendulum ∂(Gᵀν)/∂q = ν I against M = m I, so from the second
// iteration on θ = β̂h²|λ|/m, and halving h divides θ by 4. Newton's method on the
// index-2 form, which keeps the term, converges quadratically from the same start.
// Measured on the pendulum at 60° (|λ| = 14.7, β̂ = 0.25 for ρ = 1): CM rates 4.97e-4,
// 5.02e-4 at h = 0.02 and 1.23e-4, 1.22e-4 at h = 0.01, against β̂h²|λ|/m = 4.95e-4 and 1.23e-4;
// index2's second rate 1.5e-9.
func TestDAEAlphaCMRate(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, math.Pi/3, 0)
	var theta [2]float64
	for k, h := range []float64{0.02, 0.01} {
		for _, f := range []Formulation{CoordinateSplit, Index2} {
			m := &DAEAlpha{RhoInf: 1, Formulation: f}
			if err := m.Init(p, start.Clone(), StepControl{FixedH: h, RTol: 1e-6}); err != nil {
				t.Fatal(err)
			}
			if err := m.Step(1); err != nil { // resolves the step control
				t.Fatal(err)
			}
			norms := cmRates(t, m, h, 4)
			r2, r3 := norms[2]/norms[1], norms[3]/norms[2]
			pred := m.w.betaHat * h * h * math.Abs(m.w.cur.Lambda[0]) / p.m
			t.Logf("%s h=%g: norms %.3g, rates %.3g %.3g, β̂h²|λ|/m = %.3g", f, h, norms, r2, r3, pred)
			if f == CoordinateSplit {
				// Linear at the predicted rate, to 10% (λ changes over the step).
				if !(math.Abs(r3/r2-1) < 0.1 && math.Abs(r3/pred-1) < 0.1) {
					t.Errorf("CM h=%g: rates %.3g, %.3g; want both β̂h²|λ|/m = %.3g ± 10%%", h, r2, r3, pred)
				}
				theta[k] = r3
			} else if !(norms[2]/norms[1] < 0.01*pred) {
				t.Errorf("index2 h=%g: second rate %.3g, want quadratic convergence (far below CM's %.3g)", h, r2, pred)
			}
		}
	}
	if q := theta[0] / theta[1]; !(q > 3.6 && q < 4.4) {
		t.Errorf("CM rate ratio θ(h)/θ(h/2) = %.3g, want 4 ± 10%% (θ ∝ h²)", q)
	}
}

// TestDAEAlphaRefusals: bad options are refused by Init with the field and the value
// named: ρ outside [0, 1], a formulation the method does not have, and a start off the
// constraint manifold.
func TestDAEAlphaRefusals(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 0.5, 0)
	for _, c := range []struct {
		m    DAEAlpha
		s    State
		want string
	}{
		{DAEAlpha{RhoInf: 1.5, Formulation: Index2}, start, "RhoInf = 1.5 outside [0, 1]"},
		{DAEAlpha{RhoInf: math.NaN(), Formulation: Index2}, start, "RhoInf = NaN"},
		{DAEAlpha{RhoInf: 0.5, Formulation: Index3}, start, `Formulation "index3" not supported`},
		{DAEAlpha{RhoInf: 0.5, Formulation: CoordinateSplit}, func() State {
			s := start.Clone()
			s.Q[0] += 0.1
			return s
		}(), "inconsistent start: position constraint 0 (rod)"},
	} {
		err := c.m.Init(p, c.s, StepControl{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: Init error %v, want one containing %q", c.m, err, c.want)
		}
	}
}

package reproduce

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
	"linkage/linalg"
)

// Ex9Linear is the system of seed 002, Example 9: M = I, f = 0 and the time-dependent
// linear constraint 0 = g(t,q) = C q − z(t), here with q ∈ ℝ², C = (1 2) and
// z(t) = sin t. Differentiating the constraint twice and inserting q” = −Cᵀλ gives the
// exact multiplier λ(t) = −(C Cᵀ)⁻¹ z̈(t) = sin(t)/5, whatever q and v are.
type Ex9Linear struct{}

var _ dae.System = Ex9Linear{}

var ex9C = [2]float64{1, 2}

const ex9CCt = 5 // C Cᵀ

func (Ex9Linear) Size() (nq, nc int) { return 2, 1 }
func (Ex9Linear) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, 1)
	dst.Set(0, 1, 0)
	dst.Set(1, 0, 0)
	dst.Set(1, 1, 1)
}
func (Ex9Linear) Force(dst []float64, t float64, q, v []float64) { clear(dst) }
func (Ex9Linear) Constraint(dst []float64, t float64, q []float64) {
	dst[0] = ex9C[0]*q[0] + ex9C[1]*q[1] - math.Sin(t)
}
func (Ex9Linear) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, ex9C[0])
	dst.Set(0, 1, ex9C[1])
}
func (Ex9Linear) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	dst[0] = -math.Cos(t)
}

// Gamma is γ of C a = γ: γ = z̈ = −sin t.
func (Ex9Linear) Gamma(dst []float64, t float64, q, v []float64) { dst[0] = -math.Sin(t) }

// Lambda returns the exact multiplier λ(t) = −z̈(t)/(C Cᵀ).
func (Ex9Linear) Lambda(t float64) float64 { return math.Sin(t) / ex9CCt }

// Ex9Row is one line of the Example 9 table: the last step h_n = Ratio·h_{n−1} and the
// multiplier it produces at t_{n+1} = t* + h_n.
type Ex9Row struct {
	Ratio, H      float64 // h_n/h_{n−1} and h_n
	Lambda, Exact float64 // λ_{n+1} and λ(t_{n+1})
	Err           float64 // |λ_{n+1} − λ(t_{n+1})|
	// Predicted is the error of seed 002's leading term,
	// |(h_n + h_{n−1})/(2h_n) − 1|·|λ(t_{n+1})|; NaN where the paper gives none (pendulum).
	Predicted float64
}

// Ex9Case is the table of one system.
type Ex9Case struct {
	Name         string
	HPrev, TStar float64 // h_{n−1} of the steps up to t*, where the last step starts
	Rows         []Ex9Row
}

// Ex9Result is the outcome of ArnoldEx9.
type Ex9Result struct{ Cases []Ex9Case }

// Ex9Ratios are the step-size ratios h_n/h_{n−1} of the table.
var Ex9Ratios = []float64{2, 1, 1.0 / 2, 1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 1024}

// ArnoldEx9 reproduces seed 002, Example 9: the backward Euler method applied directly to
// the index-3 equations of motion (eq. 71),
//
//	(q_{n+1} − q_n)/h_n = v_{n+1},   M (v_{n+1} − v_n)/h_n = f − Gᵀλ_{n+1},   0 = g(t_{n+1}, q_{n+1}),
//
// runs with fixed steps h_{n−1} = hPrev from a consistent start at t = 0 up to t* = 1 and
// then takes one step h_n = ρ·hPrev for each ρ of Ex9Ratios. The paper shows
// λ_{n+1} = −(h_n + h_{n−1})/(2h_n)(C Cᵀ)⁻¹ z̈(t_{n+1}) + O(h_n) + O(h_{n−1}²/h_n) for
// the linear example, so λ_{n+1} does not converge as h_n → 0 with h_{n−1} fixed: its
// error grows like h_{n−1}/(2h_n). The same experiment is run on the index-3 pendulum
// DriftPhysics (α₀ = 60°, exact λ from problems.Pendulum.Exact), where the same
// non-convergence appears.
func ArnoldEx9(hPrev float64) (*Ex9Result, error) {
	if !(hPrev > 0 && hPrev <= 0.05) {
		return nil, fmt.Errorf("reproduce: arnold-ex9: hPrev = %g, want in (0, 0.05]", hPrev)
	}
	const tStar = 1.0
	lin := Ex9Linear{}
	linStart := integrate.NewState(2, 1)
	// Consistent at t = 0: C q = z(0) = 0, C v = ż(0) = 1.
	linStart.V[0], linStart.V[1] = 0.2, 0.4
	pend := DriftPhysics
	pendStart := integrate.NewState(2, 1)
	pend.Exact(0, &pendStart)
	exact := integrate.NewState(2, 1)
	res := &Ex9Result{}
	for _, c := range []struct {
		name   string
		sys    dae.System
		start  integrate.State
		lambda func(t float64) float64
		linear bool
	}{
		{"linear (Example 9: M = I, f = 0, g = C q − sin t)", lin, linStart, lin.Lambda, true},
		{"pendulum α₀ = 60°, index 3", pend, pendStart, func(t float64) float64 { pend.Exact(t, &exact); return exact.Lambda[0] }, false},
	} {
		be := newBackwardEuler(c.sys)
		n := int(math.Round(tStar / hPrev))
		q, v := append([]float64(nil), c.start.Q...), append([]float64(nil), c.start.V...)
		t := 0.0
		for i := range n {
			if err := be.step(t, hPrev, q, v); err != nil {
				return nil, fmt.Errorf("reproduce: arnold-ex9: %s: step %d at t = %g: %w", c.name, i, t, err)
			}
			t = float64(i+1) * hPrev
			copy(q, be.q)
			copy(v, be.v)
		}
		cs := Ex9Case{Name: c.name, HPrev: hPrev, TStar: t}
		for _, rho := range Ex9Ratios {
			h := rho * hPrev
			if err := be.step(t, h, q, v); err != nil {
				return nil, fmt.Errorf("reproduce: arnold-ex9: %s: last step h = %g: %w", c.name, h, err)
			}
			ex := c.lambda(t + h)
			row := Ex9Row{Ratio: rho, H: h, Lambda: be.lambda[0], Exact: ex, Err: math.Abs(be.lambda[0] - ex), Predicted: math.NaN()}
			if c.linear {
				row.Predicted = math.Abs((h+hPrev)/(2*h)-1) * math.Abs(ex)
			}
			cs.Rows = append(cs.Rows, row)
		}
		res.Cases = append(res.Cases, cs)
	}
	return res, nil
}

// backwardEuler is the one-step experiment of Example 9 for a dae.System: Newton's method
// on the residual of the backward Euler step in the unknowns (q_{n+1}, μ = h²λ_{n+1}),
//
//	r₁ = M(q)(q − q_n − h v_n) − h² f(t, q, (q − q_n)/h) + G(q)ᵀ μ,   r₂ = g(t, q),
//
// scaled by h² so that the iteration matrix [M + O(h), Gᵀ; G, 0] stays well conditioned
// for h → 0 (seed 002, eq. 69), with a forward-difference Jacobian (an experiment on
// two-coordinate systems, not a registered integrator).
type backwardEuler struct {
	sys        dae.System
	nq, nc     int
	M, G       *mat.Dense
	f, g       []float64
	q, v       []float64 // result q_{n+1}, v_{n+1}
	lambda, mu []float64
	x, r, rp   []float64 // unknowns (q, μ), residual, perturbed residual
	lu         *linalg.LU
}

func newBackwardEuler(sys dae.System) *backwardEuler {
	nq, nc := sys.Size()
	n := nq + nc
	return &backwardEuler{
		sys: sys, nq: nq, nc: nc, M: mat.NewDense(nq, nq, nil), G: mat.NewDense(nc, nq, nil),
		f: make([]float64, nq), g: make([]float64, nc), q: make([]float64, nq), v: make([]float64, nq),
		lambda: make([]float64, nc), mu: make([]float64, nc),
		x: make([]float64, n), r: make([]float64, n), rp: make([]float64, n), lu: linalg.NewLU(n),
	}
}

// ex9NewtonTol stops Newton when the correction is below it relative to 1 + |x|: near
// rounding, so that the table shows the method's λ, not an iteration error (Example 10 of
// seed 002 shows how iteration errors pollute λ).
const ex9NewtonTol = 1e-14

// ex9Stagnation is the largest scaled correction accepted as rounding noise when the
// iteration stops contracting (about 5000 ulps of q; it moves λ = μ/h² by at most
// 1e-12/h², 1e-2 at h = 1e-5, far below the errors of the table there).
const ex9Stagnation = 1e-12

// residual writes r(x) at (t1, h) from (q0, v0) into dst.
func (b *backwardEuler) residual(dst, x []float64, t1, h float64, q0, v0 []float64) {
	nq := b.nq
	q, mu := x[:nq], x[nq:]
	for i := range nq {
		b.v[i] = (q[i] - q0[i]) / h
	}
	b.sys.Mass(b.M, t1, q)
	b.sys.Force(b.f, t1, q, b.v)
	b.sys.ConstraintJacobian(b.G, t1, q)
	for i := range nq {
		s := -h * h * b.f[i]
		for j := range nq {
			s += b.M.At(i, j) * (q[j] - q0[j] - h*v0[j])
		}
		for k := range b.nc {
			s += b.G.At(k, i) * mu[k]
		}
		dst[i] = s
	}
	b.sys.Constraint(dst[nq:], t1, q)
}

// step takes one backward Euler step of size h from (t, q0, v0); the result is in b.q,
// b.v, b.lambda.
func (b *backwardEuler) step(t, h float64, q0, v0 []float64) error {
	nq, n := b.nq, b.nq+b.nc
	t1 := t + h
	// Predictor: q0 + h v0 and the previous μ scaled to the new h.
	for i := range nq {
		b.x[i] = q0[i] + h*v0[i]
	}
	for k := range b.nc {
		b.x[nq+k] = h * h * b.lambda[k]
	}
	prev := math.Inf(1)
	for it := 0; it < 20; it++ {
		b.residual(b.r, b.x, t1, h, q0, v0)
		J := b.lu.Matrix()
		for j := range n {
			d := 1e-7 * math.Max(1, math.Abs(b.x[j]))
			if j >= nq {
				d = 1e-7 * math.Max(h*h, math.Abs(b.x[j]))
			}
			xj := b.x[j]
			b.x[j] = xj + d
			b.residual(b.rp, b.x, t1, h, q0, v0)
			b.x[j] = xj
			for i := range n {
				J.Data[i*J.Stride+j] = (b.rp[i] - b.r[i]) / d
			}
		}
		if err := b.lu.Factor(); err != nil {
			return err
		}
		for i := range b.r {
			b.r[i] = -b.r[i]
		}
		b.lu.Solve(b.r)
		norm := 0.0
		for i, d := range b.r {
			b.x[i] += d
			// μ = h²λ is known to rounding of r₁, i.e. of q: the same absolute scale.
			norm = math.Max(norm, math.Abs(d)/(1+math.Abs(b.x[i])))
			if math.IsNaN(d) {
				norm = math.NaN()
			}
		}
		// Converged at ex9NewtonTol, or stagnating at rounding level (the FD Jacobian makes
		// the rate about 1e-7, so a correction that no longer halves is rounding noise).
		if norm <= ex9NewtonTol || (it > 0 && norm >= prev/2 && norm <= ex9Stagnation) {
			copy(b.q, b.x[:nq])
			for i := range nq {
				b.v[i] = (b.q[i] - q0[i]) / h
			}
			for k := range b.nc {
				b.lambda[k] = b.x[nq+k] / (h * h)
			}
			return nil
		}
		prev = norm
	}
	return fmt.Errorf("backward Euler: Newton did not converge in 20 iterations at t = %g, h = %g: %w", t1, h, integrate.ErrNoConvergence)
}

// Table prints, per system, λ_{n+1} and its error against h_n/h_{n−1}, with seed 002's
// leading-term prediction for the linear example.
func (r *Ex9Result) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Example 9 (seed 002): backward Euler on the index-3 form, last step h_n = ρ·h_{n−1} from t*\n")
	for _, c := range r.Cases {
		fmt.Fprintf(&b, "\n%s: h_{n−1} = %g, t* = %g\n", c.Name, c.HPrev, c.TStar)
		fmt.Fprintf(&b, "%10s %10s %14s %14s %10s %12s\n", "ρ", "h_n", "λ_{n+1}", "λ(t_{n+1})", "error", "paper (lead)")
		for _, w := range c.Rows {
			pred := "–"
			if !math.IsNaN(w.Predicted) {
				pred = fmt.Sprintf("%.3e", w.Predicted)
			}
			fmt.Fprintf(&b, "%10.4g %10.3e %14.8f %14.8f %10.3e %12s\n", w.Ratio, w.H, w.Lambda, w.Exact, w.Err, pred)
		}
	}
	return b.String()
}

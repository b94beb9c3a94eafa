package dae_test

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// bare hides every optional capability of a System, leaving the finite-difference
// fallbacks.
type bare struct{ dae.System }

// toy is a two-coordinate system with q-dependent mass, nonlinear forces and two
// rheonomic constraints, all derivatives written out by hand:
//
//	M = [2 + q1²   q0 q1  ]      f = [−2 q0 + ½ v1² − sin q1]
//	    [q0 q1     1 + q0²]          [q0 v0 − 3 v1 + cos t  ]
//
//	g0 = q0² q1 + sin q1 − 0.3 sin 2t,    g1 = q0 − q1³ + t.
//
// bug names one derivative to falsify by adding 0.1 to one entry.
type toy struct{ bug string }

func (s toy) Size() (int, int) { return 2, 2 }

func (s toy) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, 2+q[1]*q[1])
	dst.Set(0, 1, q[0]*q[1])
	dst.Set(1, 0, q[0]*q[1])
	dst.Set(1, 1, 1+q[0]*q[0])
	if s.bug == "M" {
		dst.Set(0, 1, dst.At(0, 1)+0.1)
	}
}

func (s toy) Force(dst []float64, t float64, q, v []float64) {
	dst[0] = -2*q[0] + 0.5*v[1]*v[1] - math.Sin(q[1])
	dst[1] = q[0]*v[0] - 3*v[1] + math.Cos(t)
}

func (s toy) Constraint(dst []float64, t float64, q []float64) {
	dst[0] = q[0]*q[0]*q[1] + math.Sin(q[1]) - 0.3*math.Sin(2*t)
	dst[1] = q[0] - q[1]*q[1]*q[1] + t
}

func (s toy) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, 2*q[0]*q[1])
	dst.Set(0, 1, q[0]*q[0]+math.Cos(q[1]))
	dst.Set(1, 0, 1)
	dst.Set(1, 1, -3*q[1]*q[1])
	if s.bug == "G" {
		dst.Set(1, 1, dst.At(1, 1)+0.1)
	}
}

func (s toy) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	dst[0] = -0.6 * math.Cos(2*t)
	dst[1] = 1
	if s.bug == "gt" {
		dst[0] += 0.1
	}
}

// Gamma: γ = −(G v)_q v − g_tt (G_t = 0), with
// (G v)_q v = 2 q1 v0² + 4 q0 v0 v1 − sin q1 v1² for g0 and −6 q1 v1² for g1.
func (s toy) Gamma(dst []float64, t float64, q, v []float64) {
	dst[0] = -(2*q[1]*v[0]*v[0] + 4*q[0]*v[0]*v[1] - math.Sin(q[1])*v[1]*v[1]) - 1.2*math.Sin(2*t)
	dst[1] = 6 * q[1] * v[1] * v[1]
	if s.bug == "gamma" {
		dst[1] += 0.1
	}
}

func (s toy) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	dst.Set(0, 0, q[1]*a[1])
	dst.Set(0, 1, 2*q[1]*a[0]+q[0]*a[1])
	dst.Set(1, 0, q[1]*a[0]+2*q[0]*a[1])
	dst.Set(1, 1, q[0]*a[0])
	if s.bug == "dMa" {
		dst.Set(1, 0, dst.At(1, 0)+0.1)
	}
}

// ConstraintForceDerivative: λ0 ∇²g0 + λ1 ∇²g1 with ∇²g0 = [2q1 2q0; 2q0 −sin q1],
// ∇²g1 = [0 0; 0 −6 q1].
func (s toy) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Set(0, 0, 2*q[1]*lambda[0])
	dst.Set(0, 1, 2*q[0]*lambda[0])
	dst.Set(1, 0, 2*q[0]*lambda[0])
	dst.Set(1, 1, -math.Sin(q[1])*lambda[0]-6*q[1]*lambda[1])
	if s.bug == "dGl" {
		dst.Set(0, 0, dst.At(0, 0)+0.1)
	}
}

func (s toy) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	dst.Set(0, 0, -2)
	dst.Set(0, 1, -math.Cos(q[1]))
	dst.Set(1, 0, v[0])
	dst.Set(1, 1, 0)
	if s.bug == "dfq" {
		dst.Set(1, 1, 0.1)
	}
}

func (s toy) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	dst.Set(0, 0, 0)
	dst.Set(0, 1, v[1])
	dst.Set(1, 0, q[0])
	dst.Set(1, 1, -3)
	if s.bug == "dfv" {
		dst.Set(0, 0, 0.1)
	}
}

var toyPoint = dae.CheckPoint{T: 0.45, Q: []float64{0.7, -0.4}, V: []float64{0.3, -1.1},
	A: []float64{0.5, 0.2}, Lambda: []float64{1.3, -0.8}}

// TestDerivativesFallback: the finite-difference fallbacks of Derivatives match the hand
// derivatives of toy, and the analytic path returns them exactly without evaluations.
func TestDerivativesFallback(t *testing.T) {
	p := toyPoint
	an := dae.NewDerivatives(toy{})
	fd := dae.NewDerivatives(bare{toy{}})
	if !an.AnalyticMass() || !an.AnalyticConstraintForce() || !an.AnalyticForce() {
		t.Errorf("toy's analytic capabilities not detected")
	}
	if fd.AnalyticMass() || fd.AnalyticConstraintForce() || fd.AnalyticForce() {
		t.Errorf("bare system reported analytic capabilities")
	}
	A, B := mat.NewDense(2, 2, nil), mat.NewDense(2, 2, nil)
	for _, c := range []struct {
		name string
		eval func(d *dae.Derivatives, dst *mat.Dense)
		ref  func(dst *mat.Dense)
	}{
		{"d(M a)/dq", func(d *dae.Derivatives, m *mat.Dense) { d.MassDerivative(m, p.T, p.Q, p.A) },
			func(m *mat.Dense) { toy{}.MassDerivative(m, p.T, p.Q, p.A) }},
		{"d(G^T lambda)/dq", func(d *dae.Derivatives, m *mat.Dense) { d.ConstraintForceDerivative(m, p.T, p.Q, p.Lambda) },
			func(m *mat.Dense) { toy{}.ConstraintForceDerivative(m, p.T, p.Q, p.Lambda) }},
		{"df/dq", func(d *dae.Derivatives, m *mat.Dense) { d.ForceDerivativeQ(m, p.T, p.Q, p.V) },
			func(m *mat.Dense) { toy{}.ForceDerivativeQ(m, p.T, p.Q, p.V) }},
		{"df/dv", func(d *dae.Derivatives, m *mat.Dense) { d.ForceDerivativeV(m, p.T, p.Q, p.V) },
			func(m *mat.Dense) { toy{}.ForceDerivativeV(m, p.T, p.Q, p.V) }},
	} {
		c.ref(B)
		c.eval(an, A)
		if !mat.Equal(A, B) {
			t.Errorf("%s analytic path: %v, want %v", c.name, mat.Formatted(A), mat.Formatted(B))
		}
		before := fd.Evals
		c.eval(fd, A)
		// Central differences with h = ε^(1/3)·max(1,|x|) err by ~ε^(2/3) ≈ 4e-11 relative
		// for these O(1) functions; 1e-8 leaves a margin yet catches a wrong column or sign.
		for i := range 2 {
			for j := range 2 {
				if d := math.Abs(A.At(i, j) - B.At(i, j)); d > 1e-8*math.Max(1, math.Abs(B.At(i, j))) {
					t.Errorf("%s[%d,%d]: finite difference %.12g, exact %.12g", c.name, i, j, A.At(i, j), B.At(i, j))
				}
			}
		}
		// Two evaluations per coordinate.
		if got := fd.Evals - before; got != 4 {
			t.Errorf("%s: %d FD evaluations, want 4", c.name, got)
		}
	}
	if an.Evals != 0 {
		t.Errorf("analytic Derivatives counted %d FD evaluations, want 0", an.Evals)
	}

	// Allocation-free after NewDerivatives, FD paths included.
	n := testing.AllocsPerRun(20, func() {
		fd.MassDerivative(A, p.T, p.Q, p.A)
		fd.ConstraintForceDerivative(A, p.T, p.Q, p.Lambda)
		fd.ForceDerivativeQ(A, p.T, p.Q, p.V)
		fd.ForceDerivativeV(A, p.T, p.Q, p.V)
	})
	if n != 0 {
		t.Errorf("FD derivatives allocate %v times per call set, want 0", n)
	}
}

// TestDerivativesConstantMass: a ConstantMass system gets ∂(M a)/∂q = 0 without
// evaluations.
func TestDerivativesConstantMass(t *testing.T) {
	sys, q := fourBar(2)
	d := dae.NewDerivatives(sys)
	D := mat.NewDense(4, 4, nil)
	D.Set(2, 3, 7)
	d.MassDerivative(D, 0, q, []float64{1, 2, 3, 4})
	if mat.Norm(D, math.Inf(1)) != 0 || d.Evals != 0 || !d.AnalyticMass() {
		t.Errorf("constant mass: d(M a)/dq = %v, %d evaluations, analytic %v; want 0, 0, true",
			mat.Formatted(D), d.Evals, d.AnalyticMass())
	}
}

// TestCheck: the correct toy passes; each falsified derivative fails with an error that
// names its quantity.
func TestCheck(t *testing.T) {
	// 1e-6: Check's documented tolerance.
	ms, err := dae.Check(toy{}, toyPoint, 1e-6)
	if err != nil {
		t.Fatalf("correct toy: %v", err)
	}
	// 8 quantities: G, g_t, gamma, M symmetric, d(M a)/dq, d(Gᵀλ)/dq, df/dq, df/dv.
	if len(ms) != 8 {
		t.Errorf("Check compared %d quantities, want 8", len(ms))
	}
	for _, m := range ms {
		// FD accuracy ~ε^(2/3) ≈ 4e-11 relative; 1e-8 catches anything structural.
		if m.Gap > 1e-8 {
			t.Errorf("correct toy: %v", m)
		}
	}
	for bug, quantity := range map[string]string{
		"G":     "G = dg/dq[1,1]",
		"gt":    "g_t[0,0]",
		"gamma": "gamma[1,0]",
		"M":     "M symmetric[",
		"dMa":   "d(M a)/dq[1,0]",
		"dGl":   "d(G^T lambda)/dq[0,0]",
		"dfq":   "df/dq[1,1]",
		"dfv":   "df/dv[0,0]",
	} {
		_, err := dae.Check(toy{bug: bug}, toyPoint, 1e-6)
		if err == nil {
			t.Errorf("bug in %s: Check passed", bug)
			continue
		}
		if !strings.Contains(err.Error(), quantity) {
			t.Errorf("bug in %s: error %q does not name %q", bug, err, quantity)
		}
	}
}

// TestResidualMeter on a two-rod chain at a hand-computed state. Rods: ground–p0 and
// p0–p1, unit length, d0 = p0, d1 = p1 − p0.
//
//	p0 = (0.6, −0.9), p1 = (0.6, −2.0):  g = ((0.36+0.81−1)/2, (0+1.21−1)/2) = (0.085, 0.105)
//	v0 = (1, 2), v1 = (0.5, −1):         G v = (0.6 − 1.8, (0, −1.1)·(−0.5, −3)) = (−1.2, 3.3)
//	a0 = (3, 4), a1 = (1, −2):           G a = (1.8 − 3.6, (0, −1.1)·(−2, −6)) = (−1.8, 6.6)
//	γ = −|w|² = (−5, −9.25)              G a − γ = (3.2, 15.85)
func TestResidualMeter(t *testing.T) {
	sys := &linkSys{mass: []float64{1, 1}, pts: []string{"p0", "p1"},
		links: []link{ground("rod0", 0, [2]float64{}, 1), rod("rod1", 1, 0, 1)}}
	m := dae.NewResidualMeter(sys)
	q := []float64{0.6, -0.9, 0.6, -2.0}
	v := []float64{1, 2, 0.5, -1}
	a := []float64{3, 4, 1, -2}
	r := m.Measure(0, q, v, a)
	// 1e-14 relative: a handful of roundings of O(1) numbers.
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"Pos", r.Pos, 0.105}, {"Vel", r.Vel, 3.3}, {"Acc", r.Acc, 15.85}} {
		if math.Abs(c.got-c.want) > 1e-14*c.want {
			t.Errorf("%s = %.17g, want %g", c.name, c.got, c.want)
		}
	}
	if r.WorstPos != 1 {
		t.Errorf("WorstPos = %d, want 1 (rod1)", r.WorstPos)
	}
	if r2 := m.Measure(0, q, v, nil); r2.Acc != 0 || r2.Vel != r.Vel {
		t.Errorf("a = nil: Acc %g, Vel %g; want 0, %g", r2.Acc, r2.Vel, r.Vel)
	}
	s := dae.ConstraintResiduals{Pos: 0.2, Vel: 1, Acc: 20, WorstPos: 0}.Max(r)
	if s.Pos != 0.2 || s.WorstPos != 0 || s.Vel != r.Vel || s.Acc != 20 {
		t.Errorf("Max = %+v, want Pos 0.2 (row 0), Vel %g, Acc 20", s, r.Vel)
	}
	if n := testing.AllocsPerRun(20, func() { m.Measure(0, q, v, a) }); n != 0 {
		t.Errorf("Measure allocates %v times, want 0", n)
	}
	free := dae.NewResidualMeter(&linkSys{mass: []float64{1}, pts: []string{"b"}})
	if r := free.Measure(0, q[:2], v[:2], a[:2]); r.WorstPos != -1 || r.Pos != 0 {
		t.Errorf("nc = 0: %+v, want zero residuals and WorstPos −1", r)
	}
}

package integrate

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// stateMassDAE is K(y) y' = φ(t, y) with a full, state-dependent K and an algebraic
// equation, built around a known solution y* = (sin t, cos t, sin t cos t):
//
//	K(y) = [2 + y₂²  y₁  0; y₁  1 + y₁²  0; 0 0 0]   (positive definite in its 2×2 block)
//	φ₁,₂ = K(y*(t)) y*'(t) − (y − y*(t))₁,₂ + (y₃ − y₁y₂)(1, 1)
//	φ₃   = y₃ − y₁y₂
//
// y* solves it (K(y*)y*' = φ₁,₂(t, y*), y*₃ = y*₁y*₂), with y₃ an index-1 algebraic
// variable. φ holds K at y*(t), not at y, so that ∂(K(y) y')/∂y is a genuine part of
// the Newton matrix. constant replaces K(y) by its value at y₁ = y₂ = 1,
// [3 1 0; 1 2 0; 0 0 0]: a constant full K, which φ then uses too.
type stateMassDAE struct{ constant bool }

func (stateMassDAE) Dim() int               { return 3 }
func (stateMassDAE) MassDiagonal([]float64) {} // not called: K is Mass's
func (stateMassDAE) Indices(dst []int)      { dst[0], dst[1], dst[2] = 1, 1, 1 }
func (s stateMassDAE) ConstantMass() bool   { return s.constant }

func (s stateMassDAE) Mass(dst *mat.Dense, t float64, y []float64) {
	dst.Zero()
	y1, y2 := y[0], y[1]
	if s.constant {
		y1, y2 = 1, 1
	}
	dst.Set(0, 0, 2+y2*y2)
	dst.Set(0, 1, y1)
	dst.Set(1, 0, y1)
	dst.Set(1, 1, 1+y1*y1)
}

func stateMassExact(t float64) (y, yp []float64) {
	a, b := stateMassSolution(t)
	return a[:], b[:]
}

// stateMassSolution is y*(t) and y*'(t) in arrays (Rhs does not allocate).
func stateMassSolution(t float64) (y, yp [3]float64) {
	s, c := math.Sin(t), math.Cos(t)
	return [3]float64{s, c, s * c}, [3]float64{c, -s, c*c - s*s}
}

func (s stateMassDAE) Rhs(dst []float64, t float64, y []float64) {
	ys, yps := stateMassSolution(t)
	var kd [9]float64
	K := mat.NewDense(3, 3, kd[:])
	s.Mass(K, t, ys[:])
	alg := y[2] - y[0]*y[1]
	for i := range 2 {
		dst[i] = kd[3*i]*yps[0] + kd[3*i+1]*yps[1] - (y[i] - ys[i]) + alg
	}
	dst[2] = alg
}

// stateMassAnalytic adds ∂(K z)/∂y and ∂φ/∂y.
type stateMassAnalytic struct{ stateMassDAE }

func (stateMassAnalytic) MassProductJacobian(dst *mat.Dense, t float64, y, z []float64) {
	dst.Zero()
	dst.Set(0, 0, z[1])
	dst.Set(0, 1, 2*y[1]*z[0])
	dst.Set(1, 0, z[0]+2*y[0]*z[1])
}

func (stateMassAnalytic) RhsJacobian(dst *mat.Dense, t float64, y []float64) {
	dst.Zero()
	for i := range 2 {
		dst.Set(i, i, -1)
		dst.Set(i, 0, dst.At(i, 0)-y[1])
		dst.Set(i, 1, dst.At(i, 1)-y[0])
		dst.Set(i, 2, 1)
	}
	dst.Set(2, 0, -y[1])
	dst.Set(2, 1, -y[0])
	dst.Set(2, 2, 1)
}

// runImplicit integrates stateMassDAE sys from its exact start to tEnd with the named
// method and returns the method after the run.
func runImplicit(t *testing.T, name string, sys dae.LinearlyImplicit, tEnd float64, ctl StepControl) ImplicitMethod {
	t.Helper()
	y0, yp0 := stateMassExact(0)
	return runImplicitFrom(t, name, sys, y0, yp0, tEnd, ctl)
}

// runImplicitFrom integrates sys from (0, y0, yp0) to tEnd with the named method and
// returns the method after the run.
func runImplicitFrom(t *testing.T, name string, sys dae.LinearlyImplicit, y0, yp0 []float64, tEnd float64, ctl StepControl) ImplicitMethod {
	t.Helper()
	e, _ := Lookup(name)
	m := e.New().(ImplicitMethod)
	if err := m.InitImplicit(sys, 0, y0, yp0, ctl); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for m.Current().T < tEnd {
		if err := m.Step(tEnd); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return m
}

// TestImplicitStateMass solves stateMassDAE (state-dependent full K) and its constant-K
// variant with radau5 and bdf at tol 1e-8 to t = 2 and checks every variable against
// the closed form to 1e-6 (global errors of an error-controlled run are a small multiple
// of tol; TestImplicitMixed's bound), that the analytic ∂(K z)/∂y and ∂φ/∂y give the run
// of the differences (steps equal, y within 1e-8), that the analytic ∂(K z)/∂y agrees with
// dae.CheckImplicitMass's differences, and that a step allocates nothing after warm-up.
func TestImplicitStateMass(t *testing.T) {
	const tEnd = 2
	ys, yps := stateMassExact(0.7)
	if err := dae.CheckImplicitMass(stateMassAnalytic{}, 0.7, ys, yps, 1e-6); err != nil {
		t.Error(err)
	}
	if err := dae.CheckImplicitMass(stateMassDAE{constant: true}, 0.7, ys, yps, 1e-6); err != nil {
		t.Error(err)
	}
	ctl := StepControl{RTol: 1e-8, ATol: 1e-8}
	exact, _ := stateMassExact(tEnd)
	for _, name := range []string{"radau5", "bdf"} {
		for _, constant := range []bool{false, true} {
			fd := runImplicit(t, name, stateMassDAE{constant}, tEnd, ctl)
			an := runImplicit(t, name, stateMassAnalytic{stateMassDAE{constant}}, tEnd, ctl)
			for i := range exact {
				if d := math.Abs(fd.Current().Q[i] - exact[i]); !(d <= 1e-6) {
					t.Errorf("%s (constant K %v): y[%d](2) = %.12g, exact %.12g, error %.2g > 1e-6", name, constant, i, fd.Current().Q[i], exact[i], d)
				}
				if d := math.Abs(fd.Current().Q[i] - an.Current().Q[i]); !(d <= 1e-8) {
					t.Errorf("%s (constant K %v): y[%d](2): differences %.12g, analytic %.12g", name, constant, i, fd.Current().Q[i], an.Current().Q[i])
				}
			}
			sf, sa := fd.Stats(), an.Stats()
			if sf.Steps != sa.Steps {
				t.Errorf("%s (constant K %v): %d steps with differences, %d with analytic derivatives", name, constant, sf.Steps, sa.Steps)
			}
			if sa.FDEvals != 0 || sf.FDEvals == 0 {
				t.Errorf("%s (constant K %v): FDEvals %d with differences, %d analytic; want > 0 and 0", name, constant, sf.FDEvals, sa.FDEvals)
			}
			t.Logf("%s (constant K %v): %d steps, %d rejected, %d Newton iterations; error %.2g %.2g %.2g",
				name, constant, sf.Steps, sf.Rejected, sf.NewtonIters, fd.Current().Q[0]-exact[0], fd.Current().Q[1]-exact[1], fd.Current().Q[2]-exact[2])
		}
		m := runImplicit(t, name, stateMassDAE{}, 0.5, ctl)
		if n := testing.AllocsPerRun(20, func() { _ = m.Step(math.Inf(1)) }); n != 0 {
			t.Errorf("%s: Step with a state-dependent K allocates %v times per call after warm-up, want 0", name, n)
		}
	}
}

// TestImplicitStateMassOrder: with fixed steps h, h/2, h/4 on [0, 1], radau5 and bdf
// (order 5 in fixed-step mode) converge on stateMassDAE with their order in every variable
// (y₃ is an index-1 algebraic variable: Radau IIA keeps order 2s − 1 = 5 there, Hairer &
// Wanner 1996, VI.1), each log2 ratio within 0.3 of 5. h is 0.2 for radau5, whose errors
// reach 1e-13 at h = 0.025, and 0.05 for bdf, whose ratios are 4.5 at h = 0.1 and still
// rising toward 5. The tolerances set only the Newton stop (1e-13, below every error).
func TestImplicitStateMassOrder(t *testing.T) {
	exact, _ := stateMassExact(1)
	for _, c := range []struct {
		name string
		h    float64
	}{{"radau5", 0.2}, {"bdf", 0.05}} {
		name := c.name
		var errs [3][3]float64
		for k, h := range []float64{c.h, c.h / 2, c.h / 4} {
			m := runImplicit(t, name, stateMassAnalytic{}, 1, StepControl{FixedH: h, RTol: 1e-13, ATol: 1e-13})
			for i := range exact {
				errs[i][k] = math.Abs(m.Current().Q[i] - exact[i])
			}
		}
		for i := range exact {
			for k := range 2 {
				p := math.Log2(errs[i][k] / errs[i][k+1])
				if !(math.Abs(p-5) <= 0.3) {
					t.Errorf("%s: y[%d]: observed order %.2f between h = %g and h/2 (errors %.3g, %.3g), want 5 ± 0.3",
						name, i, p, c.h/math.Pow(2, float64(k)), errs[i][k], errs[i][k+1])
				}
			}
			t.Logf("%s: y[%d]: errors %.3g %.3g %.3g", name, i, errs[i][0], errs[i][1], errs[i][2])
		}
	}
}

// scaledMixed is mixedDAE with its two differential equations multiplied by 2 and 3
// (K = diag(2, 0, 3, 0)): the same solutions, and radau5 and bdf must take the same steps,
// since their Newton matrices, residuals and error estimates scale row by row with K.
type scaledMixed struct{ mixedDAEJac }

func (scaledMixed) MassDiagonal(dst []float64) { dst[0], dst[1], dst[2], dst[3] = 2, 0, 3, 0 }
func (s scaledMixed) Rhs(dst []float64, t float64, y []float64) {
	s.mixedDAEJac.Rhs(dst, t, y)
	dst[0] *= 2
	dst[2] *= 3
}
func (s scaledMixed) RhsJacobian(dst *mat.Dense, t float64, y []float64) {
	s.mixedDAEJac.RhsJacobian(dst, t, y)
	for j := range 4 {
		dst.Set(0, j, 2*dst.At(0, j))
		dst.Set(2, j, 3*dst.At(2, j))
	}
}

// TestImplicitScaledDiagonal: scaling an equation of K y' = φ changes no step of radau5
// or bdf (steps equal, y within 1e-10 at t = 1). Before radau5's error estimate took
// φ(t₀, y₀) unscaled, as RADAU5 does, it multiplied it by K_ii and rejected steps of such
// systems on a wrong estimate.
func TestImplicitScaledDiagonal(t *testing.T) {
	y0 := mixedExact(0)
	yp0 := []float64{-y0[0] + y0[1], 0, y0[3], 0}
	ctl := StepControl{RTol: 1e-8, ATol: 1e-8}
	for _, name := range []string{"radau5", "bdf"} {
		var final [2][]float64
		var steps [2]int
		for k, sys := range []dae.LinearlyImplicit{mixedDAEJac{}, scaledMixed{}} {
			m := runImplicitFrom(t, name, sys, y0, yp0, 1, ctl)
			final[k], steps[k] = m.Current().Q, m.Stats().Steps
		}
		if steps[0] != steps[1] {
			t.Errorf("%s: %d steps on K = diag(1, 0, 1, 0), %d on the scaled K = diag(2, 0, 3, 0)", name, steps[0], steps[1])
		}
		for i := range final[0] {
			if d := math.Abs(final[0][i] - final[1][i]); !(d <= 1e-10) {
				t.Errorf("%s: y[%d](1) = %.12g unscaled, %.12g scaled", name, i, final[0][i], final[1][i])
			}
		}
	}
}

// TestImplicitNewtonJacobian: the part of the Newton matrices besides the multiple of K,
// implicitForm.newtonJacobian, is the derivative of φ(t, y) − K(t, y) z in y at fixed z
// (central differences of that residual, 1e-6 relative: the derivative checks' gap), with
// the analytic ∂(K z)/∂y and with differences of Mass.
func TestImplicitNewtonJacobian(t *testing.T) {
	y := []float64{0.3, -0.8, 0.5}
	z := []float64{1.5, -2, 0.7}
	const tm = 0.4
	res := func(dst, y []float64) {
		sys := stateMassDAE{}
		sys.Rhs(dst, tm, y)
		var kd [9]float64
		K := mat.NewDense(3, 3, kd[:])
		sys.Mass(K, tm, y)
		for i := range 3 {
			dst[i] -= kd[3*i]*z[0] + kd[3*i+1]*z[1] + kd[3*i+2]*z[2]
		}
	}
	want := mat.NewDense(3, 3, nil)
	rp, rm, yp := make([]float64, 3), make([]float64, 3), make([]float64, 3)
	for j := range 3 {
		h := dae.FDStep(y[j])
		copy(yp, y)
		yp[j] = y[j] + h
		res(rp, yp)
		yp[j] = y[j] - h
		res(rm, yp)
		for i := range 3 {
			want.Set(i, j, (rp[i]-rm[i])/(2*h))
		}
	}
	for _, sys := range []dae.LinearlyImplicit{stateMassDAE{}, stateMassAnalytic{}} {
		f := newImplicitForm(sys, 0, y)
		J := mat.NewDense(3, 3, nil)
		f.newtonJacobian(J, tm, y, z)
		for i := range 3 {
			for j := range 3 {
				if g, w := J.At(i, j), want.At(i, j); !(math.Abs(g-w) <= 1e-6*math.Max(1, math.Abs(w))) {
					t.Errorf("%T: Newton Jacobian [%d][%d] = %.9g, differences of φ − K z give %.9g", sys, i, j, g, w)
				}
			}
		}
	}
}

// countedStateMass is stateMassDAE with the analytic ∂φ/∂y but ∂(K z)/∂y by differences,
// counting its evaluations of φ.
type countedStateMass struct {
	stateMassDAE
	rhs *int
}

func (c countedStateMass) Rhs(dst []float64, t float64, y []float64) {
	*c.rhs++
	c.stateMassDAE.Rhs(dst, t, y)
}

func (countedStateMass) RhsJacobian(dst *mat.Dense, t float64, y []float64) {
	stateMassAnalytic{}.RhsJacobian(dst, t, y)
}

// TestImplicitStateMassStats: with ∂φ/∂y analytic and ∂(K z)/∂y by differences of K,
// Stats.FuncEvals counts every evaluation of φ but the start check's (dae.CheckLinearlyImplicit,
// one), and FDEvals the 2n evaluations of K of each Jacobian; Newton iterations are at
// least the steps.
func TestImplicitStateMassStats(t *testing.T) {
	for _, name := range []string{"radau5", "bdf"} {
		var rhs int
		m := runImplicit(t, name, countedStateMass{rhs: &rhs}, 2, StepControl{RTol: 1e-8, ATol: 1e-8})
		s := m.Stats()
		if rhs != s.FuncEvals+1 {
			t.Errorf("%s: φ evaluated %d times, FuncEvals = %d (want FuncEvals + 1, the start check)", name, rhs, s.FuncEvals)
		}
		if s.FDEvals != 2*3*s.Jacobians {
			t.Errorf("%s: FDEvals = %d with %d Jacobians, want 2n = 6 evaluations of K each", name, s.FDEvals, s.Jacobians)
		}
		if s.NewtonIters < s.Steps || s.Jacobians == 0 {
			t.Errorf("%s: %d Newton iterations, %d steps, %d Jacobians", name, s.NewtonIters, s.Steps, s.Jacobians)
		}
	}
}

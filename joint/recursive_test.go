package joint

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomTree builds a tree of every joint kind with random bodies, a branch, springs, a
// spherical cut joint between two branches, orientation rows of cut joints (a revolute's
// two between the branches, a universal's one to the ground) and a drive.
func randomTree(rng *rand.Rand) *Model {
	r3 := func(s float64) [3]float64 {
		return [3]float64{s * (rng.Float64() - 0.5), s * (rng.Float64() - 0.5), s * (rng.Float64() - 0.5)}
	}
	body := func(name string) Body {
		a, b, c := 0.1+rng.Float64(), 0.1+rng.Float64(), 0.1+rng.Float64()
		return Body{Name: name, Mass: 0.5 + rng.Float64(), COM: r3(0.5),
			Inertia: [3][3]float64{{b + c, 0.01, 0}, {0.01, a + c, 0.02}, {0, 0.02, a + b}}}
	}
	m := &Model{Gravity: [3]float64{0.3, -1, -9.81}}
	f := m.Revolute("r1", Ground, r3(1), r3(2), body("b1"))
	f = m.Prismatic("p2", f, r3(1), r3(2), body("b2"))
	f = m.Spherical("s3", f, r3(1), body("b3"))
	u := m.Universal("u4", f, r3(1), [3]float64{1, 0, 0}, [3]float64{0, 1, 0}, body("b4"))
	br := m.Free("f5", Ground, r3(1), body("b5"))
	br = m.Revolute("r6", br, r3(1), r3(2), body("b6"))
	m.Spring(m.Coordinate("r1"), 3, 0.2, 0.1)
	m.Spring(m.Coordinate("s3.x"), 5, 0.1, 0)
	m.Cut("loop", u, r3(1), br, r3(1), [3]float64{1, 0, 0}, [3]float64{0, 1, 0}, [3]float64{0, 0, 1})
	m.CutAxes("hinge", u, [3]float64{0.2, 0.3, 1}, br, [3]float64{1, 0, 0}, [3]float64{0, 1, 0})
	m.CutAxes("cross", Ground, [3]float64{1, 0, 0}, f, [3]float64{0, 1, 0.4})
	m.Drive("drive", m.Coordinate("p2"), math.Sin, math.Cos, func(t float64) float64 { return -math.Sin(t) })
	return m
}

// randomSystem is randomTree's System at a random state.
func randomSystem(t *testing.T, rng *rand.Rand) (sys *System, nq int, q, v []float64) {
	t.Helper()
	sys, err := randomTree(rng).System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ = sys.Size()
	q, v = randomState(rng, nq)
	return sys, nq, q, v
}

func randomState(rng *rand.Rand, n int) (q, v []float64) {
	q, v = make([]float64, n), make([]float64, n)
	for i := range q {
		q[i] = rng.Float64() - 0.5
		v[i] = 2 * (rng.Float64() - 0.5)
	}
	return q, v
}

// TestForwardDynamicsMatchesDenseSolve: the articulated-body recursion gives the
// accelerations of the dense M⁻¹ f (composite-rigid-body M, Newton-Euler f) to 1e-10.
func TestForwardDynamicsMatchesDenseSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 5; trial++ {
		sys, nq, q, v := randomSystem(t, rng)
		M := mat.NewDense(nq, nq, nil)
		sys.Mass(M, 0, q)
		f := make([]float64, nq)
		sys.Force(f, 0, q, v)
		var want mat.VecDense
		if err := want.SolveVec(M, mat.NewVecDense(nq, f)); err != nil {
			t.Fatal(err)
		}
		got := make([]float64, nq)
		sys.Accelerations(got, 0, q, v)
		x := make([]float64, nq)
		sys.MassSolve(x, 0, q, f)
		for i := range got {
			scale := math.Max(1, math.Abs(want.AtVec(i)))
			if d := math.Abs(got[i] - want.AtVec(i)); d > 1e-10*scale {
				t.Errorf("trial %d: ABA a[%s] = %.15g, dense M⁻¹f = %.15g", trial, sys.CoordinateName(i), got[i], want.AtVec(i))
			}
			if d := math.Abs(x[i] - want.AtVec(i)); d > 1e-10*scale {
				t.Errorf("trial %d: MassSolve x[%d] = %.15g, dense = %.15g", trial, i, x[i], want.AtVec(i))
			}
		}
	}
}

// TestMassMulMatchesDenseProduct: the Newton-Euler product M x (dae.MassMultiplier)
// equals the composite-rigid-body M times x to 1e-12 relative on random trees and states,
// and MassSolve undoes it.
func TestMassMulMatchesDenseProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 5; trial++ {
		sys, nq, q, x := randomSystem(t, rng)
		M := mat.NewDense(nq, nq, nil)
		sys.Mass(M, 0, q)
		var want mat.VecDense
		want.MulVec(M, mat.NewVecDense(nq, x))
		got, back := make([]float64, nq), make([]float64, nq)
		sys.MassMul(got, 0, q, x)
		sys.MassSolve(back, 0, q, got)
		for i := range got {
			if d := math.Abs(got[i] - want.AtVec(i)); d > 1e-12*math.Max(1, math.Abs(want.AtVec(i))) {
				t.Errorf("trial %d: (M x)[%s] = %.15g, dense = %.15g", trial, sys.CoordinateName(i), got[i], want.AtVec(i))
			}
			if d := math.Abs(back[i] - x[i]); d > 1e-10*math.Max(1, math.Abs(x[i])) {
				t.Errorf("trial %d: M⁻¹(M x)[%d] = %.15g, want %.15g", trial, i, back[i], x[i])
			}
		}
	}
}

// TestKineticEnergyIsVMV: ½ vᵀ M v from the composite-rigid-body M equals the kinetic
// energy summed body by body from the spatial velocities of the forward recursion.
func TestKineticEnergyIsVMV(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sys, nq, q, v := randomSystem(t, rng)
	M := mat.NewDense(nq, nq, nil)
	sys.Mass(M, 0, q)
	vv := mat.NewVecDense(nq, v)
	want := 0.5 * mat.Inner(vv, M, vv)
	got, _ := sys.Energy(0, q, v)
	if math.Abs(got-want) > 1e-12*want {
		t.Errorf("T = %.15g from body velocities, ½vᵀMv = %.15g", got, want)
	}
}

// TestForceIsLagrangian: f = −(M' v − ∂T/∂q) − ∂V/∂q − d v, the Lagrange equations, with
// M' and ∂T/∂q, ∂V/∂q by central differences of Mass and Energy.
func TestForceIsLagrangian(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sys, nq, q, v := randomSystem(t, rng)
	f := make([]float64, nq)
	sys.Force(f, 0, q, v)
	h := 1e-6
	Mp, Mm := mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	qp, qm := make([]float64, nq), make([]float64, nq)
	for i := range q {
		qp[i], qm[i] = q[i]+h*v[i], q[i]-h*v[i]
	}
	sys.Mass(Mp, 0, qp)
	sys.Mass(Mm, 0, qm)
	want := make([]float64, nq)
	for i := 0; i < nq; i++ {
		for j := 0; j < nq; j++ {
			want[i] -= (Mp.At(i, j) - Mm.At(i, j)) / (2 * h) * v[j]
		}
		copy(qp, q)
		copy(qm, q)
		qp[i] += h
		qm[i] -= h
		tp, vp := sys.Energy(0, qp, v)
		tm, vm := sys.Energy(0, qm, v)
		want[i] += (tp-tm)/(2*h) - (vp-vm)/(2*h)
		want[i] -= sys.m.prims[i].d * v[i]
	}
	for i := range f {
		if d := math.Abs(f[i] - want[i]); d > 1e-6*math.Max(1, math.Abs(want[i])) {
			t.Errorf("f[%s] = %.12g, Lagrange equations give %.12g", sys.CoordinateName(i), f[i], want[i])
		}
	}
}

// TestDerivativesAgainstFiniteDifferences: by dae.Check, G, g_t and γ of cut joints and
// drives, and the analytic ∂(M a)/∂q, ∂f/∂q, ∂f/∂v and ∂(Gᵀλ)/∂q of derivatives.go at
// random states, accelerations and multipliers.
func TestDerivativesAgainstFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 3; trial++ {
		sys, nq, q, v := randomSystem(t, rng)
		checkAgainstDifferences(t, rng, sys, nq, q, v, "d(M a)/dq", "df/dq", "df/dv", "d(G^T lambda)/dq", "G = dg/dq", "gamma")
	}
}

// TestFrameMotionMatchesDifferences: FrameMotion's velocity, acceleration, angular velocity
// and angular acceleration of a point of every frame of the random tree are the central
// differences (h = 1e-5) of its position and orientation along q(t) = q + v t + a t²/2, to
// 1e-6 of their size, and its position is Position's.
func TestFrameMotionMatchesDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	sys, nq, q, v := randomSystem(t, rng)
	a, _ := randomState(rng, nq)
	at := func(s float64) []float64 {
		x := make([]float64, nq)
		for i := range x {
			x[i] = q[i] + v[i]*s + a[i]*s*s/2
		}
		return x
	}
	velAt := func(s float64) []float64 {
		x := make([]float64, nq)
		for i := range x {
			x[i] = v[i] + a[i]*s
		}
		return x
	}
	const h = 1e-5
	p := [3]float64{0.3, -0.2, 0.5}
	for f := range nq {
		fm := sys.FrameMotion(q, v, a, f, p)
		if r := sys.Position(q, f, p); r != fm.Pos {
			t.Errorf("frame %d: position %v, Position %v", f, fm.Pos, r)
		}
		plus, minus := sys.FrameMotion(at(h), velAt(h), nil, f, p), sys.FrameMotion(at(-h), velAt(-h), nil, f, p)
		for k := range 3 {
			check := func(what string, got, want float64) {
				if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
					t.Errorf("frame %d: %s[%d] = %.9g, differences %.9g", f, what, k, got, want)
				}
			}
			check("velocity", fm.Vel[k], (plus.Pos[k]-minus.Pos[k])/(2*h))
			check("acceleration", fm.Acc[k], (plus.Vel[k]-minus.Vel[k])/(2*h))
			check("angular acceleration", fm.Alpha[k], (plus.Omega[k]-minus.Omega[k])/(2*h))
			// ω from Ṙ Rᵀ: its (k+2, k+1) entry is ω_k.
			i, j := (k+2)%3, (k+1)%3
			var w float64
			for l := range 3 {
				w += (plus.R[i][l] - minus.R[i][l]) / (2 * h) * fm.R[j][l]
			}
			check("angular velocity", fm.Omega[k], w)
		}
	}
	if g := sys.FrameMotion(q, v, a, Ground, p); g.Pos != p || g.Vel != [3]float64{} {
		t.Errorf("ground frame: %+v, want the point at rest", g)
	}
}

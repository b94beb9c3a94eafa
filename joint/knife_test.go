package joint

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// knifeTree is randomTree with two knife edges: one on the universal joint's frame, whose
// path holds a revolute, a prismatic, a spherical and a universal joint, and one on the
// free branch's revolute.
func knifeTree(t *testing.T, rng *rand.Rand) (sys *System, nq int, q, v []float64) {
	t.Helper()
	m := randomTree(rng)
	m.KnifeEdge("blade", m.Coordinate("u4.2"), [3]float64{0.1, -0.2, 0.3}, [3]float64{0.2, 1, -0.3})
	m.KnifeEdge("skate", m.Coordinate("r6"), [3]float64{-0.3, 0.1, 0.2}, [3]float64{0, 0, 2})
	return systemAt(t, rng, m)
}

// systemAt returns the System of m and a random state.
func systemAt(t *testing.T, rng *rand.Rand, m *Model) (sys *System, nq int, q, v []float64) {
	t.Helper()
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ = sys.Size()
	q, v = randomState(rng, nq)
	return sys, nq, q, v
}

// TestKnifeEdgeDerivatives: by dae.Check at random states, the knife edges' ∂(A v)/∂q,
// ∂(Aᵀμ)/∂q and γ_A against central differences of A v and Aᵀμ, to 1e-6 relative; the
// rows are named NAME.n.
func TestKnifeEdgeDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2))
	for trial := 0; trial < 3; trial++ {
		sys, nq, q, v := knifeTree(t, rng)
		checkAgainstDifferences(t, rng, sys, nq, q, v, "d(A v + b)/dq", "d(A^T mu)/dq", "gamma_A")
	}
	sys, _, _, _ := knifeTree(t, rng)
	if got := sys.PfaffianName(0) + " " + sys.PfaffianName(1); got != "blade.n skate.n" {
		t.Errorf("Pfaffian rows named %q, want \"blade.n skate.n\"", got)
	}
}

// TestKnifeEdgeRowIsPointVelocity: at random states, A v is the velocity of the blade's
// point along its direction, (R_a n)·v_P, computed from FrameMotion independently of the
// row code, to 1e-12; b is zero.
func TestKnifeEdgeRowIsPointVelocity(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 21))
	m := randomTree(rng)
	a, p, n := m.Coordinate("s3.y"), [3]float64{0.2, 0.1, -0.3}, [3]float64{0, 0.6, 0.8}
	m.KnifeEdge("blade", a, p, n)
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	A, b := mat.NewDense(1, nq, nil), []float64{7}
	for trial := 0; trial < 5; trial++ {
		q, v := randomState(rng, nq)
		sys.Pfaffian(A, b, 0, q)
		fm := sys.FrameMotion(q, v, nil, a, p)
		want := mat3(fm.R).mulv(n).dot(fm.Vel)
		if got := mat.Dot(A.RowView(0), mat.NewVecDense(nq, v)); math.Abs(got-want) > 1e-12 || b[0] != 0 {
			t.Errorf("trial %d: A v = %.15g, b = %g; want the point's velocity along n %.15g and b = 0", trial, got, b[0], want)
		}
	}
}

// TestKnifeEdgeAllocatesNothing: A, γ_A, ∂(A v)/∂q and ∂(Aᵀμ)/∂q allocate nothing once the
// System exists.
func TestKnifeEdgeAllocatesNothing(t *testing.T) {
	sys, nq, q, v := knifeTree(t, rand.New(rand.NewPCG(9, 2)))
	nn := sys.NumPfaffian()
	A, R, H := mat.NewDense(nn, nq, nil), mat.NewDense(nn, nq, nil), mat.NewDense(nq, nq, nil)
	b, gamma, mu := make([]float64, nn), make([]float64, nn), []float64{1, 2}
	allocs := testing.AllocsPerRun(10, func() {
		q[0] += 1e-3
		sys.Pfaffian(A, b, 0, q)
		sys.PfaffianGamma(gamma, 0, q, v)
		sys.PfaffianRateDerivative(R, 0, q, v)
		sys.PfaffianForceDerivative(H, 0, q, mu)
	})
	if allocs != 0 {
		t.Errorf("knife edges: %g allocations, want 0", allocs)
	}
}

// TestKnifeEdgeBadInputIsRefusedByName: a knife edge on the ground or with a zero
// direction is refused by System naming it.
func TestKnifeEdgeBadInputIsRefusedByName(t *testing.T) {
	body := Body{Name: "b", Mass: 1, Inertia: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	for _, c := range []struct {
		name  string
		frame int
		n     [3]float64
		want  string
	}{
		{"ground", Ground, [3]float64{0, 1, 0}, `knife edge "blade": frame -1 is not a moving frame`},
		{"zero direction", 0, [3]float64{}, `knife edge "blade": zero direction`},
	} {
		m := &Model{}
		m.Revolute("r", Ground, [3]float64{}, [3]float64{0, 0, 1}, body)
		m.KnifeEdge("blade", c.frame, [3]float64{}, c.n)
		if _, err := m.System(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

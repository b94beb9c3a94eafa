package joint

import (
	"math"
	"math/rand/v2"
	"testing"

	"linkage/dae"
)

// TestInitializeTreeByMassSolve: dae.Initialize on a tree without cut joints or drives
// takes eq. 17 (M a = f) from MassSolve; its accelerations are those of the dense LU of
// the composite-rigid-body M (MassSolve hidden) to 1e-10.
func TestInitializeTreeByMassSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	body := Body{Mass: 1.3, COM: [3]float64{0.2, 0.1, 0}, Inertia: [3][3]float64{{0.3, 0.01, 0}, {0.01, 0.2, 0}, {0, 0, 0.25}}}
	m := &Model{Gravity: [3]float64{0, -9.81, -1}}
	f := m.Spherical("s1", Ground, [3]float64{}, body)
	f = m.Revolute("r2", f, [3]float64{0.5, 0, 0}, [3]float64{0, 1, 0}, body)
	m.Universal("u3", f, [3]float64{0.5, 0.1, 0}, [3]float64{1, 0, 0}, [3]float64{0, 0, 1}, body)
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	q, v := randomState(rng, nq)
	fast, err := dae.Initialize(sys, 0, q, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	dense, err := dae.Initialize(struct{ dae.System }{sys}, 0, q, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fast.A {
		if math.Abs(fast.A[i]-dense.A[i]) > 1e-10*math.Max(1, math.Abs(dense.A[i])) {
			t.Errorf("a[%d] = %.12g by MassSolve, %.12g by the dense M", i, fast.A[i], dense.A[i])
		}
	}
}

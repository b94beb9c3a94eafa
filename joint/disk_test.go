package joint

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// diskTree is randomTree with a knife edge and two rolling disks: one on the free branch's
// revolute frame and one on the universal joint's frame (a path of revolute, prismatic,
// spherical and universal joints), their axes near horizontal.
func diskTree(t *testing.T, rng *rand.Rand) (sys *System, nq int, q, v []float64) {
	t.Helper()
	m := randomTree(rng)
	m.KnifeEdge("blade", m.Coordinate("s3.y"), [3]float64{0.1, 0.2, 0}, [3]float64{0, 1, 0})
	m.RollingDisk("wheel", m.Coordinate("r6"), [3]float64{0.1, -0.2, 0.3}, [3]float64{1, 0.1, 0.2}, 0.3)
	m.RollingDisk("roller", m.Coordinate("u4.2"), [3]float64{-0.1, 0.2, 0}, [3]float64{0.1, 1, -0.2}, 0.2)
	return systemAt(t, rng, m)
}

// TestRollingDiskDerivatives: by dae.Check at random states, the holonomic rows' G, γ and
// ∂(Gᵀλ)/∂q and the Pfaffian rows' ∂(A v)/∂q, ∂(Aᵀμ)/∂q and γ_A against central
// differences, to 1e-6 relative; the rows are named NAME.h, NAME.x, NAME.y.
func TestRollingDiskDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	for trial := 0; trial < 4; trial++ {
		sys, nq, q, v := diskTree(t, rng)
		checkAgainstDifferences(t, rng, sys, nq, q, v, "G = dg/dq", "gamma", "d(G^T lambda)/dq", "d(A v + b)/dq", "d(A^T mu)/dq", "gamma_A")
	}
	sys, _, _, _ := diskTree(t, rng)
	var names []string
	for k := range sys.NumPfaffian() {
		names = append(names, sys.PfaffianName(k))
	}
	_, nc := sys.Size()
	for i := range nc {
		if n := sys.ConstraintName(i); strings.HasSuffix(n, ".h") {
			names = append(names, n)
		}
	}
	if got := strings.Join(names, " "); got != "blade.n wheel.x wheel.y roller.x roller.y wheel.h roller.h" {
		t.Errorf("rows named %q", got)
	}
}

// TestRollingDiskRows: at random states the holonomic row is the height of the rim's
// lowest point, z_C − r √(1 − u_z²), and the Pfaffian rows the horizontal velocity of the
// disk's material point there, v_C + ω × (P − C), computed from FrameMotion
// independently of the row code, to 1e-12.
func TestRollingDiskRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 21))
	m := randomTree(rng)
	f, c, n, r := m.Coordinate("r6"), [3]float64{0.1, -0.2, 0.3}, vec3{1, 0.1, 0.2}, 0.3
	m.RollingDisk("wheel", f, c, n, r)
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := sys.Size()
	g, A, b := make([]float64, nc), mat.NewDense(2, nq, nil), make([]float64, 2)
	for trial := 0; trial < 5; trial++ {
		q, v := randomState(rng, nq)
		sys.Constraint(g, 0, q)
		sys.Pfaffian(A, b, 0, q)
		fm := sys.FrameMotion(q, v, nil, f, c)
		u := mat3(fm.R).mulv(unit(n))
		phi := math.Sqrt(1 - u[2]*u[2])
		rho := vec3{u[2] * u[0], u[2] * u[1], u[2]*u[2] - 1}.scale(r / phi)
		vp := vec3(fm.Vel).add(vec3(fm.Omega).cross(rho))
		if want := fm.Pos[2] - r*phi; math.Abs(g[nc-2]-want) > 1e-12 { // the drive is the last row
			t.Errorf("trial %d: wheel.h = %.15g, want the rim's lowest height %.15g", trial, g[nc-2], want)
		}
		for k := range 2 {
			if got := mat.Dot(A.RowView(k), mat.NewVecDense(nq, v)); math.Abs(got-vp[k]) > 1e-12 {
				t.Errorf("trial %d: row %d: A v = %.15g, want the contact point's velocity %.15g", trial, k, got, vp[k])
			}
		}
	}
}

// TestRollingDiskAllocatesNothing: the rows and all their derivatives allocate nothing.
func TestRollingDiskAllocatesNothing(t *testing.T) {
	sys, nq, q, v := diskTree(t, rand.New(rand.NewPCG(9, 4)))
	nn := sys.NumPfaffian()
	A, R, H := mat.NewDense(nn, nq, nil), mat.NewDense(nn, nq, nil), mat.NewDense(nq, nq, nil)
	b, gamma, mu := make([]float64, nn), make([]float64, nn), make([]float64, nn)
	allocs := testing.AllocsPerRun(10, func() {
		q[0] += 1e-3
		sys.Pfaffian(A, b, 0, q)
		sys.PfaffianGamma(gamma, 0, q, v)
		sys.PfaffianRateDerivative(R, 0, q, v)
		sys.PfaffianForceDerivative(H, 0, q, mu)
	})
	if a := constraintAllocations(sys, nq, q, v); a != 0 || allocs != 0 {
		t.Errorf("rolling disks: %g allocations in the holonomic rows, %g in the Pfaffian rows, want 0", a, allocs)
	}
}

// TestRollingDiskBadInputIsRefusedByName: a disk on the ground, with a zero axis or a
// radius ≤ 0 is refused by System naming it.
func TestRollingDiskBadInputIsRefusedByName(t *testing.T) {
	for _, c := range []struct {
		name  string
		frame int
		n     [3]float64
		r     float64
		want  string
	}{
		{"ground", Ground, [3]float64{1, 0, 0}, 0.3, `rolling disk "wheel": frame -1 is not a moving frame`},
		{"zero axis", 0, [3]float64{}, 0.3, `rolling disk "wheel": zero axis`},
		{"radius", 0, [3]float64{1, 0, 0}, 0, `rolling disk "wheel": radius 0`},
	} {
		m := &Model{}
		m.Free("disk", Ground, [3]float64{}, Body{Name: "d", Mass: 1, Inertia: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 2}}})
		m.RollingDisk("wheel", c.frame, [3]float64{}, c.n, c.r)
		if _, err := m.System(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

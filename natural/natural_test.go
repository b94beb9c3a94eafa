package natural_test

import (
	"math/rand/v2"
	"testing"

	"linkage/dae"
	"linkage/law"
	"linkage/natural"
)

const checkTol = 1e-6

// everything returns a model with every element kind: a crank pinned to the ground, a rod
// pinned to the crank, a slider on the ground's x axis pinned to the rod's far end through
// a third body point (a point the rod holds beyond its basic two), a free body on a
// translational joint, a weld, a distance rod, and every force.
func everything(pose func(k int) (natural.Vec, float64, natural.Vec, float64)) *natural.Model {
	m := natural.NewModel()
	m.SetGravity(natural.Vec{0.3, -9.81})
	body := func(name string, mass, J float64, k int) natural.BodyID {
		p, th, v, w := pose(k)
		return m.AddBody(natural.Body{Name: name, Mass: mass, Inertia: J, Pos: p, Angle: th, Vel: v, AngVel: w})
	}
	crank := body("crank", 2, 0.1, 1)
	rod := body("rod", 3, 0.2, 2)
	slider := body("slider", 1, 0.05, 3)
	free := body("free", 1.5, 0.07, 4)
	stuck := body("stuck", 0.5, 0.01, 5)
	mk := func(name string, b natural.BodyID, x, y, a float64) natural.MarkerID {
		return m.AddMarker(natural.Marker{Name: name, Body: b, Point: natural.Vec{x, y}, Angle: a})
	}
	o := mk("O", natural.Ground, 0.2, -0.1, 0.4)
	c0 := mk("c0", crank, -0.3, 0.05, 0)
	c1 := mk("c1", crank, 0.3, -0.02, 0.2)
	r0 := mk("r0", rod, -0.5, 0, 0)
	r1 := mk("r1", rod, 0.5, 0.1, 0.3)
	r2 := mk("r2", rod, 0.1, -0.2, -0.4)
	s0 := mk("s0", slider, 0.05, 0.02, 0.1)
	line := mk("line", natural.Ground, 0, 0.3, 0.2)
	f0 := mk("f0", free, 0.1, 0.2, -0.3)
	st := mk("st", stuck, 0.2, 0, 0.5)
	pin := m.AddRevolute("pin", o, c0)
	m.AddRevolute("crankpin", c1, r0)
	m.AddRevolute("far", r1, s0)
	m.AddPointOnLine("slot", line, s0)
	slide := m.AddTranslational("slide", r2, f0)
	m.AddWeld("fix", c1, st)
	m.AddDistance("rope", line, f0, 1.2)
	m.AddMotion("drive", pin, law.Sine{Amplitude: 0.1, Omega: 2})
	m.AddMotion("push", slide, law.Sine{Amplitude: 0.05, Omega: 3})
	m.AddTSDA(natural.TSDA{Name: "spring", I: o, J: r1, K: 50, C: 3, FreeLength: 0.5, Actuator: law.Sine{Amplitude: 2, Omega: 1}})
	m.AddRSDA(natural.RSDA{Name: "coil", Joint: 2, K: 20, C: 1, FreeAngle: 0.3})
	m.AddRSDA(natural.RSDA{Name: "coil2", I: r2, J: f0, Spring: law.Polynomial{Coef: []float64{0, 5, 0, 30}}, C: 0.5})
	m.AddBushing(natural.Bushing{Name: "bush", I: c1, J: f0, Kx: 10, Ky: 20, Ktheta: 3, Cx: 1, Cy: 2, Ctheta: 0.3})
	m.AddPointForce("follower", r2, law.Const{Value: 3}, law.Sine{Amplitude: 1, Omega: 2}, false)
	m.AddPointForce("wind", s0, law.Const{Value: -2}, nil, true)
	m.AddTorque("motor", crank, law.Const{Value: 1.5})
	return m
}

func randomPose(rng *rand.Rand) func(k int) (natural.Vec, float64, natural.Vec, float64) {
	return func(int) (natural.Vec, float64, natural.Vec, float64) {
		return natural.Vec{rng.NormFloat64(), rng.NormFloat64()}, rng.NormFloat64() * 2,
			natural.Vec{rng.NormFloat64(), rng.NormFloat64()}, rng.NormFloat64()
	}
}

func randomVec(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

// TestDerivatives: every analytic derivative against central differences (dae.Check, which
// also checks the sparse values and patterns), at states off the constraint manifold, with
// random λ and accelerations, so that every Hessian and coupling term is exercised.
func TestDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 5 {
		sys, err := everything(randomPose(rng)).Assemble()
		if err != nil {
			t.Fatal(err)
		}
		nq, nc := sys.Size()
		q, v := sys.InitialGuess()
		for i := range q {
			q[i] += 0.05 * rng.NormFloat64()
		}
		p := dae.CheckPoint{T: 0.3 * float64(trial), Q: q, V: v, A: randomVec(rng, nq), Lambda: randomVec(rng, nc)}
		if _, err := dae.Check(sys, p, checkTol); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if err := dae.CheckSparse(sys, p); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
	}
}

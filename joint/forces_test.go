package joint

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/law"
)

// withElements adds force elements of every 3D kind to randomTree's model: a TSDA from the
// ground with a polynomial spring, a piecewise damper and an actuator, one between two
// branches, an RSDA, a bushing, point forces and torques in world and frame axes.
func withElements(rng *rand.Rand, m *Model) {
	r3 := func() [3]float64 { return [3]float64{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5} }
	mk := func(f int) Marker {
		return Marker{Frame: f, Point: r3(), X: [3]float64{1, 0, 0}, Y: [3]float64{0, 0.8, 0.6}, Z: [3]float64{0, -0.6, 0.8}}
	}
	tip, branch := m.Coordinate("u4.2"), m.Coordinate("r6")
	damper, err := law.NewPiecewise([]float64{-0.2, 0.21}, []law.Polynomial{{Coef: []float64{0.1, 2}}, {Coef: []float64{0, 3, 0, 0, 1}}, {Coef: []float64{0.2, 2}}})
	if err != nil {
		panic(err)
	}
	m.TSDA("strut", mk(Ground), mk(tip), SpringDamper{Free: 0.3, Spring: law.Polynomial{Coef: []float64{0, 40, 0, 7}}, Damper: damper,
		Actuator: law.Sine{Amplitude: 2, Omega: 3}})
	m.TSDA("link", mk(tip), mk(branch), SpringDamper{K: 30, C: 0.5, Free: 0.1})
	m.RSDA("twist", mk(m.Coordinate("s3.y")), mk(branch), SpringDamper{K: 4, C: 0.3, Free: 0.2, Actuator: law.Const{Value: 0.5}})
	m.Bushing("mount", mk(m.Coordinate("p2")), mk(tip), [3]float64{50, 60, 70}, [3]float64{1, 2, 3}, [3]float64{5, 6, 7}, [3]float64{0.1, 0.2, 0.3})
	m.PointForce("push", mk(branch), [3]law.Func{law.Const{Value: 1}, law.Sine{Amplitude: 2, Omega: 1}, law.Const{Value: -3}}, false)
	m.PointForce("thrust", mk(tip), [3]law.Func{law.Const{Value: 2}, nil, law.Const{Value: 1}}, true)
	m.Torque("motor", mk(m.Coordinate("r1")), [3]law.Func{law.Const{Value: 0.4}, nil, law.Const{Value: -1}}, false)
	m.Torque("spin", mk(branch), [3]law.Func{nil, law.Const{Value: 0.7}, law.Const{Value: 0.2}}, true)
}

// planarTree is a planar tree of revolute (about z) and prismatic joints with the planar
// elements (PlanarRSDA, PlanarBushing), a TSDA, a point force in frame axes and a torque.
func planarTree(rng *rand.Rand) *Model {
	bar := func(name string) Body {
		return Body{Name: name, Mass: 0.5 + rng.Float64(), COM: [3]float64{rng.Float64() - 0.5, 0.3, 0}, Inertia: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 0.2 + rng.Float64()}}}
	}
	z := [3]float64{0, 0, 1}
	m := &Model{Gravity: [3]float64{0, -9.81}}
	a := m.Revolute("a", Ground, [3]float64{0.1, 0.2}, z, bar("A"))
	b := m.Prismatic("b", a, [3]float64{1, 0}, [3]float64{0.6, 0.8}, bar("B"))
	c := m.Revolute("c", b, [3]float64{0.5, 0.1}, [3]float64{0, 0, -1}, bar("C"))
	d := m.Revolute("d", a, [3]float64{-0.4, 0.3}, z, bar("D"))
	x, y := [3]float64{0.8, 0.6}, [3]float64{-0.6, 0.8}
	mk := func(f int, px, py float64) Marker {
		return Marker{Frame: f, Point: [3]float64{px, py}, X: x, Y: y, Z: z}
	}
	m.PlanarRSDA("wind", a, c, 0.3, SpringDamper{K: 3, C: 0.2, Free: 0.1, Spring: law.Polynomial{Coef: []float64{0, 3, 0, 2}}})
	m.PlanarBushing("pad", mk(d, 0.1, 0.2), mk(c, -0.2, 0.3), 0.4, [3]float64{40, 50, 6}, [3]float64{1, 2, 0.3})
	m.TSDA("spring", mk(Ground, 1, 1), mk(c, 0.3, 0), SpringDamper{K: 20, C: 0.4, Free: 0.5})
	m.PointForce("push", mk(d, 0.2, 0.1), [3]law.Func{law.Const{Value: 1}, law.Const{Value: -2}}, true)
	m.Torque("motor", mk(c, 0, 0), [3]law.Func{nil, nil, law.Sine{Amplitude: 0.5, Omega: 2}}, false)
	return m
}

// elementSystem returns the System of m, with withElements' force elements added when
// elements is true, at a random state.
func elementSystem(t *testing.T, rng *rand.Rand, m *Model, elements bool) (sys *System, nq int, q, v []float64) {
	t.Helper()
	if elements {
		withElements(rng, m)
	}
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ = sys.Size()
	q, v = randomState(rng, nq)
	return sys, nq, q, v
}

// TestForceElementDerivatives: ∂f/∂q and ∂f/∂v with every force element kind, 3D (on the
// random tree) and planar, are the central differences of Force (dae.Check, 1e-6).
func TestForceElementDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for trial := 0; trial < 3; trial++ {
		sys, nq, q, v := elementSystem(t, rng, randomTree(rng), true)
		checkAgainstDifferences(t, rng, sys, nq, q, v, "df/dq", "df/dv")
		sys, nq, q, v = elementSystem(t, rng, planarTree(rng), false)
		checkAgainstDifferences(t, rng, sys, nq, q, v, "df/dq", "df/dv")
	}
}

// TestForceElementPowerBalance: the elements' generalized force Q (Force with them minus
// Force without) does the work vᵀQ = P_nc − dV/dt, with V and P_nc the differences of
// Energy and NonConservativePower with and without them (dV/dt by central differences
// along v): the springs' potential and the dampers', actuators' and loads' power are those
// of the force Force applies.
func TestForceElementPowerBalance(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(seed uint64, elements bool) *Model
	}{
		{"3D", func(seed uint64, elements bool) *Model {
			rng := rand.New(rand.NewPCG(seed, 1))
			m := randomTree(rng)
			if elements {
				withElements(rng, m)
			}
			return m
		}},
		{"planar", func(seed uint64, elements bool) *Model {
			m := planarTree(rand.New(rand.NewPCG(seed, 1)))
			if !elements {
				m.sds, m.loads = nil, nil
			}
			return m
		}},
	} {
		with, err := c.build(3, true).System()
		if err != nil {
			t.Fatal(err)
		}
		without, err := c.build(3, false).System()
		if err != nil {
			t.Fatal(err)
		}
		nq, _ := with.Size()
		q, v := randomState(rand.New(rand.NewPCG(8, 9)), nq)
		tt := 0.7
		f1, f0 := make([]float64, nq), make([]float64, nq)
		with.Force(f1, tt, q, v)
		without.Force(f0, tt, q, v)
		var work float64
		for i := range v {
			work += v[i] * (f1[i] - f0[i])
		}
		elemV := func(q []float64) float64 {
			_, v1 := with.Energy(tt, q, v)
			_, v0 := without.Energy(tt, q, v)
			return v1 - v0
		}
		h := 1e-6
		qp, qm := make([]float64, nq), make([]float64, nq)
		for i := range q {
			qp[i], qm[i] = q[i]+h*v[i], q[i]-h*v[i]
		}
		dV := (elemV(qp) - elemV(qm)) / (2 * h)
		pnc := with.NonConservativePower(tt, q, v) - without.NonConservativePower(tt, q, v)
		if d := math.Abs(work - (pnc - dV)); d > 1e-6*math.Max(1, math.Abs(work)) {
			t.Errorf("%s: vᵀQ = %.10g, P_nc − dV/dt = %.10g − %.10g = %.10g", c.name, work, pnc, dV, pnc-dV)
		}
		if math.Abs(dV) < 1e-3 || math.Abs(pnc) < 1e-3 {
			t.Errorf("%s: dV/dt = %g, P_nc = %g: the check needs both", c.name, dV, pnc)
		}
	}
}

// TestForceElementsAllocateNothing: Force and the force derivatives with every element
// kind allocate nothing once the System exists.
func TestForceElementsAllocateNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 55))
	sys, nq, q, v := elementSystem(t, rng, randomTree(rng), true)
	f := make([]float64, nq)
	J := mat.NewDense(nq, nq, nil)
	a := testing.AllocsPerRun(10, func() {
		q[0] += 1e-3
		sys.Force(f, 0.1, q, v)
		sys.ForceDerivativeQ(J, 0.1, q, v)
		sys.ForceDerivativeV(J, 0.1, q, v)
		sys.Energy(0.1, q, v)
		sys.NonConservativePower(0.1, q, v)
	})
	if a != 0 {
		t.Errorf("force elements: %g allocations, want 0", a)
	}
}

// TestForceElementBadInputIsRefusedByName: an element on a missing frame, and a planar
// angle on a tree with a revolute axis off z, are refused by System naming the element.
func TestForceElementBadInputIsRefusedByName(t *testing.T) {
	body := Body{Name: "b", Mass: 1, Inertia: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	for _, c := range []struct {
		name string
		add  func(m *Model, f int)
		want string
	}{
		{"missing frame", func(m *Model, f int) { m.TSDA("strut", Marker{Frame: f}, Marker{Frame: 7}, SpringDamper{K: 1}) },
			`force element "strut": frame 7 does not exist`},
		{"planar angle in 3D", func(m *Model, f int) { m.PlanarRSDA("wind", Ground, f, 0, SpringDamper{K: 1}) },
			`force element "wind" measures a planar angle, but joint "hinge" turns about`},
	} {
		m := &Model{}
		c.add(m, m.Revolute("hinge", Ground, [3]float64{}, [3]float64{1, 0, 0}, body))
		if _, err := m.System(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestEachForceElementDerivative: every element of withElements and planarTree alone (its
// generalized force Q the difference of Force with it and without any) has ∂Q/∂q and
// ∂Q/∂v equal to the central differences of Q (h = 1e-6) to 1e-6 of their largest entry
// (absolute below 1: a load's ∂Q/∂v is zero), so that no element's error hides under the
// size of the Newton-Euler terms.
func TestEachForceElementDerivative(t *testing.T) {
	names := map[string][]string{
		"3D":     {"strut", "link", "twist", "mount", "push", "thrust", "motor", "spin"},
		"planar": {"wind", "pad", "spring", "push", "motor"},
	}
	build := func(tree string, elements bool) *Model {
		rng := rand.New(rand.NewPCG(17, 18))
		if tree == "planar" {
			m := planarTree(rng)
			if !elements {
				m.sds, m.loads = nil, nil
			}
			return m
		}
		m := randomTree(rng)
		if elements {
			withElements(rng, m)
		}
		return m
	}
	for tree, list := range names {
		bare, err := build(tree, false).System()
		if err != nil {
			t.Fatal(err)
		}
		nq, _ := bare.Size()
		q, v := randomState(rand.New(rand.NewPCG(19, 20)), nq)
		for _, name := range list {
			m := build(tree, true)
			m.sds = slices.DeleteFunc(m.sds, func(e sdElement) bool { return e.name != name })
			m.loads = slices.DeleteFunc(m.loads, func(e loadElement) bool { return e.name != name })
			if len(m.sds)+len(m.loads) == 0 {
				t.Fatalf("%s: no element %q", tree, name)
			}
			sys, err := m.System()
			if err != nil {
				t.Fatal(err)
			}
			for _, wrt := range []string{"q", "v"} {
				if gap := elementDerivativeGap(sys, bare, q, v, wrt); !(gap <= 1e-6) {
					t.Errorf("%s element %q: ∂Q/∂%s off its central differences by %.2e of its size", tree, name, wrt, gap)
				}
			}
		}
	}
}

// elementDerivativeGap returns the largest gap between the analytic ∂Q/∂q (wrt "q") or
// ∂Q/∂v of Q = f_sys − f_bare and its central differences, relative to the largest entry
// of either when it exceeds 1.
func elementDerivativeGap(sys, bare *System, q, v []float64, wrt string) float64 {
	nq := len(q)
	const tt, h = 0.4, 1e-6
	J, J0 := mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	x := q
	if wrt == "q" {
		sys.ForceDerivativeQ(J, tt, q, v)
		bare.ForceDerivativeQ(J0, tt, q, v)
	} else {
		sys.ForceDerivativeV(J, tt, q, v)
		bare.ForceDerivativeV(J0, tt, q, v)
		x = v
	}
	Q := func(at []float64) []float64 {
		qq, vv := q, at
		if wrt == "q" {
			qq, vv = at, v
		}
		f, f0 := make([]float64, nq), make([]float64, nq)
		sys.Force(f, tt, qq, vv)
		bare.Force(f0, tt, qq, vv)
		for i := range f {
			f[i] -= f0[i]
		}
		return f
	}
	var scale, worst float64
	for j := range nq {
		xp, xm := slices.Clone(x), slices.Clone(x)
		xp[j] += h
		xm[j] -= h
		fp, fm := Q(xp), Q(xm)
		for i := range nq {
			an, fd := J.At(i, j)-J0.At(i, j), (fp[i]-fm[i])/(2*h)
			scale = math.Max(scale, math.Max(math.Abs(an), math.Abs(fd)))
			worst = math.Max(worst, math.Abs(an-fd))
		}
	}
	return worst / math.Max(scale, 1) // absolute where Q does not depend on x (a load and v)
}

// TestConservativeWithElements: System.Conservative (the work meter's skip) holds with
// spring elements that have a potential and with nothing else; a damper, an actuator, a
// point force or a joint damper makes it false, and then NonConservativePower is nonzero
// at a moving state, so a wrong true would drop work.
func TestConservativeWithElements(t *testing.T) {
	z := [3]float64{0, 0, 1}
	build := func(add func(m *Model, a, b int)) *System {
		m := &Model{Gravity: [3]float64{0, -9.81}}
		body := Body{Name: "A", Mass: 1, COM: [3]float64{0.5, 0, 0}, Inertia: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 0.1}}}
		a := m.Revolute("a", Ground, [3]float64{}, z, body)
		b := m.Revolute("b", a, [3]float64{1, 0}, z, body)
		add(m, a, b)
		sys, err := m.System()
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	mk := func(f int, px float64) Marker {
		return Marker{Frame: f, Point: [3]float64{px, 0.1}, X: [3]float64{1, 0, 0}, Y: [3]float64{0, 1, 0}, Z: z}
	}
	q, v := []float64{0.3, -0.7}, []float64{1.1, -0.4}
	for _, c := range []struct {
		name         string
		add          func(m *Model, a, b int)
		conservative bool
	}{
		{"spring", func(m *Model, a, b int) { m.TSDA("s", mk(Ground, 1), mk(b, 0.5), SpringDamper{K: 20, Free: 0.5}) }, true},
		{"damper", func(m *Model, a, b int) {
			m.TSDA("s", mk(Ground, 1), mk(b, 0.5), SpringDamper{K: 20, C: 0.3, Free: 0.5})
		}, false},
		{"actuator", func(m *Model, a, b int) {
			m.TSDA("s", mk(Ground, 1), mk(b, 0.5), SpringDamper{K: 20, Free: 0.5, Actuator: law.Const{Value: 2}})
		}, false},
		{"point force", func(m *Model, a, b int) {
			m.PointForce("p", mk(b, 0.5), [3]law.Func{law.Const{Value: 1}, nil, nil}, false)
		}, false},
		{"joint damper", func(m *Model, a, b int) { m.Spring(b, 0, 0.2, 0) }, false},
	} {
		sys := build(c.add)
		p := sys.NonConservativePower(0, q, v)
		if got := sys.Conservative(); got != c.conservative || (got && p != 0) || (!got && p == 0) {
			t.Errorf("%s: Conservative() = %v with P_nc = %g, want %v", c.name, got, p, c.conservative)
		}
	}
}

package dae_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// linkSys is a planar system of point masses held by distance constraints, written for
// these tests. Point k has coordinates q[2k], q[2k+1]; gravity acts in −y. Constraint k is
//
//	g_k = (d·d − l²)/2,   d = Σ_t c_t p_{i_t} − s(t),   s(t) = s0 + amp·sin(ω t),
//
// so that G has c_t·d in the columns of point i_t, G v + g_t = d·w with
// w = Σ c_t v_{i_t} − ṡ, and γ = −w·w + d·s̈. A rod to the ground is one term with c = 1,
// a rod between points two terms with c = ±1, the third crank of a parallelogram attaches
// at the coupler midpoint with c = ½, ½.
type linkSys struct {
	mass  []float64 // per point; 0 is allowed (a massless joint)
	grav  float64
	links []link
	pts   []string // point names, for Namer
}

type link struct {
	name  string
	terms []term
	s0    [2]float64
	amp   [2]float64
	omega float64
	l     float64
}

type term struct {
	pt int
	c  float64
}

func ground(name string, pt int, at [2]float64, l float64) link {
	return link{name: name, terms: []term{{pt, 1}}, s0: at, l: l}
}

func rod(name string, a, b int, l float64) link {
	return link{name: name, terms: []term{{a, 1}, {b, -1}}, l: l}
}

func (s *linkSys) Size() (int, int) { return 2 * len(s.mass), len(s.links) }

func (s *linkSys) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for k, m := range s.mass {
		dst.Set(2*k, 2*k, m)
		dst.Set(2*k+1, 2*k+1, m)
	}
}

func (s *linkSys) Force(dst []float64, t float64, q, v []float64) {
	for k, m := range s.mass {
		dst[2*k] = 0
		dst[2*k+1] = -m * s.grav
	}
}

// geom returns d, w and s̈ of link k.
func (s *linkSys) geom(k int, t float64, q, v []float64) (d, w, sdd [2]float64) {
	L := s.links[k]
	sin, cos := math.Sin(L.omega*t), math.Cos(L.omega*t)
	for c := range 2 {
		d[c] = -(L.s0[c] + L.amp[c]*sin)
		w[c] = -L.amp[c] * L.omega * cos
		sdd[c] = -L.amp[c] * L.omega * L.omega * sin
		for _, tm := range L.terms {
			d[c] += tm.c * q[2*tm.pt+c]
			if v != nil {
				w[c] += tm.c * v[2*tm.pt+c]
			}
		}
	}
	return d, w, sdd
}

func (s *linkSys) Constraint(dst []float64, t float64, q []float64) {
	for k, L := range s.links {
		d, _, _ := s.geom(k, t, q, nil)
		dst[k] = (d[0]*d[0] + d[1]*d[1] - L.l*L.l) / 2
	}
}

func (s *linkSys) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for k, L := range s.links {
		d, _, _ := s.geom(k, t, q, nil)
		for _, tm := range L.terms {
			for c := range 2 {
				dst.Set(k, 2*tm.pt+c, dst.At(k, 2*tm.pt+c)+tm.c*d[c])
			}
		}
	}
}

func (s *linkSys) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	for k, L := range s.links {
		d, _, _ := s.geom(k, t, q, nil)
		sin := math.Cos(L.omega * t)
		dst[k] = -(d[0]*L.amp[0] + d[1]*L.amp[1]) * L.omega * sin
	}
}

func (s *linkSys) Gamma(dst []float64, t float64, q, v []float64) {
	for k := range s.links {
		d, w, sdd := s.geom(k, t, q, v)
		dst[k] = -(w[0]*w[0] + w[1]*w[1]) + d[0]*sdd[0] + d[1]*sdd[1]
	}
}

func (s *linkSys) ConstantMass() bool { return true }

// ConstraintForceDerivative: the Hessian of g_k has c_t·c_u·I in the block of points
// (i_t, i_u).
func (s *linkSys) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Zero()
	for k, L := range s.links {
		for _, a := range L.terms {
			for _, b := range L.terms {
				for c := range 2 {
					i, j := 2*a.pt+c, 2*b.pt+c
					dst.Set(i, j, dst.At(i, j)+lambda[k]*a.c*b.c)
				}
			}
		}
	}
}

func (s *linkSys) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }
func (s *linkSys) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

func (s *linkSys) CoordinateName(i int) string {
	return s.pts[i/2] + [2]string{".x", ".y"}[i%2]
}

func (s *linkSys) ConstraintName(i int) string { return s.links[i].name }

func (s *linkSys) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	for k, m := range s.mass {
		kinetic += m * (v[2*k]*v[2*k] + v[2*k+1]*v[2*k+1]) / 2
		potential += m * s.grav * q[2*k+1]
	}
	return kinetic, potential
}

// pendulum is the Cartesian pendulum q = (x, y), g = (x² + y² − l²)/2, l = 1.
func pendulum() *linkSys {
	return &linkSys{mass: []float64{1}, grav: 9.81, pts: []string{"bob"},
		links: []link{ground("rod", 0, [2]float64{}, 1)}}
}

// chain is n unit point masses hanging by unit rods from an anchor that moves
// horizontally as 0.3·sin(2t), making the first constraint rheonomic.
func chain(n int) (*linkSys, []float64) {
	s := &linkSys{grav: 9.81}
	q := make([]float64, 2*n)
	var x, y float64
	for k := range n {
		s.mass = append(s.mass, 1+0.1*float64(k))
		s.pts = append(s.pts, "p"+string(rune('0'+k)))
		if k == 0 {
			L := ground("rod0", 0, [2]float64{}, 1)
			L.amp, L.omega = [2]float64{0.3, 0}, 2
			s.links = append(s.links, L)
		} else {
			s.links = append(s.links, rod("rod"+string(rune('0'+k)), k, k-1, 1))
		}
		th := 0.2 + 0.15*float64(k)
		x += math.Sin(th)
		y -= math.Cos(th)
		q[2*k], q[2*k+1] = x, y
	}
	return s, q
}

// chainT0 is the time at which chain's consistent configuration (anchor at 0) is built.
const chainT0 = 0

// fourBar is the parallelogram four-bar: cranks A–B and D–C of length 1 on ground pivots
// A = (0,0), D = (2,0), coupler B–C of length 2. Row 3 repeats the coupler, as a model
// file listing the same link twice would. q is consistent at crank angle φ = 1.
func fourBar(copyLength float64) (*linkSys, []float64) {
	s := &linkSys{mass: []float64{1, 2}, grav: 9.81, pts: []string{"B", "C"},
		links: []link{
			ground("crank", 0, [2]float64{0, 0}, 1),
			rod("coupler", 0, 1, 2),
			ground("rocker", 1, [2]float64{2, 0}, 1),
			rod("coupler-copy", 0, 1, copyLength),
		}}
	phi := 1.0
	q := []float64{math.Cos(phi), math.Sin(phi), 2 + math.Cos(phi), math.Sin(phi)}
	return s, q
}

// perturb returns x + δ·u with u uniform in [−1, 1].
func perturb(rng *rand.Rand, x []float64, delta float64) []float64 {
	y := make([]float64, len(x))
	for i := range x {
		y[i] = x[i] + delta*(2*rng.Float64()-1)
	}
	return y
}

// residuals holds the consistency measures of a state: position and velocity
// constraints, and the two block rows of eq. 17 with the scales they are relative to.
type residuals struct {
	pos, vel           float64
	dyn, dynScale      float64 // ‖M a + Gᵀλ − f‖∞ and max(‖f‖∞, ‖M a‖∞, ‖Gᵀλ‖∞)
	acc, accScale      float64 // ‖G a − γ‖∞ and max(‖G‖∞‖a‖∞, ‖γ‖∞)
	worstPos, worstVel int
}

func measure(sys dae.System, t float64, c dae.Consistent) residuals {
	nq, nc := sys.Size()
	var r residuals
	M := mat.NewDense(nq, nq, nil)
	sys.Mass(M, t, c.Q)
	f := make([]float64, nq)
	sys.Force(f, t, c.Q, c.V)
	ma := make([]float64, nq)
	gl := make([]float64, nq)
	for i := range nq {
		for j := range nq {
			ma[i] += M.At(i, j) * c.A[j]
		}
	}
	var Gn, an float64
	for _, x := range c.A {
		an = math.Max(an, math.Abs(x))
	}
	if nc > 0 {
		G := mat.NewDense(nc, nq, nil)
		sys.ConstraintJacobian(G, t, c.Q)
		g, gt, gam := make([]float64, nc), make([]float64, nc), make([]float64, nc)
		sys.Constraint(g, t, c.Q)
		sys.ConstraintTimeDerivative(gt, t, c.Q)
		sys.Gamma(gam, t, c.Q, c.V)
		for i := range nc {
			gv, ga, rs := gt[i], -gam[i], 0.0
			for j := range nq {
				gv += G.At(i, j) * c.V[j]
				ga += G.At(i, j) * c.A[j]
				gl[j] += G.At(i, j) * c.Lambda[i]
				rs += math.Abs(G.At(i, j))
			}
			Gn = math.Max(Gn, rs)
			if math.Abs(g[i]) > r.pos {
				r.pos, r.worstPos = math.Abs(g[i]), i
			}
			if math.Abs(gv) > r.vel {
				r.vel, r.worstVel = math.Abs(gv), i
			}
			r.acc = math.Max(r.acc, math.Abs(ga))
			r.accScale = math.Max(r.accScale, math.Abs(gam[i]))
		}
	}
	r.accScale = math.Max(r.accScale, Gn*an)
	for i := range nq {
		r.dyn = math.Max(r.dyn, math.Abs(ma[i]+gl[i]-f[i]))
		r.dynScale = math.Max(r.dynScale, math.Max(math.Abs(f[i]), math.Max(math.Abs(ma[i]), math.Abs(gl[i]))))
	}
	return r
}

// checkConsistent asserts the targets every successful Initialize must meet.
func checkConsistent(t *testing.T, sys dae.System, t0 float64, q, v []float64, c dae.Consistent) {
	t.Helper()
	r := measure(sys, t0, c)
	// 1e-12: the brief's target for unit-size models; Newton's last step from ~1e-8 lands
	// at rounding level (~1e-15), so this holds with a wide margin.
	if r.pos > 1e-12 {
		t.Errorf("position residual %s = %.3g, want < 1e-12", dae.ConstraintName(sys, r.worstPos), r.pos)
	}
	// 1e-12: the same target; v̂ comes from one LU solve, backward error ~1e-16·‖G‖‖v‖.
	if r.vel > 1e-12 {
		t.Errorf("velocity residual %s = %.3g, want < 1e-12", dae.ConstraintName(sys, r.worstVel), r.vel)
	}
	// 1e-12 relative: LU with partial pivoting of eq. 17 is backward stable; its residual
	// is a few ulps of the largest term for these well-conditioned matrices.
	if r.dyn > 1e-12*r.dynScale {
		t.Errorf("‖M a + Gᵀλ − f‖∞ = %.3g, want < 1e-12·%.3g", r.dyn, r.dynScale)
	}
	// 1e-10 relative: the brief's target for the acceleration constraint; the forward
	// error of a carries the condition of [M Gᵀ; G 0] (rcond ≥ 0.04 for these models).
	if r.acc > 1e-10*r.accScale {
		t.Errorf("‖G a − γ‖∞ = %.3g, want < 1e-10·%.3g", r.acc, r.accScale)
	}
	for _, j := range c.Independent {
		if c.Q[j] != q[j] || c.V[j] != v[j] {
			t.Errorf("independent coordinate %s changed: q %v → %v, v %v → %v",
				dae.CoordinateName(sys, j), q[j], c.Q[j], v[j], c.V[j])
		}
	}
	nq, nc := sys.Size()
	if len(c.Independent)+len(c.Dependent) != nq {
		t.Errorf("%d independent + %d dependent coordinates, want nq = %d", len(c.Independent), len(c.Dependent), nq)
	}
	if len(c.Dependent) != nc-len(c.Redundant) {
		t.Errorf("%d dependent coordinates, want nc − redundant = %d", len(c.Dependent), nc-len(c.Redundant))
	}
	for _, i := range c.Redundant {
		if c.Lambda[i] != 0 {
			t.Errorf("λ of redundant row %s = %g, want 0", dae.ConstraintName(sys, i), c.Lambda[i])
		}
	}
}

func TestInitializePendulum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sys := pendulum()
	th := 0.3
	q := perturb(rng, []float64{math.Sin(th), -math.Cos(th)}, 1e-2)
	v := perturb(rng, []float64{0, 0}, 1)
	for _, tc := range []struct {
		keep []int
		dep  int // |y| > |x| at θ = 0.3, so the pivoting solves for y unless y is kept
	}{{nil, 1}, {[]int{1}, 0}} {
		c, err := dae.Initialize(sys, 0, q, v, &dae.InitOptions{Keep: tc.keep})
		if err != nil {
			t.Fatalf("keep %v: %v", tc.keep, err)
		}
		if !slices.Equal(c.Dependent, []int{tc.dep}) {
			t.Errorf("keep %v: dependent coordinates %v, want [%d]", tc.keep, c.Dependent, tc.dep)
		}
		checkConsistent(t, sys, 0, q, v, c)
		// The exact solution of x² + y² = 1 with the other coordinate fixed; 4e-16 is two
		// ulps of a unit number (the sqrt and the Newton rounding).
		other := 1 - tc.dep
		exact := math.Copysign(math.Sqrt(1-q[other]*q[other]), q[tc.dep])
		if d := math.Abs(c.Q[tc.dep] - exact); d > 4e-16 {
			t.Errorf("keep %v: q[%d] = %.17g, exact %.17g (error %.2g)", tc.keep, tc.dep, c.Q[tc.dep], exact, d)
		}
		// Newton converges quadratically from ‖g‖ ≈ 1e-2: 1e-4, 1e-8, 1e-16, plus margin.
		if c.Iterations < 1 || c.Iterations > 5 {
			t.Errorf("keep %v: %d Newton iterations, want 1..5", tc.keep, c.Iterations)
		}
		// λ from G a = γ = −|v|² with a = (f − Gᵀλ)/m, G = (x, y), f = (0, −m·grav):
		//	λ = (m|v|² − m·grav·y) / (x² + y²)
		// 1e-14 relative: a few roundings of the formula and of the KKT solve.
		x, y, vx, vy := c.Q[0], c.Q[1], c.V[0], c.V[1]
		want := (vx*vx + vy*vy - 9.81*y) / (x*x + y*y)
		if d := math.Abs(c.Lambda[0] - want); d > 1e-14*want {
			t.Errorf("keep %v: λ = %.17g, want %.17g", tc.keep, c.Lambda[0], want)
		}
	}
}

func TestInitializeChain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sys, q0 := chain(5)
	q := perturb(rng, q0, 1e-2)
	v := perturb(rng, make([]float64, len(q0)), 1)
	g := make([]float64, 5)
	sys.Constraint(g, chainT0, q)
	if n := maxAbs(g); n < 1e-3 || n > 5e-2 {
		t.Fatalf("perturbed guess has ‖g‖∞ = %.3g, want ~1e-2", n)
	}
	c, err := dae.Initialize(sys, chainT0, q, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Redundant) != 0 {
		t.Errorf("redundant rows %v in a chain, want none", c.Redundant)
	}
	checkConsistent(t, sys, chainT0, q, v, c)

	// Rheonomic anchor: at t0 = 0.7 the anchor moves with ṡ = 0.6·cos(1.4), so g_t ≠ 0.
	const t0 = 0.7
	qs := append([]float64(nil), q...)
	for k := range 5 {
		qs[2*k] += 0.3 * math.Sin(2*t0)
	}
	c, err = dae.Initialize(sys, t0, qs, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkConsistent(t, sys, t0, qs, v, c)

	// Keep every x: the chain's dependent coordinates must then be its y's.
	keep := []int{0, 2, 4, 6, 8}
	c, err = dae.Initialize(sys, t0, qs, v, &dae.InitOptions{Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Independent, keep) {
		t.Errorf("Keep %v: independent coordinates %v", keep, c.Independent)
	}
	checkConsistent(t, sys, t0, qs, v, c)
}

func maxAbs(x []float64) float64 {
	var m float64
	for _, e := range x {
		m = math.Max(m, math.Abs(e))
	}
	return m
}

func TestInitializeRedundantFourBar(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sys, q0 := fourBar(2)
	q := perturb(rng, q0, 1e-2)
	v := perturb(rng, make([]float64, 4), 1)
	c, err := dae.Initialize(sys, 0, q, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Redundant, []int{3}) {
		t.Errorf("redundant rows %v, want [3] (coupler-copy)", c.Redundant)
	}
	if !slices.Equal(c.KeptRows(), []int{0, 1, 2}) {
		t.Errorf("KeptRows %v, want [0 1 2]", c.KeptRows())
	}
	rep := c.Report(sys)
	if !strings.Contains(rep, "redundant constraints: coupler-copy") {
		t.Errorf("report %q does not name coupler-copy as redundant", rep)
	}
	checkConsistent(t, sys, 0, q, v, c)

	// The reduced system's [M Gᵀ; G 0] is non-singular; the full one is singular (two
	// equal rows of G). RCond thresholds: 1e-3 is far below the reduced matrix's 0.046
	// (masses 1-2, |G| ~ 2); 1e-14 is rounding level for the full one.
	red := dae.Reduce(sys, c.KeptRows())
	if rc, err := kktRCond(red, c.Q); err != nil || rc < 1e-3 {
		t.Errorf("reduced KKT: rcond %.3g, err %v; want non-singular", rc, err)
	}
	if rc, err := kktRCond(sys, c.Q); err == nil && rc > 1e-14 {
		t.Errorf("full KKT with the duplicated row: rcond %.3g, want singular", rc)
	}

	// Initializing the reduced system from the same guess finds no redundancy and the
	// same state.
	c2, err := dae.Initialize(red, 0, q, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c2.Redundant) != 0 || !slices.Equal(c2.Q, c.Q) || !slices.Equal(c2.V, c.V) {
		t.Errorf("reduced system: redundant %v, q %v, v %v; want none, %v, %v", c2.Redundant, c2.Q, c2.V, c.Q, c.V)
	}
}

// kktRCond factorizes [M Gᵀ; G 0] of sys at q and returns its reciprocal condition.
func kktRCond(sys dae.System, q []float64) (float64, error) {
	nq, nc := sys.Size()
	M := mat.NewDense(nq, nq, nil)
	G := mat.NewDense(nc, nq, nil)
	sys.Mass(M, 0, q)
	sys.ConstraintJacobian(G, 0, q)
	K := mat.NewDense(nq+nc, nq+nc, nil)
	K.Slice(0, nq, 0, nq).(*mat.Dense).Copy(M)
	K.Slice(0, nq, nq, nq+nc).(*mat.Dense).Copy(G.T())
	K.Slice(nq, nq+nc, 0, nq).(*mat.Dense).Copy(G)
	anorm := mat.Norm(K, 1)
	k := linalg.NewKKT(nq, nc)
	if err := k.FactorizeSym(M, G); err != nil {
		return 0, err
	}
	return k.LU().RCond(anorm), nil
}

// TestInitializeThirdCrank documents the limit of judging redundancy at the guess: the
// parallelogram's third crank (coupler midpoint to ground at (1, 0)) depends on the other
// rows only on the constraint manifold.
func TestInitializeThirdCrank(t *testing.T) {
	sys, q0 := fourBar(2)
	sys.links[3] = link{name: "third-crank", terms: []term{{0, 0.5}, {1, 0.5}}, s0: [2]float64{1, 0}, l: 1}
	rng := rand.New(rand.NewPCG(7, 8))
	v := perturb(rng, make([]float64, 4), 1)
	// From consistent positions the dependence is exact to rounding and detected.
	c, err := dae.Initialize(sys, 0, q0, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Redundant) != 1 {
		t.Errorf("consistent guess: redundant rows %v, want one", c.Redundant)
	}
	checkConsistent(t, sys, 0, q0, v, c)
	// From a perturbed guess all four rows look independent; Initialize must fail with an
	// error rather than return an inconsistent state.
	q := perturb(rng, q0, 1e-2)
	if _, err := dae.Initialize(sys, 0, q, v, nil); err == nil {
		t.Errorf("perturbed guess with a third crank: no error")
	} else if !strings.HasPrefix(err.Error(), "dae: initialize:") || !strings.Contains(err.Error(), "have rank 3 < 4") {
		t.Errorf("error %q, want the rank drop 4 → 3 at the solution", err)
	}
}

func TestInitializeInconsistent(t *testing.T) {
	sys, q0 := fourBar(2.1)
	sys.links[3].name = "coupler-long"
	rng := rand.New(rand.NewPCG(9, 10))
	q := perturb(rng, q0, 1e-2)
	_, err := dae.Initialize(sys, 0, q, make([]float64, 4), nil)
	if err == nil {
		t.Fatal("coupler of lengths 2 and 2.1: no error")
	}
	msg := err.Error()
	for _, want := range []string{"dae: initialize:", "inconsistent", "coupler-long", "coupler"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not contain %q", msg, want)
		}
	}
	// g_copy = (4 − 4.41)/2 = −0.205 once the coupler has length 2.
	if !strings.Contains(msg, "-0.205") {
		t.Errorf("error %q does not give the residual −0.205", msg)
	}
}

func TestInitializeGuessTooFar(t *testing.T) {
	sys := pendulum()
	// With x = 2 kept, x² + y² = 1 has no real y: Newton cannot converge.
	_, err := dae.Initialize(sys, 0, []float64{2, 0.1}, []float64{0, 0}, &dae.InitOptions{Keep: []int{0}})
	if err == nil {
		t.Fatal("x = 2 kept on a unit pendulum: no error")
	}
	msg := err.Error()
	// g at the guess: (4 + 0.01 − 1)/2 = 1.505.
	for _, want := range []string{"dae: initialize:", "guess too far", "rod = 1.5"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not contain %q", msg, want)
		}
	}
}

func TestInitializeNonFinite(t *testing.T) {
	sys, q0 := fourBar(2)
	q := append([]float64(nil), q0...)
	q[3] = math.NaN()
	_, err := dae.Initialize(sys, 0, q, make([]float64, 4), nil)
	if err == nil || !strings.Contains(err.Error(), "C.y") || !strings.HasPrefix(err.Error(), "dae: initialize:") {
		t.Errorf("NaN in C.y: error %v, want one naming C.y", err)
	}
	v := make([]float64, 4)
	v[0] = math.Inf(1)
	_, err = dae.Initialize(sys, 0, q0, v, nil)
	if err == nil || !strings.Contains(err.Error(), "velocity of coordinate B.x") {
		t.Errorf("Inf in v of B.x: error %v, want one naming B.x", err)
	}
}

func TestInitializeOptions(t *testing.T) {
	sys := pendulum()
	q, v := []float64{0.3, -0.95}, []float64{0, 0}
	for _, tc := range []struct {
		opt  dae.InitOptions
		want string
	}{
		{dae.InitOptions{RankTol: 2}, "RankTol = 2"},
		{dae.InitOptions{Tol: -1}, "Tol = -1"},
		{dae.InitOptions{MaxIters: -3}, "MaxIters = -3"},
		{dae.InitOptions{Keep: []int{0, 5}}, "Keep[1] = 5"},
	} {
		_, err := dae.Initialize(sys, 0, q, v, &tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("options %+v: error %v, want one containing %q", tc.opt, err, tc.want)
		}
	}
	// A loose Tol stops Newton early: one step takes ‖g‖ = 3.75e-3 to ~1e-5 < 1e-4.
	c, err := dae.Initialize(sys, 0, q, v, &dae.InitOptions{Tol: 1e-4})
	if err != nil || c.Iterations != 1 {
		t.Errorf("Tol = 1e-4: %d iterations, error %v; want 1, nil", c.Iterations, err)
	}
	// MaxIters = 1 cannot reach 1e-12 from ‖g‖ = 3.75e-3.
	_, err = dae.Initialize(sys, 0, q, v, &dae.InitOptions{MaxIters: 1})
	if err == nil || !strings.Contains(err.Error(), "MaxIters = 1") {
		t.Errorf("MaxIters = 1: error %v, want one naming MaxIters", err)
	}
}

// TestInitializeMassMatrix covers eq. 17 with a singular M: a massless elbow between two
// rods is fine (M is positive definite on ker G), a massless bob is not.
func TestInitializeMassMatrix(t *testing.T) {
	sys := &linkSys{mass: []float64{0, 1}, grav: 9.81, pts: []string{"elbow", "hand"},
		links: []link{ground("upper", 0, [2]float64{}, 1), rod("lower", 1, 0, 1)}}
	q := []float64{math.Sin(0.4), -math.Cos(0.4), math.Sin(0.4) + math.Sin(1.1), -math.Cos(0.4) - math.Cos(1.1)}
	v := []float64{0.1, 0.2, -0.3, 0.5}
	c, err := dae.Initialize(sys, 0, q, v, nil)
	if err != nil {
		t.Fatalf("massless elbow: %v", err)
	}
	checkConsistent(t, sys, 0, q, v, c)

	bob := pendulum()
	bob.mass[0] = 0
	_, err = dae.Initialize(bob, 0, []float64{0.3, -0.95}, []float64{0, 0}, nil)
	if err == nil || !strings.Contains(err.Error(), "not positive definite on ker G") || !errors.Is(err, linalg.ErrSingular) {
		t.Errorf("massless bob: error %v, want singular eq. 17 wrapping linalg.ErrSingular", err)
	}
}

// TestInitializeUnconstrained: nc = 0 gives a = M⁻¹ f and keeps q and v.
func TestInitializeUnconstrained(t *testing.T) {
	sys := &linkSys{mass: []float64{2}, grav: 9.81, pts: []string{"ball"}}
	c, err := dae.Initialize(sys, 0, []float64{1, 2}, []float64{3, 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// a = f/m = (0, −9.81) up to one rounding of the LU solve.
	if math.Abs(c.A[0]) > 1e-15 || math.Abs(c.A[1]+9.81) > 2e-15 || len(c.Lambda) != 0 {
		t.Errorf("free fall: a = %v, λ = %v; want (0, −9.81), []", c.A, c.Lambda)
	}
}

// TestInitializeZeroGradient: at the pendulum's pivot G = 0, so no coordinate can be
// solved for and g = −½ cannot be reduced.
func TestInitializeZeroGradient(t *testing.T) {
	_, err := dae.Initialize(pendulum(), 0, []float64{0, 0}, []float64{0, 0}, nil)
	if err == nil || !strings.Contains(err.Error(), "rod = -0.5 cannot be satisfied") {
		t.Errorf("guess at the pivot: error %v, want one naming rod = -0.5", err)
	}
}

// TestInitializeOverdeterminedKeep: keeping more coordinates than the mechanism's degrees
// of freedom (both coordinates of a pendulum's bob, 1 DOF) with a guess off the constraints
// is an error naming the kept coordinates, the DOF and the coordinate that would move,
// never a silent move (issue 13, item 7); with a consistent guess the kept coordinates keep
// their values and Consistent reports the over-determined Keep.
func TestInitializeOverdeterminedKeep(t *testing.T) {
	sys := pendulum()
	_, err := dae.Initialize(sys, 0, []float64{0.5, -0.5}, []float64{0, 0}, &dae.InitOptions{Keep: []int{0, 1}})
	if err == nil {
		t.Fatal("two kept coordinates of a 1-DOF pendulum with a guess off the circle: no error")
	}
	for _, want := range []string{"dae: initialize: over-determined Keep: 2 coordinates kept (bob.x, bob.y)",
		"1 degree of freedom (nq − rank G = 2 − 1)", "bob.x would move from 0.5 to 0.866025", "keep at most 1 coordinate"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	th, w := 0.3, 2.0
	q := []float64{math.Sin(th), -math.Cos(th)}
	v := []float64{w * math.Cos(th), w * math.Sin(th)}
	c, err := dae.Initialize(sys, 0, q, v, &dae.InitOptions{Keep: []int{0, 1}})
	if err != nil {
		t.Fatalf("consistent guess with both coordinates kept: %v", err)
	}
	for i := range q {
		// 4e-16: two ulps of the unit-sized q and v (the velocity solve rounds).
		if math.Abs(c.Q[i]-q[i]) > 4e-16 || math.Abs(c.V[i]-v[i]) > 4e-16*math.Abs(v[i]) {
			t.Errorf("a consistent guess moved: q %v → %v, v %v → %v", q, c.Q, v, c.V)
		}
	}
	if len(c.KeptSolved) != 1 {
		t.Errorf("KeptSolved %v, want one of the two kept coordinates", c.KeptSolved)
	}
	if r := c.Report(sys); !strings.Contains(r, "over-determined keep: bob.") {
		t.Errorf("report %q does not warn of the over-determined keep", r)
	}
}

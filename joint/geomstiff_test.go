package joint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// stiffnessDense returns Σ_m Φ_mᵀ K_m Φ_m (nt × nt) from the body matrices kg at the
// kinematics in sys: Φ_m's column j is the angular part of the axis s_j of every revolute
// ancestor j of m (m included), zero for prismatic ones.
func stiffnessDense(sys *System, kg []float64) *mat.Dense {
	n := len(sys.m.prims)
	K := mat.NewDense(n, n, nil)
	phi := make([]vec3, n)
	for m := range n {
		clear(phi)
		for j := m; j != Ground; j = sys.m.prims[j].parent {
			phi[j] = sys.w.s[j].ang()
		}
		var Km mat3
		for r := range 3 {
			for c := range 3 {
				Km[r][c] = kg[kgSize*m+3*r+c]
			}
		}
		for i := range n {
			if phi[i] == (vec3{}) {
				continue
			}
			Kp := Km.mulv(phi[i])
			for j := range n {
				K.Set(j, i, K.At(j, i)+phi[j].dot(Kp))
			}
		}
	}
	return K
}

// TestStiffMassSolveMatchesDense: StiffMassSolve gives the solution of the dense
// (M + k Σ Φᵀ K_m Φ) x = b (composite-rigid-body M, the K_m GeometricStiffness writes) to
// 1e-10 on random states of randomTree (every joint kind, a branch, drives, a loop closed
// by cut rows whose random multipliers load the bodies) and of a spherical chain, and
// AddGeometricStiffnessMul the dense product k Σ Φᵀ K_m Φ x to 1e-10.
func TestStiffMassSolveMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 6 {
		sys, nq, q, v := randomTreeOrChain(t, rng, trial)
		a, b, x := make([]float64, nq), make([]float64, nq), make([]float64, nq)
		sys.Accelerations(a, 0, q, v)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		lambda := randomMultipliers(sys, rng)
		kg := make([]float64, sys.GeometricStiffnessLen())
		sys.GeometricStiffness(kg, 0, q, v, a, lambda)
		k := 0.5 + rng.Float64()
		sys.StiffMassSolve(x, 0, q, b, nil, kg, k)
		P := mat.NewDense(nq, nq, nil)
		sys.Mass(P, 0, q)
		sys.m.kinematics(sys.w, q, nil)
		Kd := stiffnessDense(sys, kg)
		Kd.Scale(k, Kd)
		P.Add(P, Kd)
		var want mat.VecDense
		if err := want.SolveVec(P, mat.NewVecDense(nq, b)); err != nil {
			t.Fatal(err)
		}
		for i := range x {
			if d := math.Abs(x[i] - want.AtVec(i)); d > 1e-10*math.Max(1, math.Abs(want.AtVec(i))) {
				t.Errorf("trial %d: x[%d] = %.15g, dense solve %.15g", trial, i, x[i], want.AtVec(i))
			}
		}
		// AddGeometricStiffnessMul is the product with the same k K_g.
		Kx := append([]float64(nil), b...)
		sys.AddGeometricStiffnessMul(Kx, 0, q, x, kg, k)
		var want2 mat.VecDense
		want2.MulVec(Kd, mat.NewVecDense(nq, x))
		for i := range Kx {
			if d := math.Abs(Kx[i] - b[i] - want2.AtVec(i)); d > 1e-10*math.Max(1, math.Abs(want2.AtVec(i))) {
				t.Errorf("trial %d: (k K_g x)[%d] = %.15g, dense product %.15g", trial, i, Kx[i]-b[i], want2.AtVec(i))
			}
		}
		if mat.Norm(Kd, 2) < 1e-3 {
			t.Errorf("trial %d: ‖k K_g‖ = %g: the test would not see the stiffness", trial, mat.Norm(Kd, 2))
		}
	}
}

// randomMultipliers returns normal random multipliers for sys's rows (nil without rows).
func randomMultipliers(sys *System, rng *rand.Rand) []float64 {
	_, nc := sys.Size()
	if nc == 0 {
		return nil
	}
	lambda := make([]float64, nc)
	for i := range lambda {
		lambda[i] = 10 * rng.NormFloat64()
	}
	return lambda
}

// sphericalChain is a chain of n rods (1 kg, 0.5 m) on spherical joints, under gravity.
func sphericalChain(n int) *Model {
	const l = 0.5
	md := &Model{Gravity: [3]float64{0, 0, -9.81}}
	rod := Body{Mass: 1, COM: [3]float64{l / 2, 0, 0}, Inertia: [3][3]float64{{1e-4, 0, 0}, {0, l * l / 12, 0}, {0, 0, l * l / 12}}}
	f, origin := Ground, [3]float64{}
	for i := range n {
		rod.Name = fmt.Sprint("rod", i+1)
		f = md.Spherical(fmt.Sprint("ball", i+1), f, origin, rod)
		origin = [3]float64{l, 0, 0}
	}
	return md
}

// TestGeometricStiffnessSecondVariation checks each K_m against central differences: the
// potential −Σ_P F_P·p_P of the loads of body m, held fixed (its d'Alembert force at its
// centre of mass, the cut rows' loads −Gᵀλ at their points, and at each child joint the
// force of the child's subtree: the negative of the subtree's d'Alembert forces and cut
// loads, summed here over the subtree's frames) under a rotation exp(ε φ̃) of the body
// about its inboard joint point has second derivative φᵀ K_m φ in ε, on random states
// and multipliers of randomTree (a loop closed by a three-row cut joint and two CutAxes).
func TestGeometricStiffnessSecondVariation(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sawCut := 0 // bodies with cut loads checked
	for range 3 {
		sys, nq, q, v := randomSystem(t, rng)
		a := make([]float64, nq)
		sys.Accelerations(a, 0, q, v)
		lambda := randomMultipliers(sys, rng)
		kg := make([]float64, sys.GeometricStiffnessLen())
		sys.GeometricStiffnessUnclipped(kg, q, v, a, lambda)
		m, w := sys.m, sys.w
		m.bodyForces(w, sys.d, a, true) // the body forces whole, at the kinematics K_g used
		type load struct{ F, r vec3 }   // r: the world point of F
		cutLoads := make([][]load, len(m.prims))
		sys.cutLoads(lambda, func(_ string, f int, r vec3, x sv) {
			if f != Ground {
				cutLoads[f] = append(cutLoads[f], load{x.lin(), r})
			}
		})
		inSubtree := func(j, root int) bool {
			for ; j != Ground; j = m.prims[j].parent {
				if j == root {
					return true
				}
			}
			return false
		}
		for i := range m.prims {
			if w.bare[i] {
				continue
			}
			var loads []load // levers from i's joint point
			c := w.R[i].mulv(m.prims[i].body.COM)
			loads = append(loads, load{sys.d.f[i].lin().scale(-1), c})
			for _, l := range cutLoads[i] {
				loads = append(loads, load{l.F, l.r.sub(w.x[i])})
			}
			for j := range m.prims {
				if m.prims[j].parent != i {
					continue
				}
				var F vec3 // the force on i through joint j: the subtree's loads
				for k := range m.prims {
					if !inSubtree(k, j) {
						continue
					}
					F = F.sub(sys.d.f[k].lin())
					for _, l := range cutLoads[k] {
						F = F.add(l.F)
					}
				}
				loads = append(loads, load{F, w.x[j].sub(w.x[i])})
			}
			if len(cutLoads[i]) > 0 {
				sawCut++
			}
			phi := vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			V := func(eps float64) float64 {
				R := axisRotation(unit(phi), eps*math.Sqrt(phi.dot(phi)))
				var s float64
				for _, l := range loads {
					s -= l.F.dot(R.mulv(l.r))
				}
				return s
			}
			const e = 1e-4
			fd := (V(e) - 2*V(0) + V(-e)) / (e * e)
			var Km mat3
			for r := range 3 {
				for c := range 3 {
					Km[r][c] = kg[kgSize*i+3*r+c]
				}
			}
			got := phi.dot(Km.mulv(phi))
			if d := math.Abs(got - fd); d > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("body %q: φᵀK_mφ = %.10g, central difference %.10g", m.prims[i].body.Name, got, fd)
			}
		}
	}
	if sawCut == 0 {
		t.Error("no body carried a cut load: the test would not see them")
	}
}

// planarStiffnessChain is the planar chain of n links of length l on revolute joints about
// y (the stiffness tests' model), with, when looped, two in-plane cut rows: link tip's end
// pinned to the ground and link 1's point tied to link 3's. It returns the model and the
// links' frames.
func planarStiffnessChain(n int, l float64, looped bool, tip int) (*Model, []int) {
	md := &Model{Gravity: [3]float64{0, 0, -9.81}}
	f, origin := Ground, [3]float64{}
	links := make([]int, n)
	for i := range n {
		body := Body{Name: fmt.Sprint("rod", i), Mass: 1 + 0.1*float64(i), COM: [3]float64{0.05, 0, -l / 2},
			Inertia: [3][3]float64{{0.02, 0, 0}, {0, 0.02, 0}, {0, 0, 1e-4}}}
		f = md.Revolute(fmt.Sprint("pin", i), f, origin, [3]float64{0, 1, 0}, body)
		links[i] = f
		origin = [3]float64{0.1, 0, -l}
	}
	if looped {
		md.Cut("tip", links[tip], [3]float64{0.1, 0, -l}, Ground, [3]float64{0.3, 0, -1.5},
			[3]float64{1, 0, 0}, [3]float64{0, 0, 1})
		md.Cut("tie", links[1], [3]float64{0.05, 0, -0.3}, links[3], [3]float64{-0.02, 0, -0.1},
			[3]float64{0.6, 0, 0.8})
	}
	return md, links
}

// TestGeometricStiffnessPlanarChainExact: for a planar chain of revolute joints at rest
// (a = 0, v = 0: no d'Alembert load) at random angles under gravity, Σ Φᵀ K_m Φ is the
// whole stiffness K = (M a)_q − f_q + (Gᵀλ)_q of the derivatives of derivatives.go, to
// 1e-12 relative: open, and with loops closed by in-plane cut rows (the last link's tip
// pinned to the ground, and a link's point tied to another's) at random multipliers,
// whose loads are fixed forces at points as gravity is (exact for any λ, balanced or not).
func TestGeometricStiffnessPlanarChainExact(t *testing.T) {
	const l, n = 0.4, 6
	for _, looped := range []bool{false, true} {
		md, _ := planarStiffnessChain(n, l, looped, n-1)
		sys, err := md.System()
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 8))
		q := make([]float64, n)
		for i := range q {
			q[i] = rng.Float64() - 0.5
		}
		lambda := randomMultipliers(sys, rng)
		zero := make([]float64, n)
		K, Fq := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
		sys.ForceDerivativeQ(Fq, 0, q, zero)
		sys.MassDerivative(K, 0, q, zero)
		K.Sub(K, Fq)
		if looped {
			GTq := mat.NewDense(n, n, nil)
			sys.ConstraintForceDerivative(GTq, 0, q, lambda)
			K.Add(K, GTq)
		}
		kg := make([]float64, sys.GeometricStiffnessLen())
		sys.GeometricStiffnessUnclipped(kg, q, zero, zero, lambda)
		sys.m.kinematics(sys.w, q, nil)
		Kd := stiffnessDense(sys, kg)
		var D mat.Dense
		D.Sub(K, Kd)
		if r := mat.Norm(&D, 2) / mat.Norm(K, 2); r > 1e-12 {
			t.Errorf("looped %v: ‖K − Σ Φᵀ K_m Φ‖ / ‖K‖ = %.3g, want ≤ 1e-12\nK  = %.4g\nKg = %.4g", looped, r, mat.Formatted(K), mat.Formatted(Kd))
		}
		if looped {
			kg0 := make([]float64, len(kg)) // the loads of the rows must matter for the test to see them
			sys.GeometricStiffnessUnclipped(kg0, q, zero, zero, nil)
			D.Sub(stiffnessDense(sys, kg0), Kd)
			if r := mat.Norm(&D, 2) / mat.Norm(K, 2); r < 0.1 {
				t.Errorf("the cut loads change K_g by %.3g of ‖K‖ only: the test would not see them", r)
			}
		}
	}
}

// TestPositivePart: positivePart keeps the nonnegative eigenpairs of random symmetric 3×3
// matrices (V max(Λ,0) Vᵀ: the result is positive semidefinite, and K − K₊ is negative
// semidefinite and vanishes on K₊'s range) and leaves positive semidefinite ones alone.
func TestPositivePart(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 20 {
		var A mat.SymDense
		A.ReuseAsSym(3)
		K := make([]float64, 9)
		for i := range 3 {
			for j := i; j < 3; j++ {
				x := rng.NormFloat64()
				A.SetSym(i, j, x)
				K[3*i+j], K[3*j+i] = x, x
			}
		}
		var es mat.EigenSym
		if !es.Factorize(&A, true) {
			t.Fatal("eigen-decomposition failed")
		}
		var V mat.Dense
		es.VectorsTo(&V)
		want := mat.NewDense(3, 3, nil)
		for e, l := range es.Values(nil) {
			for i := range 3 {
				for j := range 3 {
					want.Set(i, j, want.At(i, j)+max(l, 0)*V.At(i, e)*V.At(j, e))
				}
			}
		}
		positivePart(K)
		for i := range 3 {
			for j := range 3 {
				if d := math.Abs(K[3*i+j] - want.At(i, j)); d > 1e-12 {
					t.Errorf("trial %d: K₊[%d][%d] = %.15g, want %.15g", trial, i, j, K[3*i+j], want.At(i, j))
				}
			}
		}
	}
	// Spectra the closed form finds hard: repeated and nearly repeated eigenvalues on either
	// side of zero, eigenvalues at rounding level, all clipped (a random rotation R of
	// diag(λ), against R diag(max(λ, 0)) Rᵀ to 1e-12 of the largest |λ|).
	for _, l := range [][3]float64{{2, -1, -1}, {-1, -1, 2}, {1, 1, -1e-17}, {2, -1e-9, -1e-9},
		{0.5, -3, -3}, {1, 1e-13, -1e-13}, {1, -1e-13, -1e-13 * (1 + 1e-6)}, {-1, -2, -3},
		{3, 3, -3}, {1e-9, 0, -1}, {5, -5, 0}} {
		var Q mat.QR
		Q.Factorize(mat.NewDense(3, 3, []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(),
			rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}))
		var R mat.Dense
		Q.QTo(&R)
		K := make([]float64, 9)
		var want [9]float64
		scale := math.Max(math.Abs(l[0]), math.Max(math.Abs(l[1]), math.Abs(l[2])))
		for i := range 3 {
			for j := range 3 {
				for e := range 3 {
					K[3*i+j] += R.At(i, e) * l[e] * R.At(j, e)
					want[3*i+j] += R.At(i, e) * max(l[e], 0) * R.At(j, e)
				}
			}
		}
		for i := range 3 { // exactly symmetric, as K_m is
			for j := range i {
				K[3*i+j] = K[3*j+i]
			}
		}
		positivePart(K)
		for k := range 9 {
			if d := math.Abs(K[k] - want[k]); d > 1e-12*scale {
				t.Errorf("eigenvalues %g: K₊[%d] = %.15g, want %.15g", l, k, K[k], want[k])
			}
		}
	}
}

// TestHasGeometricStiffness: K_g is on for a chain, a chain with a drive (a held
// coordinate) and randomTree (cut joints, whose loads it levers), off for randomTree with
// knife edges, whose Pfaffian loads it does not sum without their multipliers; with them
// (HasPfaffianGeometricStiffness) on for the knife edges (knifePointLoads), off for a
// rolling disk, whose contact point moves on the disk.
func TestHasGeometricStiffness(t *testing.T) {
	chain := sphericalChain(3)
	driven := sphericalChain(3)
	driven.Drive("spin", 0, math.Sin, math.Cos, func(t float64) float64 { return -math.Sin(t) })
	knifed := randomTree(rand.New(rand.NewPCG(1, 1)))
	knifed.KnifeEdge("blade", knifed.Coordinate("r6"), [3]float64{0.1, 0, 0}, [3]float64{0, 1, 0})
	rolled := sphericalChain(3)
	rolled.RollingDisk("disk", 2, [3]float64{0.5, 0, 0}, [3]float64{0, 1, 0}, 0.1)
	for _, c := range []struct {
		name         string
		m            *Model
		want, wantPf bool
	}{{"chain", chain, true, true}, {"driven chain", driven, true, true}, {"randomTree", randomTree(rand.New(rand.NewPCG(1, 1))), true, true},
		{"knife edge", knifed, false, true}, {"rolling disk", rolled, false, false}} {
		sys, err := c.m.System()
		if err != nil {
			t.Fatal(err)
		}
		if got := sys.HasGeometricStiffness(); got != c.want {
			t.Errorf("%s: HasGeometricStiffness = %v, want %v", c.name, got, c.want)
		}
		if got := sys.HasPfaffianGeometricStiffness(); got != c.wantPf {
			t.Errorf("%s: HasPfaffianGeometricStiffness = %v, want %v", c.name, got, c.wantPf)
		}
	}
}

// randomTreeOrChain returns, on even trials, randomSystem's random tree and state, and on
// odd ones a 5-rod spherical chain (composite joints) at a random state: the systems the
// stiff mass solves are checked on.
func randomTreeOrChain(t *testing.T, rng *rand.Rand, trial int) (*System, int, []float64, []float64) {
	t.Helper()
	if trial%2 == 0 {
		return randomSystem(t, rng)
	}
	sys, err := sphericalChain(5).System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	q, v := randomState(rng, nq)
	return sys, nq, q, v
}

package integrate

import "math"

// krylovSystem is the linear system J x = b of a Newton iteration as GMRES sees it: the
// product J z (jacVec, by a difference of the method's residual) and a preconditioner
// x ← P⁻¹ x (massNewton.solve).
type krylovSystem interface {
	jacVec(dst, z []float64)
	precondition(x []float64)
}

// gmres is left-preconditioned GMRES (Saad and Schultz 1986) without restarts: it
// minimizes ‖P⁻¹(b − J x)‖₂ over x ∈ span{P⁻¹b, P⁻¹J P⁻¹b, …}, at most maxIter products
// J z, stopping at a relative preconditioned residual rtol. The preconditioned residual
// lives where the increment does (accelerations and multipliers): with the right
// preconditioned one, a residual of the force rows small against ‖b‖ still left large
// increments along directions of small mass (a slender rod's spin about its axis).
// Work arrays are sized once.
type gmres struct {
	n, m     int
	rtol     float64
	V        [][]float64  // Arnoldi basis (m+1)
	H        []float64    // (m+1)×m Hessenberg matrix, row-major, rotated to triangular
	cs, sn   []float64    // Givens rotations
	g, y     []float64    // rotated right side, coefficients
	products int          // J z products of the last solve
	rel      float64      // its residual estimate |g_k|/β relative to ‖P⁻¹b‖ (0 for b = 0)
	rel1     float64      // the same after its first product: how far P⁻¹J is from I on P⁻¹b
	total    KrylovCounts // over all solves, for the run's diagnostics
	noise    *diffNoise   // the increment of the products, measured by this solver if measures
	measures bool
}

// gmresMaxIter and gmresRTol bound the inner iteration of the Newton-Krylov corrector:
// an inexact Newton method with forcing term 1e-2, whose outer rate stays near 1e-2
// (measured on the joint route's 30-rod chain at tol 1e-4: 28 residual evaluations per
// step against 44 with 1e-4, for the same steps and iterations); 20 products cover the
// few outlying eigenvalues the mass preconditioner leaves.
const (
	gmresMaxIter = 20
	gmresRTol    = 1e-2
)

func newGMRES(n int) *gmres {
	m := gmresMaxIter
	g := &gmres{n: n, m: m, rtol: gmresRTol, H: make([]float64, (m+1)*m), noise: &diffNoise{}, measures: true,
		cs: make([]float64, m), sn: make([]float64, m), g: make([]float64, m+1), y: make([]float64, m)}
	for range m + 1 {
		g.V = append(g.V, make([]float64, n))
	}
	return g
}

// solve overwrites b with the approximate solution x of J x = b and reports whether
// its residual reached rtol relative to ‖b‖ within maxIter products.
func (s *gmres) solve(sys krylovSystem, b []float64) bool {
	m := s.m
	if s.measures && s.noise.due() {
		s.noise.measure(sys, s.V[0], s.V[1], s.V[2])
		s.total.Products += diffNoiseProducts
	}
	sys.precondition(b)
	beta := norm2(b)
	s.products, s.rel, s.rel1 = 0, 0, 0
	s.total.Solves++
	if beta == 0 || math.IsNaN(beta) || math.IsInf(beta, 0) {
		return true // x = 0, or a non-finite residual the caller reports
	}
	s.rel = 1
	clear(s.g)
	s.g[0] = beta
	for i, bi := range b {
		s.V[0][i] = bi / beta
	}
	k, reached := 0, false
	for j := 0; j < m; j++ {
		w := s.V[j+1]
		sys.jacVec(w, s.V[j])
		sys.precondition(w)
		s.products++
		for i := 0; i <= j; i++ { // modified Gram-Schmidt
			hij := dot(w, s.V[i])
			s.H[i*m+j] = hij
			for l := range w {
				w[l] -= hij * s.V[i][l]
			}
		}
		hn := norm2(w)
		s.H[(j+1)*m+j] = hn
		for i := 0; i < j; i++ { // earlier rotations on the new column
			a, c := s.H[i*m+j], s.H[(i+1)*m+j]
			s.H[i*m+j], s.H[(i+1)*m+j] = s.cs[i]*a+s.sn[i]*c, -s.sn[i]*a+s.cs[i]*c
		}
		a, c := s.H[j*m+j], s.H[(j+1)*m+j]
		r := math.Hypot(a, c)
		if r == 0 || math.IsNaN(r) {
			break
		}
		s.cs[j], s.sn[j] = a/r, c/r
		s.H[j*m+j], s.H[(j+1)*m+j] = r, 0
		s.g[j+1] = -s.sn[j] * s.g[j]
		s.g[j] *= s.cs[j]
		k = j + 1
		s.rel = math.Abs(s.g[j+1]) / beta
		if j == 0 {
			s.rel1 = s.rel
		}
		if reached = math.Abs(s.g[j+1]) <= s.rtol*beta || hn == 0; reached {
			break
		}
		for l := range w {
			w[l] /= hn
		}
	}
	for i := k - 1; i >= 0; i-- { // back substitution in the triangular H
		y := s.g[i]
		for l := i + 1; l < k; l++ {
			y -= s.H[i*m+l] * s.y[l]
		}
		s.y[i] = y / s.H[i*m+i]
	}
	s.total.Products += s.products
	if !reached {
		s.total.Missed++
	}
	clear(b)
	for i := 0; i < k; i++ {
		for l, z := range s.V[i] {
			b[l] += s.y[i] * z
		}
	}
	return reached
}

// perturb writes dst = base + ε z for the forward difference of a Jacobian-vector product
// and returns ε = d.increment(max(1 + ‖base‖, qScale), ‖z‖) (√ε_mach max(1 + ‖base‖,
// qScale)/‖z‖ or more, by the measured noise d), or 0 (dst untouched) when z = 0.
// qScale is (1 + ‖q‖)/s for unknowns that move q by s times their change (βh² for hht's
// accelerations, h for genalpha's Δq): without it a short step moved q by less than its
// rounding and the difference lost the constraint rows (hht at h = 1e-9 on a driven
// four-bar found G z = 0).
func perturb(dst, base, z []float64, qScale float64, d *diffNoise) float64 {
	zn := norm2(z)
	if zn == 0 {
		return 0
	}
	eps := d.increment(math.Max(1+norm2(base), qScale), zn)
	for i := range dst {
		dst[i] = base[i] + eps*z[i]
	}
	return eps
}

// KrylovCounts totals the GMRES solves of a Newton-Krylov corrector (gmres.go): Solves
// linear systems, Products the products J z they took (each one or, on radau5's complex
// system, two residual evaluations; with the noise measurements' products, diffNoise), Missed the solves that stopped at gmresMaxIter
// products short of their forcing term.
type KrylovCounts struct{ Solves, Products, Missed int }

func norm2(a []float64) float64 { return math.Sqrt(dot(a, a)) }

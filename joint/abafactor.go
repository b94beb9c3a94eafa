package joint

// abaFactor is what the articulated-body recursion at zero velocity and without gravity
// computes from the position and the inertias alone: each joint's U = IA s and
// D = sᵀ IA s (seed 002 Table 1, the inward sweep's articulated inertias), at the point
// (q, and the geometric stiffness kg with its factor k when the solve carried them) of
// the solve that computed them (the point's positions named by their generation in the
// frames, frames.pgen). A solve at that point again needs only the sweeps of the
// right side (abaSolve): the implicit methods' preconditioner solves many right sides at
// the point of its last factorization (massSchur.massSolve), and the downdates of the
// articulated inertias are most of a solve.
type abaFactor struct {
	valid bool
	pgen  uint64 // the generation of the positions of the point (frames.pgen)
	stiff bool   // the solve carried k K_g
	k     float64
	kg    []float64 // K_g of the point (stiff), sized at the first stiff solve
	U     []sv
	D     []float64
	L     [][maxGroup - 1]float64 // the groups' factors of D (multidof.go)
}

func newABAFactor(n int) abaFactor {
	return abaFactor{U: make([]sv, n), D: make([]float64, n), L: make([][maxGroup - 1]float64, n)}
}

// holds reports whether f was computed at the positions w holds with the stiffness k·kg
// (kg nil: none): their generations compared, not the coordinates, and kg on the frames
// that carry a body.
func (f *abaFactor) holds(w *frames, kg []float64, k float64) bool {
	if !f.valid || f.pgen != w.pgen || (kg != nil) != f.stiff {
		return false
	}
	if kg == nil {
		return true
	}
	if k != f.k {
		return false
	}
	n := len(w.bare)
	kg, fk := kg[:kgSize*n], f.kg[:kgSize*n]
	for i, bare := range w.bare { // a frame without a body takes no stiffness: its block is never read
		if bare {
			continue
		}
		a, b := (*[kgSize]float64)(kg[kgSize*i:kgSize*i+kgSize]), (*[kgSize]float64)(fk[kgSize*i:kgSize*i+kgSize])
		if a[0] != b[0] || a[1] != b[1] || a[2] != b[2] || a[3] != b[3] || a[4] != b[4] ||
			a[5] != b[5] || a[6] != b[6] || a[7] != b[7] || a[8] != b[8] {
			return false
		}
	}
	return true
}

// keep records the U and D the last full solve left in w, at its positions with the
// stiffness k·kg.
func (f *abaFactor) keep(w *frames, kg []float64, k float64) {
	n := len(f.D)
	f.pgen = w.pgen
	copy(f.U, w.U)
	copy(f.D, w.D)
	if w.groups != nil {
		copy(f.L, w.L)
	}
	f.stiff, f.k = kg != nil, k
	if kg != nil {
		if f.kg == nil {
			f.kg = make([]float64, kgSize*n)
		}
		copy(f.kg, kg[:kgSize*n])
	}
	f.valid = true
}

// massSolve writes x = (M(q) + k Σ Φ_mᵀ K_m Φ_m)⁻¹ b (kg nil: M alone) by the
// articulated-body recursion at zero velocity and without gravity, the coordinates where
// locked[i] prescribed (locked nil: none). Without locked coordinates it runs only the
// right side's sweeps when one of s.fac holds the point (abaSolve), with the same
// arithmetic as the full recursion, so the same bits; else the full recursion, whose U
// and D replace the factorization used least recently. Two are kept: the Newton-Krylov
// products alternate between a solve at the iterate (the scaled rows) and the
// preconditioner's at the factorization point.
func (s *System) massSolve(x []float64, q, b []float64, locked []bool, kg []float64, k float64) {
	s.m.kinematics(s.w, q, nil)
	if locked != nil {
		s.m.stiffForwardDynamics(s.w, x, b, locked, false, kg, k)
		return
	}
	for j := range s.fac {
		if s.fac[j].holds(s.w, kg, k) {
			if s.w.groups != nil {
				s.m.groupSolve(s.w, x, b, s.fac[j].U, s.fac[j].D, s.fac[j].L)
			} else {
				s.m.abaSolve(s.w, x, b, s.fac[j].U, s.fac[j].D)
			}
			s.facLast = j
			return
		}
	}
	s.m.stiffForwardDynamics(s.w, x, b, nil, false, kg, k)
	s.facLast = 1 - s.facLast
	if kg != nil && s.fac[s.facLast].kg == nil {
		// Both factorizations' copies of K_g at the first solve with it, in a method's
		// first step, not the first time the other one keeps it, which may come steps
		// later (measured after warm-up on the knife chain: 21 kB at 100 rods).
		for j := range s.fac {
			s.fac[j].kg = make([]float64, len(s.fac[j].D)*kgSize)
		}
	}
	s.fac[s.facLast].keep(s.w, kg, k)
}

// abaSolve is stiffForwardDynamics at zero velocity, without gravity and without locked
// coordinates, given the U and D of its inward sweep at the positions in w: the same
// operations on the right side tau in the same order, O(N) with a few multiply-adds per
// joint, no 6×6 work.
func (m *Model) abaSolve(w *frames, a, tau []float64, U []sv, D []float64) {
	n := len(m.prims)
	clear(w.F[:n])
	for i := n - 1; i >= 0; i-- {
		u := tau[i] - w.s[i].dot(w.F[i])
		w.u[i] = u
		p := m.prims[i].parent
		if p == Ground {
			continue
		}
		Fp := w.F[p].add(w.F[i])
		w.F[p] = Fp.add(U[i].scale(u / D[i]))
	}
	for i := 0; i < n; i++ {
		A := w.c[i] // zero at v = nil, as in the full recursion
		if p := m.prims[i].parent; p != Ground {
			A = A.add(w.A[p])
		}
		a[i] = (w.u[i] - U[i].dot(A)) / D[i]
		w.A[i] = A.add(w.s[i].scale(a[i]))
	}
}

package integrate

import (
	"fmt"

	"linkage/dae"
)

// RadauStiffness chooses where radau5's Newton-Krylov preconditioner (radauKrylov) takes
// the geometric stiffness K_g (dae.StiffMassSolver) beside M in its a-blocks.
type RadauStiffness string

const (
	// RadauStiffnessDefault is the default choice (radauStiffnessDefault).
	RadauStiffnessDefault RadauStiffness = ""
	// RadauStiffnessNone keeps the mass part alone in both systems.
	RadauStiffnessNone RadauStiffness = "none"
	// RadauStiffnessComplex takes M + K_g/c² in the complex system, c = (α+iβ)/h, by a
	// complex articulated-body solve (complexStiffMassSolver), and M in the real one.
	RadauStiffnessComplex RadauStiffness = "complex"
	// RadauStiffnessReal takes M + K_g h²/γ² in the real system and M in the complex one.
	RadauStiffnessReal RadauStiffness = "real"
	// RadauStiffnessBoth takes K_g in both systems.
	RadauStiffnessBoth RadauStiffness = "both"
)

// radauStiffnessDefault is RadauStiffnessDefault's choice: K_g in both systems. On the
// joint route's 3D chain it took radau5's evaluations per step at fixed h from N = 100 to
// 1000 from 1.6-6.9 × growth to 1.1-1.6 × (the products per solve at 1-1.6 at every N),
// and over 20 ms adaptive 60-81 % fewer evaluations at N = 1000 with the same steps and
// tip errors, 20-45 % fewer at N = 100, up to 12 % fewer at N = 10; on the slender 20-rod
// chain (radius 1e-4 m) with the spin axes projected off (spinFreeStiffness) within the
// runs' scatter of the mass part alone (BENCHMARKS.md, "radau5's preconditioner with the
// geometric stiffness").
const radauStiffnessDefault = RadauStiffnessBoth

// complexStiffMassSolver is the optional capability of a dae.StiffMassSolver of solving
// the mass matrix plus a complex multiple of the geometric stiffness,
//
//	(M(q) + k K_g) x = b,    k, x, b complex,
//
// in O(N) without forming either (joint.System: the articulated-body recursion in complex
// symmetric arithmetic): radau5's complex system has the a-block M + K_g/c² with
// c = (α+iβ)/h, and 1/c² = h²(α − iβ)²/|α+iβ|⁴ is mostly imaginary. kg holds K_g's body
// matrices as dae.StiffMassSolver.GeometricStiffness wrote them; b = br + i·bi and
// x = xr + i·xi.
type complexStiffMassSolver interface {
	ComplexStiffMassSolve(xr, xi []float64, t float64, q, br, bi, kg []float64, k complex128)
}

// spinFreeStiffness is the optional capability of a dae.StiffMassSolver of writing K_g's
// body matrices with each slender body's spin axis projected off (joint.System's
// SpinFreeGeometricStiffness: the terms of K_m that couple a rod's spin to its bending
// are not the joint coordinates' stiffness, and beside a rod's small spin inertia they
// made the preconditioner worse than M alone); radauStiff takes them when offered.
type spinFreeStiffness interface {
	SpinFreeGeometricStiffness(kg []float64, t float64, q, v, a, lambda []float64)
}

// radauStiff is the geometric stiffness in radauKrylov's mass parts (RadauStiffness). On
// a tree without constraint rows (nc = 0: the joint route's open chains) the mass part of
// c K − J with K_g δq in the a-rows,
//
//	c δq − δv = r_q,   c δv − δa = r_v,   M δa + K_g δq = r_a,
//
// eliminates δq = (δa + w)/c², w = r_v + c r_q, to
//
//	(M + K_g/c²) δa = r_a − K_g w/c²,
//
// one K_g product (dae.StiffMassSolver.AddGeometricStiffnessMul) and one solve with the
// stiffened matrix, real (StiffMassSolve with k = 1/c² = h²/γ²) or complex (complexStiffMassSolver
// with k = 1/c²), after which δv and δq follow by division by c as before (solveMass:
// δa is the unknown, so the round trip through the recursion is not amplified by c²).
// K_g is that of the loads at the forward-dynamics accelerations a_fd = M(q₀)⁻¹ f(t₀,
// q₀, v₀) (dae.ForwardDynamicsSolver; y₀'s a without it), the accelerations whose (M a)_q
// the scaled rows' derivative holds (as hht's massNewton.stiffenFD), taken at every
// Newton-Krylov Jacobian, with slender bodies' spin axes projected off where the system
// offers it (spinFreeStiffness: without it radau5 took 5-10 × the evaluations on the
// 20-rod chain of radius 1e-4 m). With constraint rows (loops, drives) the stiffened Schur
// complement G (M + K_g/c²)⁻¹ Gᵀ would be complex: those systems keep M.
type radauStiff struct {
	st       dae.StiffMassSolver
	sf       spinFreeStiffness      // nil: st's GeometricStiffness
	cst      complexStiffMassSolver // nil: the complex system keeps M
	fd       dae.ForwardDynamicsSolver
	real     bool // K_g in the real system
	cplx     bool // ... in the complex one
	kg       []float64
	afd      []float64 // nq: a_fd, then work
	wr, wi   []float64 // nq: w/c², then the stiffened solve's δa
	br, bi   []float64 // nq: the stiffened right side
	q0       []float64 // nq: q₀ of the factorization (y₀ moves on at an accepted step)
	t0       float64
	on       bool // kg holds K_g at the current factorization
	evaluate int  // K_g evaluations (one Newton-Euler pass each)
}

// useStiffness sets the stiffness choice s on k (nil-safe); off where the system lacks
// dae.StiffMassSolver, has constraint rows, or with ApproxJacobian (whose matrix is the
// mass part alone).
func (k *radauKrylov) useStiffness(s RadauStiffness) error {
	if s == RadauStiffnessDefault {
		s = radauStiffnessDefault
	}
	re, cx := false, false
	switch s {
	case RadauStiffnessNone:
	case RadauStiffnessComplex:
		cx = true
	case RadauStiffnessReal:
		re = true
	case RadauStiffnessBoth:
		re, cx = true, true
	default:
		return fmt.Errorf("integrate: radau5: Stiffness = %q: want none, complex, real or both", s)
	}
	if k == nil || k.approx || k.nc > 0 || (!re && !cx) {
		return nil
	}
	st := dae.AsStiffMassSolver(k.se.sys)
	if st == nil {
		return nil
	}
	cst, _ := k.se.sys.(complexStiffMassSolver)
	if cst == nil {
		cx = false
	}
	if !re && !cx {
		return nil
	}
	nq := k.nq
	vec := func() []float64 { return make([]float64, nq) }
	fd, _ := k.se.sys.(dae.ForwardDynamicsSolver)
	sf, _ := k.se.sys.(spinFreeStiffness)
	k.stiff = &radauStiff{st: st, sf: sf, cst: cst, fd: fd, real: re, cplx: cx, kg: make([]float64, st.GeometricStiffnessLen()),
		afd: vec(), wr: vec(), wi: vec(), br: vec(), bi: vec(), q0: vec()}
	return nil
}

// stiffen evaluates K_g at (t, y₀) for the factorization at q₀ (krylovJacobian).
func (s *radauStiff) stiffen(se *semiExplicit, t float64, y0 []float64) {
	if s == nil {
		return
	}
	q, v, a, _, _ := se.blocks(y0)
	if s.fd != nil {
		clear(s.bi)
		s.fd.ForwardDynamics(s.afd, t, q, v, s.bi)
	} else {
		copy(s.afd, a)
	}
	if s.sf != nil {
		s.sf.SpinFreeGeometricStiffness(s.kg, t, q, v, s.afd, nil)
	} else {
		s.st.GeometricStiffness(s.kg, t, q, v, s.afd, nil)
	}
	copy(s.q0, q)
	s.t0, s.on = t, true
	s.evaluate++
}

// applies reports whether the solve with c (complex when cplx) takes K_g.
func (s *radauStiff) applies(cplx bool) bool {
	if s == nil || !s.on {
		return false
	}
	if cplx {
		return s.cplx
	}
	return s.real
}

// solve writes δa = (M + K_g/c²)⁻¹ (r_a − K_g (r_v + c r_q)/c²) into (ar, ai) (see
// radauStiff), reading r_q, r_v, r_a from (qr, qi), (vr, vi), (ar, ai); ai and the
// imaginary parts are zero for a real c (cplx false).
func (s *radauStiff) solve(qr, qi, vr, vi, ar, ai []float64, c complex128, cplx bool) {
	cr, ci := real(c), imag(c)
	k := 1 / (c * c)
	kr, ki := real(k), imag(k)
	for i := range s.wr {
		// w = r_v + c r_q, then w/c²
		wr, wi := vr[i]+cr*qr[i]-ci*qi[i], vi[i]+cr*qi[i]+ci*qr[i]
		s.wr[i], s.wi[i] = kr*wr-ki*wi, kr*wi+ki*wr
	}
	copy(s.br, ar)
	s.st.AddGeometricStiffnessMul(s.br, s.t0, s.q0, s.wr, s.kg, -1)
	if !cplx {
		s.st.StiffMassSolve(ar, s.t0, s.q0, s.br, nil, s.kg, kr)
		return
	}
	copy(s.bi, ai)
	s.st.AddGeometricStiffnessMul(s.bi, s.t0, s.q0, s.wi, s.kg, -1)
	s.cst.ComplexStiffMassSolve(ar, ai, s.t0, s.q0, s.br, s.bi, s.kg, k)
}

package dae

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Reduce returns sys with only the constraint rows keep (in that order), so that an
// integrator sees a G of full row rank once Initialize has found redundant rows
// (Consistent.KeptRows). Row i of the reduced g, G, g_t and γ is row keep[i] of sys; a
// reduced λ acts on sys as the full λ with zeros on the dropped rows (ExpandLambda).
//
// The returned System always implements MassDerivative, ConstraintForceDerivative,
// ForceDerivative, ConstantMass and Namer: analytically where sys does, by the central
// finite differences of a Derivatives of sys otherwise. So type assertions on it report
// every derivative as available; use Derivatives of the original sys to learn which are
// analytic. It implements Energy and EnergyInvariant exactly when sys does (DrivingPower
// takes the reduced λ and expands it). Constraint names map to the names
// sys gives row keep[i] (ConstraintName), so errors keep pointing at the model's joints.
// When sys has first-order states (FirstOrder) the wrapper forwards them and always
// implements FirstOrderDerivative, analytic or by FirstOrderDerivatives' differences.
//
// When sys is a large SparseEvaluator (nq + nc ≥ 1000, the size from which Initialize goes
// sparse, with a coupling pattern, without first-order states) so is the returned System,
// with the rows keep of sys's constraint pattern; it stores nothing of size nc×nq or
// nq×nq: its dense G and derivatives are sys's pattern values scattered into the caller's
// matrix (reducesparse.go), never finite differences. Its rows stay those of keep.
//
// Below that size the wrapper is dense, and its kept rows may change during a run
// (Rekeeper): rows redundant at t₀ need not stay so (IFToMM A04).
//
// A system with forces that depend on λ (ReactionForce, joint friction) cannot be reduced:
// with redundant rows its reactions are not determined, so the friction they press would
// be arbitrary; Reduce panics on it (callers refuse such models first, naming the rows).
// It panics on a system with nonholonomic constraints (Nonholonomic) as well, whose rows
// the wrapper would hide.
//
// The wrapper owns full-length scratch vectors: like Derivatives it serves one goroutine,
// and its evaluations do not allocate. A keep entry outside [0, nc) or repeated panics.
func Reduce(sys System, keep []int) System {
	if HasReactionForce(sys) {
		panic("dae: Reduce: the system has forces that depend on λ (ReactionForce); with redundant rows its reactions are not determined")
	}
	if HasNonholonomic(sys) {
		panic("dae: Reduce: the system has nonholonomic constraints (Nonholonomic), which the reduced system would drop")
	}
	nq, nc := sys.Size()
	se, ok := sys.(SparseEvaluator)
	return reduce(sys, keep, ok && largeReduced(se, nq, nc))
}

// reduce is Reduce with the storage-free route of a SparseEvaluator chosen by large.
func reduce(sys System, keep []int, large bool) System {
	nq, nc := sys.Size()
	seen := make([]bool, nc)
	for k, i := range keep {
		if i < 0 || i >= nc {
			panic(fmt.Sprintf("dae: Reduce: keep[%d] = %d outside [0, %d)", k, i, nc))
		}
		if seen[i] {
			panic(fmt.Sprintf("dae: Reduce: constraint row %d kept twice", i))
		}
		seen[i] = true
	}
	r := &reduced{
		sys:    sys,
		keep:   append([]int(nil), keep...),
		nq:     nq,
		g:      make([]float64, nc),
		lambda: make([]float64, nc),
	}
	if c, ok := sys.(ConstantMass); ok {
		r.constMass = c.ConstantMass()
	}
	e, hasEnergy := sys.(Energy)
	inv, hasInvariant := sys.(EnergyInvariant)
	fo, hasFirstOrder := sys.(FirstOrder)
	se, sparse := sys.(SparseEvaluator)
	// Only a large system keeps the sparse evaluation path: a small one is reduced to a
	// dense System whose kept rows can change during the run (Rekeeper), which the fixed
	// patterns of an integrator's sparse factorizations could not follow.
	large = large && sparse && !hasFirstOrder
	sparse = large
	if large {
		r.d = newValueDerivatives(se, nq)
	} else {
		r.d = NewDerivatives(sys)
		if nc > 0 {
			r.G = mat.NewDense(nc, nq, nil)
		}
	}
	if sparse {
		s := newReducedSparse(r, se)
		switch {
		case hasInvariant:
			return &reducedSparseInvariant{&reducedSparseEnergy{s, e}, inv}
		case hasEnergy:
			return &reducedSparseEnergy{s, e}
		}
		return s
	}
	switch {
	case hasFirstOrder && hasInvariant:
		return &reducedInvariantFirstOrder{&reducedEnergyFirstOrder{reducedFirstOrder: r.withFirstOrder(fo), e: e}, inv}
	case hasFirstOrder && hasEnergy:
		return &reducedEnergyFirstOrder{reducedFirstOrder: r.withFirstOrder(fo), e: e}
	case hasFirstOrder:
		return r.withFirstOrder(fo)
	case hasInvariant:
		return &reducedInvariant{&reducedEnergy{reduced: r, e: e}, inv}
	case hasEnergy:
		return &reducedEnergy{reduced: r, e: e}
	}
	return r
}

func (r *reduced) withFirstOrder(fo FirstOrder) *reducedFirstOrder {
	return &reducedFirstOrder{reduced: r, fo: fo, fd: NewFirstOrderDerivatives(r.sys)}
}

// ExpandLambda writes into dst (length nc of the full system) the multipliers reduced
// (one per row of keep) at rows keep, and zeros on the other rows: the λ of the full
// system that gives the same constraint force Gᵀλ. Length mismatches panic.
func ExpandLambda(dst, reduced []float64, keep []int) {
	if len(reduced) != len(keep) {
		panic(fmt.Sprintf("dae: ExpandLambda: len(reduced) = %d, len(keep) = %d", len(reduced), len(keep)))
	}
	clear(dst)
	for k, i := range keep {
		dst[i] = reduced[k]
	}
}

// reduced is the System returned by Reduce.
type reduced struct {
	sys       System
	keep      []int
	nq        int
	d         denseDerivatives // analytic capabilities of sys, FD fallbacks otherwise (valueDerivatives when large)
	constMass bool
	g, lambda []float64  // full length nc
	G         *mat.Dense // full nc×nq
}

// reducedEnergy adds Energy to reduced when the inner system has it.
type reducedEnergy struct {
	*reduced
	e Energy
}

// reducedFirstOrder adds FirstOrder, and FirstOrderDerivative answered by a
// FirstOrderDerivatives of the inner system, when the inner system has first-order states;
// dropping them would make integrators that cannot integrate X miss f_X silently.
type reducedFirstOrder struct {
	*reduced
	fo FirstOrder
	fd *FirstOrderDerivatives
}

// reducedEnergyFirstOrder has both optional capabilities of the inner system.
type reducedEnergyFirstOrder struct {
	*reducedFirstOrder
	e Energy
}

var (
	_ MassDerivative            = (*reduced)(nil)
	_ ConstraintForceDerivative = (*reduced)(nil)
	_ ForceDerivative           = (*reduced)(nil)
	_ ConstantMass              = (*reduced)(nil)
	_ Namer                     = (*reduced)(nil)
	_ Energy                    = (*reducedEnergy)(nil)
	_ FirstOrder                = (*reducedFirstOrder)(nil)
	_ FirstOrderDerivative      = (*reducedFirstOrder)(nil)
	_ Energy                    = (*reducedEnergyFirstOrder)(nil)
	_ FirstOrder                = (*reducedEnergyFirstOrder)(nil)
)

func (r *reduced) Size() (nq, nc int) { return r.nq, len(r.keep) }

func (r *reduced) Mass(dst *mat.Dense, t float64, q []float64) { r.sys.Mass(dst, t, q) }

func (r *reduced) Force(dst []float64, t float64, q, v []float64) { r.sys.Force(dst, t, q, v) }

func (r *reduced) Constraint(dst []float64, t float64, q []float64) {
	r.sys.Constraint(r.g, t, q)
	r.pick(dst)
}

func (r *reduced) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	if len(r.keep) == 0 {
		return
	}
	r.sys.ConstraintJacobian(r.G, t, q)
	for k, i := range r.keep {
		copy(dst.RawRowView(k), r.G.RawRowView(i))
	}
}

func (r *reduced) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	r.sys.ConstraintTimeDerivative(r.g, t, q)
	r.pick(dst)
}

func (r *reduced) Gamma(dst []float64, t float64, q, v []float64) {
	r.sys.Gamma(r.g, t, q, v)
	r.pick(dst)
}

// pick copies the kept rows of r.g into dst.
func (r *reduced) pick(dst []float64) {
	for k, i := range r.keep {
		dst[k] = r.g[i]
	}
}

// MassDerivative writes ∂(M a)/∂q of the inner system (analytic, zero for constant mass,
// or finite differences).
func (r *reduced) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	r.d.MassDerivative(dst, t, q, a)
}

// ConstraintForceDerivative writes ∂(G_redᵀ λ)/∂q = ∂(Gᵀ λ_full)/∂q with λ_full the
// expansion of λ by ExpandLambda.
func (r *reduced) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	ExpandLambda(r.lambda, lambda, r.keep)
	r.d.ConstraintForceDerivative(dst, t, q, r.lambda)
}

// ForceDerivativeQ writes ∂f/∂q of the inner system.
func (r *reduced) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	r.d.ForceDerivativeQ(dst, t, q, v)
}

// ForceDerivativeV writes ∂f/∂v of the inner system.
func (r *reduced) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	r.d.ForceDerivativeV(dst, t, q, v)
}

// ConstantMass reports the inner system's ConstantMass (false when it lacks it).
func (r *reduced) ConstantMass() bool { return r.constMass }

// CoordinateName is the inner system's name of coordinate i.
func (r *reduced) CoordinateName(i int) string { return CoordinateName(r.sys, i) }

// ConstraintName is the inner system's name of its row keep[i].
func (r *reduced) ConstraintName(i int) string { return ConstraintName(r.sys, r.keep[i]) }

// Energy is the inner system's kinetic and potential energy.
func (r *reducedEnergy) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	return r.e.Energy(t, q, v)
}

// Energy is the inner system's kinetic and potential energy.
func (r *reducedEnergyFirstOrder) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	return r.e.Energy(t, q, v)
}

// StateSize is the inner system's number of first-order states.
func (r *reducedFirstOrder) StateSize() int { return r.fo.StateSize() }

// StateRate is the inner system's X' = F(t, q, v, X); it does not involve the constraints.
func (r *reducedFirstOrder) StateRate(dst []float64, t float64, q, v, x []float64) {
	r.fo.StateRate(dst, t, q, v, x)
}

// StateForce is the inner system's f_X(t, q, v, X).
func (r *reducedFirstOrder) StateForce(dst []float64, t float64, q, v, x []float64) {
	r.fo.StateForce(dst, t, q, v, x)
}

// StateRateDerivative is the inner system's (analytic or finite-difference) ∂F/∂(q, v, X).
func (r *reducedFirstOrder) StateRateDerivative(dq, dv, dx *mat.Dense, t float64, q, v, x []float64) {
	r.fd.StateRateDerivative(dq, dv, dx, t, q, v, x)
}

// StateForceDerivative is the inner system's (analytic or finite-difference) ∂f_X/∂(q, v, X).
func (r *reducedFirstOrder) StateForceDerivative(dq, dv, dx *mat.Dense, t float64, q, v, x []float64) {
	r.fd.StateForceDerivative(dq, dv, dx, t, q, v, x)
}

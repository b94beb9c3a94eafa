package dae

import "fmt"

// EnergyInvariant is the optional capability of a System that reports, besides T and V
// (Energy), the power of its non-conservative applied forces and that of its rheonomic
// constraints (motions), so that a method can follow the energy invariant of seed 001
// (Cardenal, Cuadrado & Bayo 1997, eqs. 11-12)
//
//	Π(t) = T + V − ∫₀ᵗ (P_nc + P_driving) dτ,
//
// constant along the exact solution: premultiplying M a = f − Gᵀλ by vᵀ, with
// f = −∂V/∂q + f_nc and G v + g_t = 0, gives d(T + V)/dt = P_nc + P_driving. Its change over
// a step estimates the step's local error (eqs. 13-14). Models from packages planar,
// spatial and natural implement it.
type EnergyInvariant interface {
	Energy
	// NonConservativePower returns P_nc = vᵀ f_nc: the power of the applied forces that no
	// potential in V accounts for (dampers, actuators, applied loads).
	NonConservativePower(t float64, q, v []float64) float64
	// DrivingPower returns P_driving = Σ_r λ_r g_t,r, the power of the rheonomic rows
	// (zero for scleronomic ones); λ has the length of the system's constraints.
	DrivingPower(t float64, q, lambda []float64) float64
}

// RequireEnergyInvariant returns sys as an EnergyInvariant, or, for a method that needs the
// energy invariant, an error naming the method and what sys lacks.
func RequireEnergyInvariant(method string, sys System) (EnergyInvariant, error) {
	if inv, ok := sys.(EnergyInvariant); ok {
		return inv, nil
	}
	missing := "NonConservativePower and DrivingPower"
	if _, ok := sys.(Energy); !ok {
		missing = "Energy (T, V), " + missing
	}
	return nil, fmt.Errorf("%s: the system (%T) does not provide the energy invariant T + V − ∫(P_nc + P_driving) dt of seed 001, eqs. 11-12, "+
		"which the method's error estimate needs: it lacks %s (dae.EnergyInvariant; models from planar, spatial and natural provide it)", method, sys, missing)
}

// reducedInvariant adds EnergyInvariant to a reduced system whose inner system has it: the
// reduced λ is expanded to the full one (zeros on the dropped rows) for DrivingPower.
type reducedInvariant struct {
	*reducedEnergy
	inv EnergyInvariant
}

// reducedInvariantFirstOrder is reducedInvariant with first-order states.
type reducedInvariantFirstOrder struct {
	*reducedEnergyFirstOrder
	inv EnergyInvariant
}

var (
	_ EnergyInvariant = (*reducedInvariant)(nil)
	_ EnergyInvariant = (*reducedInvariantFirstOrder)(nil)
	_ FirstOrder      = (*reducedInvariantFirstOrder)(nil)
)

// NonConservativePower returns the inner system's P_nc.
func (r *reducedInvariant) NonConservativePower(t float64, q, v []float64) float64 {
	return r.inv.NonConservativePower(t, q, v)
}

// DrivingPower returns the inner system's P_driving at the expanded λ.
func (r *reducedInvariant) DrivingPower(t float64, q, lambda []float64) float64 {
	ExpandLambda(r.lambda, lambda, r.keep)
	return r.inv.DrivingPower(t, q, r.lambda)
}

// NonConservativePower returns the inner system's P_nc.
func (r *reducedInvariantFirstOrder) NonConservativePower(t float64, q, v []float64) float64 {
	return r.inv.NonConservativePower(t, q, v)
}

// DrivingPower returns the inner system's P_driving at the expanded λ.
func (r *reducedInvariantFirstOrder) DrivingPower(t float64, q, lambda []float64) float64 {
	ExpandLambda(r.lambda, lambda, r.keep)
	return r.inv.DrivingPower(t, q, r.lambda)
}

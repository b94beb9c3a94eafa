package problems

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
	"linkage/linalg"
)

// Chain is the chain of N mathematical pendulums of seed 002, Example 2: N point masses m,
// the first hung from the origin by a massless rod of length l, each further mass hung
// from the previous one by another such rod, under gravity along −y. Coordinates
// q = (x₁, y₁, …, x_N, y_N), constraints (seed 002, eq. 7e)
//
//	g_i = ((x_i − x_{i−1})² + (y_i − y_{i−1})² − l²)/2,   (x₀, y₀) = (0, 0),
//
// M = m I, f_i = (0, −m g_grav), g_t = 0 and γ_i = −|q̇_i − q̇_{i−1}|² (eqs. 7a-d).
type Chain struct {
	N               int     // number of point masses, N ≥ 1
	M, Length, Grav float64 // m > 0, l > 0, g_grav
}

var (
	_ dae.System                    = Chain{}
	_ dae.ConstantMass              = Chain{}
	_ dae.ConstraintForceDerivative = Chain{}
	_ dae.ForceDerivative           = Chain{}
	_ dae.Namer                     = Chain{}
	_ dae.EnergyInvariant           = Chain{}
)

const (
	// chainTEnd is 1 s, about half the period of the slowest mode of a 10-chain.
	chainTEnd = 1.0
	// chainAlpha0 is the initial angle of the first rod, seed 002 Example 2 (α₁ = 5°,
	// α₂ = 0 for N = 2); the rods below hang vertically (α_i = 0, i ≥ 2).
	chainAlpha0 = 5 * math.Pi / 180
	// chainRefSteps is the coarsest number of RK4 steps over [0, chainTEnd] of the
	// reference. Measured estimates of the reference error (Chain.reference): 3e-17 for
	// N = 2, 2.4e-14 for N = 10, 7e-12 for N = 50; 50 ms for N = 10, 2 s for N = 50.
	chainRefSteps = 2000
)

func chainProblem(n int) (Problem, error) {
	c := Chain{N: n, M: 1, Length: 1, Grav: 9.81}
	start, err := c.start()
	if err != nil {
		return Problem{}, err
	}
	ref := c.reference(chainTEnd, chainRefSteps)
	ref.SCDIndices = seq(2 * n)
	return Problem{
		Name:   "chain" + strconv.Itoa(n),
		Title:  fmt.Sprintf("chain of %d mathematical pendulums in Cartesian coordinates, first rod 5° from rest", n),
		Source: "seed 002 (Arnold 2016), Example 2, eqs. 7a-e (m = 1, l = 1, g_grav = 9.81; initial angles α₁ = 5°, α_i = 0 for i ≥ 2 between rod i and the −y axis, as the paper's double pendulum; zero initial velocities)",
		System: c,
		T0:     0, TEnd: chainTEnd,
		Start: start,
		Ref:   ref,
		Tol:   1e-6,
	}, nil
}

// start returns the consistent initial state: positions from the initial angles, zero
// velocities, and (a, λ) from the KKT system of seed 002, eq. 17.
func (c Chain) start() (integrate.State, error) {
	nq, nc := c.Size()
	s := integrate.NewState(nq, nc)
	var x, y float64
	for i := range c.N {
		alpha := 0.0
		if i == 0 {
			alpha = chainAlpha0
		}
		x += c.Length * math.Sin(alpha)
		y -= c.Length * math.Cos(alpha)
		s.Q[2*i], s.Q[2*i+1] = x, y
	}
	if err := consistentAcceleration(c, &s); err != nil {
		return s, fmt.Errorf("problems: chain%d: %w", c.N, err)
	}
	return s, nil
}

// consistentAcceleration overwrites s.A and s.Lambda with the solution of seed 002, eq. 17,
//
//	[M  Gᵀ] [a]   [f]
//	[G  0 ] [λ] = [γ],
//
// at (s.T, s.Q, s.V).
func consistentAcceleration(sys dae.System, s *integrate.State) error {
	nq, nc := sys.Size()
	M := mat.NewDense(nq, nq, nil)
	G := mat.NewDense(nc, nq, nil)
	sys.Mass(M, s.T, s.Q)
	sys.ConstraintJacobian(G, s.T, s.Q)
	k := linalg.NewKKT(nq, nc)
	if err := k.FactorizeSym(M, G); err != nil {
		return err
	}
	sys.Force(s.A, s.T, s.Q, s.V)
	sys.Gamma(s.Lambda, s.T, s.Q, s.V)
	k.Solve(s.A, s.Lambda)
	return nil
}

// Size returns nq = 2N, nc = N.
func (c Chain) Size() (nq, nc int) { return 2 * c.N, c.N }

// Mass writes M = m I.
func (c Chain) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for i := range 2 * c.N {
		dst.Set(i, i, c.M)
	}
}

// ConstantMass reports that M does not depend on t or q.
func (c Chain) ConstantMass() bool { return true }

// Force writes f_i = (0, −m g_grav) for every mass.
func (c Chain) Force(dst []float64, t float64, q, v []float64) {
	for i := range c.N {
		dst[2*i], dst[2*i+1] = 0, -c.M*c.Grav
	}
}

// ForceDerivativeQ writes ∂f/∂q = 0.
func (c Chain) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

// ForceDerivativeV writes ∂f/∂v = 0.
func (c Chain) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

// rel returns q_i − q_{i−1} for the pair (2i, 2i+1) of x (q₀ = 0).
func rel(x []float64, i int) (dx, dy float64) {
	dx, dy = x[2*i], x[2*i+1]
	if i > 0 {
		dx -= x[2*i-2]
		dy -= x[2*i-1]
	}
	return dx, dy
}

// Constraint writes g_i = (|q_i − q_{i−1}|² − l²)/2 (seed 002, eq. 7e).
func (c Chain) Constraint(dst []float64, t float64, q []float64) {
	for i := range c.N {
		dx, dy := rel(q, i)
		dst[i] = (dx*dx + dy*dy - c.Length*c.Length) / 2
	}
}

// ConstraintJacobian writes G, whose row i holds q_i − q_{i−1} in the columns of mass i
// and its negative in those of mass i−1 (seed 002, Example 2).
func (c Chain) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for i := range c.N {
		dx, dy := rel(q, i)
		dst.Set(i, 2*i, dx)
		dst.Set(i, 2*i+1, dy)
		if i > 0 {
			dst.Set(i, 2*i-2, -dx)
			dst.Set(i, 2*i-1, -dy)
		}
	}
}

// ConstraintTimeDerivative writes g_t = 0.
func (c Chain) ConstraintTimeDerivative(dst []float64, t float64, q []float64) { clear(dst[:c.N]) }

// Gamma writes γ_i = −|q̇_i − q̇_{i−1}|².
func (c Chain) Gamma(dst []float64, t float64, q, v []float64) {
	for i := range c.N {
		dx, dy := rel(v, i)
		dst[i] = -(dx*dx + dy*dy)
	}
}

// ConstraintForceDerivative writes ∂(Gᵀλ)/∂q = Σ_i λ_i ∇²g_i, where ∇²g_i is I on the
// diagonal blocks of masses i and i−1 and −I on their off-diagonal blocks.
func (c Chain) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Zero()
	for i := range c.N {
		l := lambda[i]
		for d := range 2 {
			r := 2*i + d
			dst.Set(r, r, dst.At(r, r)+l)
			if i > 0 {
				p := r - 2
				dst.Set(p, p, dst.At(p, p)+l)
				dst.Set(r, p, -l)
				dst.Set(p, r, -l)
			}
		}
	}
}

// CoordinateName returns "x3", "y3", … (masses numbered from 1 as in the paper).
func (c Chain) CoordinateName(i int) string {
	if i%2 == 0 {
		return "x" + strconv.Itoa(i/2+1)
	}
	return "y" + strconv.Itoa(i/2+1)
}

// ConstraintName returns "rod 3", … (rod i ends at mass i).
func (c Chain) ConstraintName(i int) string { return "rod " + strconv.Itoa(i+1) }

// Energy returns T = Σ m|q̇_i|²/2 and U = Σ m g_grav y_i (seed 002, Example 2).
func (c Chain) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	for i := range c.N {
		kinetic += c.M * (v[2*i]*v[2*i] + v[2*i+1]*v[2*i+1]) / 2
		potential += c.M * c.Grav * q[2*i+1]
	}
	return kinetic, potential
}

// NonConservativePower is 0: gravity is the only force (dae.EnergyInvariant).
func (c Chain) NonConservativePower(t float64, q, v []float64) float64 { return 0 }

// DrivingPower is 0: the rods are scleronomic (dae.EnergyInvariant).
func (c Chain) DrivingPower(t float64, q, lambda []float64) float64 { return 0 }

package spatial

import (
	"linkage/assembly"
	"linkage/dae"
	"linkage/law"
)

// System is an assembled spatial model: the equations of motion of seed 002, eq. 16, in
// the body coordinates q = (x₁, y₁, z₁, p0₁, p1₁, p2₁, p3₁, x₂, …) of the moving bodies
// (ground excluded), with the Euler-parameter normalization as one constraint row per body
// and analytic M(q), f, g, G, g_t, γ and derivatives. It is built by Model.Assemble, does
// not change afterwards, and its evaluations retain nothing and do not allocate.
// Evaluations are safe for concurrent use (custom forces' finite differences share scratch
// under a lock).
type System struct {
	nq, nc    int
	nbody     int        // moving bodies: rows 0..nbody−1 are their normalizations
	bodies    []bodyData // index 0 is the ground
	markers   []markerData
	pairs     []pairRef
	rows      []row // joint rows, constraint index nbody + k
	driven    []int // the rows with a motion (assembly.DrivenRows)
	joints    []jointData
	sds       []springDamper
	sdRange   map[string][2]int // force element name ⇒ its sds[from:to] (SpringDamperReadings)
	points    []pointForce
	torques   []torqueElem
	customs   *assembly.Customs
	frictions []frictionElem // joint friction (friction.go)
	gravity   Vec3
	axesQF    [3]*quadForm // S_k(e_m) of the body axes, for forces given in body axes

	disks        []diskData   // rolling disks' Pfaffian rows (disk.go)
	groundOrigin *markerFrame // the global frame, marker I of every rolling disk's pair

	assembly.Matrices               // M, G and the coupling matrices, dense and sparse, from the Write methods
	assembly.Frictions[[14]float64] // the dae.ReactionForce methods from frictions (friction.go)
	assembly.Catalog                // names of coordinates, rows and elements (dae.Namer, Bodies, Joints, Forces)
	pattern                         Pattern
	massPat, coupling               [][]int // MassPattern, CouplingPattern

}

var (
	_ dae.System                             = (*System)(nil)
	_ dae.MassDerivative                     = (*System)(nil)
	_ dae.ConstraintForceDerivative          = (*System)(nil)
	_ dae.ForceDerivative                    = (*System)(nil)
	_ dae.Namer                              = (*System)(nil)
	_ dae.Energy                             = (*System)(nil)
	_ dae.EnergyInvariant                    = (*System)(nil) // seed 001, eqs. 11-12 (energy.go)
	_ dae.Sparsity                           = (*System)(nil)
	_ dae.SparseEvaluator                    = (*System)(nil)
	_ dae.SparseConstraintJacobianDerivative = (*System)(nil) // second.go
	_ dae.SparseConstraintJacobianGamma      = (*System)(nil) // g, G and γ in one pass (constraintpass.go)
)

type bodyData struct {
	Body
	col int // column of x in q; −1 for the ground
}

type markerData struct {
	Marker
	frame markerFrame
	col   int // column of the body's x; −1 on the ground
}

// rowTerm is W(t)·c with c a coordinate of the row's pair; row is one joint constraint
// g = Σ W_k(t) c_k(q) − c0 − F(t) on one pair (Terms[0].Pair), with F = drive unless the
// drive only enters the weights (Trig: revolute motions).
type (
	rowTerm = assembly.Term[coord]
	row     = assembly.Row[coord]
)

type jointData struct {
	name         string
	kind         jointKind
	first, nrows int // first constraint index and number of rows
	pair         int // the markers' pair; for motions the driven joint's
	coord        coord
	hasCoord     bool
}

// springDamper acts along a scalar coordinate of a pair (TSDA: c = |d|; RSDA: the
// revolute angle; bushing: one per axis).
type springDamper = assembly.SpringDamper[coord]

type pointForce struct {
	col    int
	qs     *quadForm // of the marker's point
	fn     [3]law.Func
	global bool
}

type torqueElem struct {
	col    int
	fn     [3]law.Func
	global bool
}

// ElementInfo names one element and its kind ("ground", "body" with its normalization row;
// "spherical", "revolute", "translational", "cylindrical", "universal", "planar", "weld",
// "distance", "point-on-line", "point-on-plane", "motion", "rolling-disk" with their
// rows; "gravity", "tsda", "rsda", "bushing", "point-force", "torque", "custom"). Coordinates are named
// "body.x", "body.y", "body.z", "body.p0", …, "body.p3"; constraint rows "body.norm" for a
// normalization and after their joint with the row's suffix (".x", ".zx", ".d", ".c", …).
type ElementInfo = assembly.ElementInfo

// Size returns nq = 7·(bodies − 1) and nc = (bodies − 1) + joint rows.
func (s *System) Size() (nq, nc int) { return s.nq, s.nc }

// WriteMass writes M(q) = diag(m I₃, 4 G(p)ᵀ J' G(p)) per body (Haug 1989, ch. 11;
// Nikravesh 1988, ch. 11), from T = ½ m Ṙᵀ Ṙ + ½ ω'ᵀ J' ω' with ω' = 2 G(p) ṗ. The
// 4×4 block is singular along p (G p = 0); the normalization row makes M positive
// definite on the null space of G, which is what the KKT systems need (seed 002, Lemma 1).
func (s *System) WriteMass(dst assembly.Target, _ float64, q []float64) {
	dst.Zero()
	for _, b := range s.bodies[1:] {
		c := b.col
		for k := range 3 {
			dst.Add(c+k, c+k, b.Mass)
		}
		p := [4]float64{q[c+3], q[c+4], q[c+5], q[c+6]}
		G := gMat(&p)
		var JG [3][4]float64 // J' G
		for i := range 3 {
			for j := range 4 {
				JG[i][j] = b.Inertia[i][0]*G[0][j] + b.Inertia[i][1]*G[1][j] + b.Inertia[i][2]*G[2][j]
			}
		}
		for a := range 4 {
			var row [4]float64
			for bb := range 4 {
				row[bb] = 4 * (G[0][a]*JG[0][bb] + G[1][a]*JG[1][bb] + G[2][a]*JG[2][bb])
			}
			dst.Row(c+3+a).AddRun(c+3, row[:])
		}
	}
}

// tMat returns T(y) with G(p)ᵀ y = T(y) p: T(y) = [0, −yᵀ; y, −ỹ].
func tMat(y Vec3) [4][4]float64 {
	return [4][4]float64{
		{0, -y[0], -y[1], -y[2]},
		{y[0], 0, y[2], -y[1]},
		{y[1], -y[2], 0, y[0]},
		{y[2], y[1], -y[0], 0},
	}
}

// teMat returns T_E(n) with E(p)ᵀ n = T_E(n) p: T_E(n) = [0, −nᵀ; n, ñ].
func teMat(n Vec3) [4][4]float64 {
	return [4][4]float64{
		{0, -n[0], -n[1], -n[2]},
		{n[0], 0, -n[2], n[1]},
		{n[1], n[2], 0, -n[0]},
		{n[2], -n[1], n[0], 0},
	}
}

// WriteMassDerivative writes ∂(M a)/∂q. M_pp a_p = 4 G(p)ᵀ J' G(p) a_p with G linear in p and
// G(p) x = −G(x) p, so
//
//	∂(M_pp a_p)/∂p = 4 (T(J' G(p) a_p) − G(p)ᵀ J' G(a_p)),
//
// T(y) the 4×4 matrix of G(p)ᵀ y = T(y) p.
func (s *System) WriteMassDerivative(dst assembly.Target, _ float64, q, a []float64) {
	dst.Zero()
	for _, b := range s.bodies[1:] {
		c := b.col + 3
		p := [4]float64{q[c], q[c+1], q[c+2], q[c+3]}
		ap := [4]float64{a[c], a[c+1], a[c+2], a[c+3]}
		G := gMat(&p)
		Ga := gMat(&ap)
		y := b.Inertia.MulVec(mulG(&G, &ap))
		T := tMat(y)
		var JGa [3][4]float64
		for i := range 3 {
			for j := range 4 {
				JGa[i][j] = b.Inertia[i][0]*Ga[0][j] + b.Inertia[i][1]*Ga[1][j] + b.Inertia[i][2]*Ga[2][j]
			}
		}
		for r := range 4 {
			var row [4]float64
			for k := range 4 {
				row[k] = 4 * (T[r][k] - (G[0][r]*JGa[0][k] + G[1][r]*JGa[1][k] + G[2][r]*JGa[2][k]))
			}
			dst.Row(c+r).AddRun(c, row[:])
		}
	}
}

// InitialGuess returns new slices with the bodies' initial guesses: Body.Pos, Orient
// (normalized; identity when zero), Vel and ṗ = ½ G(p)ᵀ ω' from AngVel (the inverse of
// ω' = 2 G ṗ on pᵀṗ = 0, seed 002 eq. 39), the starting point of dae.Initialize.
func (s *System) InitialGuess() (q0, v0 []float64) {
	q0 = make([]float64, s.nq)
	v0 = make([]float64, s.nq)
	for _, b := range s.bodies[1:] {
		c := b.col
		p := [4]float64(orientation(b.Orient))
		copy(q0[c:c+3], b.Pos[:])
		copy(q0[c+3:c+7], p[:])
		copy(v0[c:c+3], b.Vel[:])
		G := gMat(&p)
		pd := mulGT(&G, b.AngVel)
		for k := range 4 {
			v0[c+3+k] = pd[k] / 2
		}
	}
	return q0, v0
}

// orientation is the normalized orientation a Body field means (identity when zero).
func orientation(p Quat) Quat {
	if p == (Quat{}) {
		return Identity()
	}
	return p.Normalized()
}

// DOF returns the number of degrees of freedom nq − rank(G) at the consistent state c
// (rank(G) = nc minus the rows dae.Initialize found redundant).
func (s *System) DOF(c dae.Consistent) int { return s.nq - (s.nc - len(c.Redundant)) }

// BodyByName returns the identifier of the named body.
func (s *System) BodyByName(name string) (BodyID, bool) {
	k, ok := s.BodyIndex(name)
	return BodyID(k), ok
}

// JointByName returns the identifier of the named joint or motion.
func (s *System) JointByName(name string) (JointID, bool) {
	if k, ok := s.JointIndex(name); ok {
		return JointID(k + 1), true
	}
	return 0, false
}

package planar

import (
	"sync"

	"linkage/assembly"
	"linkage/dae"
	"linkage/flexbeam"
	"linkage/law"
)

// System is an assembled planar model: the equations of motion of seed 002, eq. 16, in
// body coordinates q = (x₁, y₁, θ₁, x₂, …) of the moving bodies (ground excluded), with
// analytic M, f, g, G, g_t, γ and derivatives. It is built by Model.Assemble, does not
// change afterwards, and its evaluations retain nothing and do not allocate. Evaluations
// are safe for concurrent use (custom forces' finite differences share scratch under a lock).
type System struct {
	nq, nc                         int
	bodies                         []bodyData // index 0 is the ground
	markers                        []markerData
	pairs                          []pairRef
	rows                           []row
	driven                         []int     // the rows with a motion (assembly.DrivenRows)
	weights                        []float64 // the bodies' weights m·g as generalized forces (bodyWeights)
	joints                         []jointData
	sds                            []springDamper
	sdRange                        map[string][2]int // force element name ⇒ its sds[from:to] (SpringDamperReadings)
	points                         []pointForce
	torques                        []torqueElem
	customs                        *assembly.Customs
	frictions                      []frictionElem  // joint friction (friction.go)
	knives                         []knifeData     // knife edges, Pfaffian rows (knife.go)
	knifeRows                      [][]int         // PfaffianPattern (knife.go)
	knifeCSR                       dae.CSR         // its compressed rows
	beams                          []flexbeam.Body // flexible bodies (flexbeam)
	beamDst                        assembly.Target // the target the beams add to (beamTarget)
	offsets                        []rowOffset     // revolute rows at moving beam nodes (flexjoint.go)
	cams                           []camRow        // contour terms of cam joints (cam.go)
	flexMarkers                    []*flexMarker   // per marker; nil off flexible bodies
	massPattern                    [][]int         // nil without flexible bodies (M diagonal)
	gravity                        Vec
	assembly.Matrices              // M, G and the coupling matrices, dense and sparse, from the Write methods
	assembly.Frictions[[6]float64] // the dae.ReactionForce methods from frictions (friction.go)
	assembly.Catalog               // names of coordinates, rows and elements (dae.Namer, Bodies, Joints, Forces)

	pattern  Pattern // structural sparsity of G, fixed at assembly
	coupling [][]int // CouplingPattern
	revOnce  sync.Once
	rev      revPlan // the revolute joints' rows on the patterns (revrows.go), made once

}

var (
	_ dae.System                             = (*System)(nil)
	_ dae.ConstantMass                       = (*System)(nil)
	_ dae.MassDerivative                     = (*System)(nil)
	_ dae.ConstraintForceDerivative          = (*System)(nil)
	_ dae.ConstraintJacobianDerivative       = (*System)(nil)
	_ dae.GammaDerivative                    = (*System)(nil)
	_ dae.ForceDerivative                    = (*System)(nil)
	_ dae.Namer                              = (*System)(nil)
	_ dae.Sparsity                           = (*System)(nil)
	_ dae.Energy                             = (*System)(nil)
	_ dae.EnergyInvariant                    = (*System)(nil) // seed 001, eqs. 11-12 (energy.go)
	_ dae.SparseEvaluator                    = (*System)(nil)
	_ dae.SparseConstraintJacobianDerivative = (*System)(nil) // on G's pattern (constraint.go)
	_ dae.SparseConstraintWithJacobian       = (*System)(nil) // g and G in one pass (constraint.go)
	_ dae.SparseConstraintJacobianGamma      = (*System)(nil) // g, G and γ in one pass (constraint.go)
	_ dae.Algebraic                          = (*System)(nil) // cam joints' contact parameters (cam.go)
)

type bodyData struct {
	Body
	col int // column of x in q; −1 for the ground
}

type markerData struct {
	Marker
	col int // column of the body's x; −1 on the ground
}

// term is w·c with c a coordinate of a pair; row is one scalar constraint
// g = Σ terms − c0 − drive(t) (assembly.Row; planar rows are never Trig).
type (
	term = assembly.Term[coordKind]
	row  = assembly.Row[coordKind]
)

type jointData struct {
	name         string
	kind         jointKind
	first, nrows int
	pair         int       // the markers' pair; for couplers and motions the (first) driven joint's
	coord        coordKind // the joint coordinate (revolute: angle; translational: along)
	hasCoord     bool
}

// springDamper acts along a scalar coordinate of a pair (TSDA: c = l; RSDA: c = β;
// bushing: one per axis).
type springDamper = assembly.SpringDamper[coordKind]

type pointForce struct {
	col    int
	s      Vec
	phi    float64
	fx, fy law.Func
	global bool
}

type torqueElem struct {
	col int
	tau law.Func
}

// ElementInfo names one element and its kind ("ground", "body"; "revolute",
// "translational", "distance", "weld", "point-on-line", "coupler", "motion"; "gravity",
// "tsda", "rsda", "point-force", "torque", "bushing", "custom") with a joint's rows.
// Coordinates are named "body.x", "body.y", "body.theta", constraint rows after their joint
// with the row's suffix (".x", ".y", ".n", ".theta", ".d", ".c").
type ElementInfo = assembly.ElementInfo

// Size returns nq = 3·(bodies − 1) and nc, the number of constraint rows.
func (s *System) Size() (nq, nc int) { return s.nq, s.nc }

// WriteMass writes M = diag(m₁, m₁, J₁, m₂, …), constant in body coordinates with the
// centre of mass as origin (Haug 1989, eq. 6.1.22), and the blocks of the flexible bodies
// (flexible.go) (assembly.MatrixWriter: Mass and MassValues).
func (s *System) WriteMass(dst assembly.Target, _ float64, q []float64) {
	dst.Zero()
	for _, b := range s.bodies[1:] {
		dst.Add(b.col, b.col, b.Mass)
		dst.Add(b.col+1, b.col+1, b.Mass)
		dst.Add(b.col+2, b.col+2, b.Inertia)
	}
	for i := range s.beams {
		s.beams[i].WriteMass(s.beamTarget(dst), q)
	}
}

// ConstantMass reports whether M depends on neither t nor q: true without flexible bodies.
func (s *System) ConstantMass() bool { return len(s.beams) == 0 }

// WriteMassDerivative writes ∂(M a)/∂q, zero but for the flexible bodies
// (assembly.MatrixWriter).
func (s *System) WriteMassDerivative(dst assembly.Target, _ float64, q, a []float64) {
	dst.Zero()
	for i := range s.beams {
		s.beams[i].WriteMassDerivative(s.beamTarget(dst), q, a)
	}
}

// InitialGuess returns new slices with the bodies' initial guesses (Body.Pos, Angle, Vel,
// AngVel) and of the cam joints' contact parameters (cam.go), the starting point of
// dae.Initialize.
func (s *System) InitialGuess() (q0, v0 []float64) {
	q0 = make([]float64, s.nq)
	v0 = make([]float64, s.nq)
	for _, b := range s.bodies[1:] {
		q0[b.col], q0[b.col+1], q0[b.col+2] = b.Pos[0], b.Pos[1], b.Angle
		v0[b.col], v0[b.col+1], v0[b.col+2] = b.Vel[0], b.Vel[1], b.AngVel
	}
	s.camGuess(q0)
	return q0, v0
}

// DOF returns the number of degrees of freedom nq − rank(G) at the consistent state c
// (rank(G) = nc minus the rows dae.Initialize found redundant).
func (s *System) DOF(c dae.Consistent) int { return s.nq - (s.nc - len(c.Redundant)) }

// BodyByName returns the identifier of the named body.
func (s *System) BodyByName(name string) (BodyID, bool) {
	k, ok := s.BodyIndex(name)
	return BodyID(k), ok
}

// JointByName returns the identifier of the named joint, coupler or motion.
func (s *System) JointByName(name string) (JointID, bool) {
	if k, ok := s.JointIndex(name); ok {
		return JointID(k + 1), true
	}
	return 0, false
}

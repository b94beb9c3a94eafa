// Package natural builds the equations of motion of planar mechanisms in natural (fully
// Cartesian) coordinates (García de Jalón & Bayo, Kinematic and Dynamic Simulation of
// Multibody Systems, 1994, chs. 2-3; seed 001, Cardenal, Cuadrado & Bayo 1997): the
// coordinates are the x, y of basic points, each rigid element holds two of them, and
//
//   - the mass matrix is constant: each element's 4×4 block over its two points follows
//     from its mass, its moment of inertia and where its points and centre of mass lie
//     (massMatrix), and points shared by several elements sum their blocks;
//   - a revolute joint is a shared point and adds no equation; a point pinned to the ground
//     is fixed and is no coordinate;
//   - each element keeps its two points at their distance L by one rigid row
//     (|r_j − r_i|² − L²)/(2L) = 0 (named "body.rigid"), scaled so that its gradient has
//     unit length, as the penalty methods of seed 001 expect; a point an element holds
//     beyond its basic two is tied to them by two linear rows ("body.point.x", ".y");
//   - translational, point-on-line, distance and weld joints, motions (drivers) and the
//     force elements of package planar (gravity, TSDA, RSDA, bushing, point forces,
//     torques) are written on the points, every constraint coordinate being bilinear in
//     them, so their Hessians are constant (kinematics.go).
//
// The model is described as in package planar, by bodies with a centre-of-mass frame,
// markers and joints; Assemble chooses the points: those the revolute joints share, then,
// for an element with fewer than two, its centre of mass ("body.cm") and a point at its
// radius of gyration √(J/m) on its x axis ("body.ref"). Shared points are named after the
// first revolute joint that makes them, so coordinates read "crankpin.x", "rod.cm.y".
//
//	m := natural.NewModel()
//	m.SetGravity(natural.Vec{0, -9.81})
//	crank := m.AddBody(natural.Body{Name: "crank", Mass: 3, Inertia: 0.0225, Pos: natural.Vec{0.15, 0}})
//	o := m.AddMarker(natural.Marker{Name: "O", Body: natural.Ground})
//	a := m.AddMarker(natural.Marker{Name: "A", Body: crank, Point: natural.Vec{-0.15, 0}})
//	pin := m.AddRevolute("pin", o, a)
//	m.AddMotion("drive", pin, law.Sine{Amplitude: 0.1, Omega: 2})
//	sys, err := m.Assemble() // *System: a dae.System with every capability
//
// The body-coordinate view of every element (Pose, Velocity, Acceleration) and joint
// reactions (Reaction; a revolute joint's from the equations of motion of the bodies on one
// side of its point) read the same as package planar's, so that outputs can be compared
// between the two coordinate sets. Angles are not coordinates here: a revolute motion is
// written sin(β − f(t)) = 0 and an RSDA's deflection is wrapped into (−π, π].
//
// Energies, NonConservativePower and DrivingPower give the energy invariant of seed 001
// (eqs. 11-12), Π = T + V − ∫(P_nc + P_driving) dt, with T = ½ vᵀ M v. Evaluations write
// every entry of their destination, retain nothing and do not allocate; the System is a
// dae.SparseEvaluator (assembly.Matrices) with the patterns of dae.Sparsity.
package natural

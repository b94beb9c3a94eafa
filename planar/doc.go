// Package planar builds the equations of motion of planar mechanisms in body coordinates
// (seed 000, Haug et al., sections 4.1-4.3; Haug, Computer-Aided Kinematics and Dynamics of
// Mechanical Systems, 1989, chs. 3 and 6; Nikravesh 1988): every moving body i has
// q_i = (x_i, y_i, θ_i), the position of its centre of mass and the angle of its frame, so
// q' = v and M = diag(m₁, m₁, J₁, …) is constant. The ground is body 0 and has no coordinates.
//
//	m := planar.NewModel()
//	m.SetGravity(planar.Vec{0, -9.81})
//	crank := m.AddBody(planar.Body{Name: "crank", Mass: 3, Inertia: 0.0225, Pos: planar.Vec{0.15, 0}})
//	o := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground})
//	a := m.AddMarker(planar.Marker{Name: "A", Body: crank, Point: planar.Vec{-0.15, 0}})
//	pin := m.AddRevolute("pin", o, a)
//	m.AddMotion("drive", pin, law.Sine{Amplitude: 0.1, Omega: 2})
//	sys, err := m.Assemble() // *System: dae.System with every capability
//	q0, v0 := sys.InitialGuess() // then dae.Initialize(sys, 0, q0, v0, nil)
//
// Add methods record; Assemble validates everything at once and its error names each bad
// element (empty or duplicate names, non-positive mass or inertia, NaN parameters, markers
// on missing bodies, unknown markers or joints, a joint between markers of one body).
// Identifiers: BodyID 0 is the ground; MarkerID, JointID and ForceID start at 1, so a zero
// field means "unset".
//
// # Markers and joint equations
//
// A marker is a frame on a body: point s and angle φ in the body frame. Its global point is
// r = R + A(θ)s and its axes are u = (cos α, sin α), n = (−sin α, cos α), α = θ + φ. With
// d = r_J − r_I for a joint's markers I and J (Haug 1989, sec. 3.3):
//
//	revolute        d = 0                                  rows .x .y        coordinate α_J − α_I
//	translational   n_I·d = 0,  α_J − α_I = 0              rows .n .theta    coordinate u_I·d
//	distance        (d·d − L²)/2 = 0                       row  .d
//	weld            d = 0,  α_J − α_I = 0                  rows .x .y .theta
//	point-on-line   n_I·d = 0                              row  .n           coordinate u_I·d
//	coupler         c_b − ratio·c_a − offset = 0            row  .c
//	motion          c(q) − f(t) = 0  (g_t = −f', g_tt = −f'')   row .c
//
// Constraint rows are numbered in the order joints were added and named "joint.suffix"
// (dae.Namer), so integrator errors and dae.Initialize's redundancy report name the joint.
// Coordinates are named "body.x", "body.y", "body.theta".
//
// # Forces
//
// Gravity m·g at every centre of mass; TSDA (tension F = Spring(l − l₀) + Damper(l') +
// Actuator(t) along r_J − r_I, singular at l = 0 where the direction is undefined); RSDA
// (torque −F on J, +F on I, F = Spring(β − β₀) + Damper(β') + Actuator(t), β = α_J − α_I);
// bushing (linear in marker I's axes); point forces (global or follower); torques; custom
// Go callbacks (ForceFunc, derivatives by central differences). Force laws (law.Force) and
// time functions (law.Func) come from package law, which every modeling route shares.
//
// # Joint friction
//
// SetFriction gives a revolute or translational joint Coulomb friction pressed by its own
// reaction, with a smoothed stick-slip law, plus viscous friction (JointFriction,
// law.Friction): along the joint coordinate c (the relative angle, or the displacement)
//
//	F = −(μ R N_ε tanh(R c'/VReg) + Viscous·c'),   N_ε = √(N² + ε²),   f = F ∇c,
//
// with N the pin force |(λ_x, λ_y)| and R the pin radius (revolute), or N² = λ_n² +
// (λ_θ/arm)² and R = 1 (translational). f depends on λ: the System is a
// dae.ReactionForce (HasReactionForce is true when a joint has friction) with analytic
// ∂f/∂q = ∇c (F_c' ∇²c v)ᵀ + F ∇²c, ∂f/∂v = F_c' ∇c ∇cᵀ and ∂f/∂λ = ∇c ∂F/∂λ, and
// ReactionPower vᵀ f = F c' joins the non-conservative power of the energy balance.
//
// # Knife edges
//
// AddKnifeEdge puts a blade at a marker of a moving body on the ground plane: the marker's
// point moves along the marker's x axis and turns freely but cannot slide across it,
// n·(ẋ, ẏ) + c₀θ̇ = 0 with n the marker's y axis, a nonholonomic constraint (no g(q) has
// it as derivative). The System is then a dae.Nonholonomic with one Pfaffian row per
// knife edge, analytic ∂(A v)/∂q, ∂(Aᵀμ)/∂q and γ_A (knife.go). The Chaplygin sleigh is
// one body on one knife edge; ExampleModel_AddKnifeEdge integrates it.
//
// # Cam joints
//
// AddCam keeps a follower point (marker J) on the contour of marker I's body, given in polar
// form r(u) about I's point (a law.Func: an expression, a law.Table spline),
//
//	r_J − r_I − A(θ_I + φ_I) r(u)(cos u, sin u) = 0,
//
// with the contact parameter u as an algebraic variable (dae.Algebraic): a massless
// coordinate "name.u" after the bodies' and beams'. Its row of the equations of motion,
// 0 = −λᵀ ∂g/∂u, makes the contact force normal to the contour. G, γ, ∂(Gᵀλ)/∂q and ∂γ/∂q
// are analytic (cam.go) but for r‴ in ∂γ/∂u, a central difference of r″.
//
// # Signs: reactions and energy
//
// The generalized constraint force is −Gᵀλ (package dae). Reaction(j, q, λ) reports the part
// −Σ_rows λ_r ∇g_r acting on each of the joint's two bodies: the force and the moment about
// the marker's point, in global axes and in the axes of marker I. For a motion, λ is the
// driving load with this sign: a revolute motion's −λ is the torque on body J.
//
// Energies returns T, the gravitational and the spring potential; NonConservativePower
// returns P_nc = vᵀ f_nc (dampers, actuators, applied loads, custom forces) and DrivingPower
// P_driving = Σ λ_r g_t,r over the motions' rows, so the energy invariant of seed 001
// (eqs. 11-12), Π = T + V − ∫ (P_nc + P_driving) dt, can be monitored (assembly.WorkMeter
// integrates both along a run). Scleronomic rows do no work: their −λᵀ G v vanishes on the velocity
// constraint and is not counted, so a velocity residual shows in Π instead of in the work.
//
// # Flexible bodies
//
// AddFlexibleBody makes a body a planar, linearized Euler–Bernoulli beam in a floating
// frame of reference (Beam; Simeon 1996, the model of the IVP test set's crank and of
// seed 003's flexible slider-crank): its (x, y, θ) are the frame's origin and angle, its
// elastic coordinates e (nodal u, w, w′ of k finite elements, or Simeon's sine modes)
// follow every rigid coordinate in q. The floating frame couples them through a mass matrix
// M(θ, e) and velocity terms (flexible.go, built from the constant integrals of beam.go);
// the stiffness K is constant and the strain energy ½ eᵀ K e is part of V. Markers on a
// beam sit at nodes; at a node that moves in the frame a revolute joint's rows gain the
// node's displacement (flexjoint.go), and other elements are refused there. With a
// flexible body ConstantMass is false and MassPattern lists the beam's blocks.
//
// # Derivatives
//
// Every row and force element is built on a handful of scalar joint coordinates c(p) of the
// six coordinates p of a marker pair, each with an analytic gradient and Hessian
// (kinematics.go). From them: G, γ = −Σ vᵀ∇²g v + f″ (G_t = 0), ∂(Gᵀλ)/∂q = Σ λ_r ∇²g_r,
// and ∂f/∂q, ∂f/∂v of the spring-dampers. Singular poses (aligned bodies, coincident
// points) are regular for every element except the TSDA at l = 0.
//
// Evaluations write every entry of their destination, retain nothing and do not allocate.
//
// # Sparsity
//
// Assemble records the structural pattern of G (System.Pattern: the columns each row can
// touch, those of its joint's two bodies); M is block diagonal with one diag(m, m, J)
// block per rigid body and one block per flexible body. Both are fixed for the life of the System. The System is a
// dae.SparseEvaluator: M, G and the coupling matrices are written once, against an
// assembly.Target, into the dense matrices or straight into the patterns' values at the
// positions assembly.Matrices finds once for each pair and row term (assembly.Elements).
// The rows of revolute joints, the bulk of a chain's, are written into the patterns'
// values by a plan made on the first sparse evaluation (revrows.go): the same numbers as
// the generic loop over rows and terms, at about half its cost.
package planar

// Package spatial builds the equations of motion of spatial mechanisms in body coordinates
// with Euler parameters (seed 002, section 3.1, Remark 7; Haug, Computer-Aided Kinematics
// and Dynamics of Mechanical Systems, 1989, chs. 9-11; Nikravesh, Computer-Aided Analysis
// of Mechanical Systems, 1988, chs. 6 and 11). Every moving body i has seven coordinates
//
//	q_i = (R_i, p_i) = (x, y, z, p0, p1, p2, p3),
//
// the position of its centre of mass and the Euler parameters (unit quaternion) of its
// body frame, whose rotation matrix is A(p) = (p0² − eᵀe) I + 2 e eᵀ + 2 p0 ẽ, e = (p1, p2,
// p3) (seed 002, Remark 7b). The ground is body 0 and has no coordinates. It mirrors
// package planar: a user who knows one knows the other.
//
//	m := spatial.NewModel()
//	m.SetGravity(spatial.Vec3{0, 0, -9.81})
//	link := m.AddBody(spatial.Body{Name: "link", Mass: 2, Inertia: spatial.Diag(0.1, 0.1, 0.01),
//		Pos: spatial.Vec3{0, 0, -0.5}})
//	o := m.AddMarker(spatial.Marker{Name: "O", Body: spatial.Ground, Axis: spatial.Vec3{0, 1, 0}})
//	a := m.AddMarker(spatial.Marker{Name: "A", Body: link, Point: spatial.Vec3{0, 0, 0.5}, Axis: spatial.Vec3{0, 1, 0}})
//	hinge := m.AddRevolute("hinge", o, a)
//	m.AddMotion("drive", hinge, law.Sine{Amplitude: 0.1, Omega: 2})
//	sys, err := m.Assemble()     // *System: dae.System with every capability
//	q0, v0 := sys.InitialGuess() // then dae.Initialize(sys, 0, q0, v0, nil)
//
// # Why Euler parameters with the normalization as a constraint
//
// Seed 002 (section 3.1) lists the ways to put rotations into the equations of motion:
//
//   - Three Euler angles (Remark 6): q' = v with 6 coordinates per body, but every angle set
//     is singular somewhere (θ = 0 for the z-y-z set of Remark 6a, where only φ + ψ is
//     defined), near which q' grows without bound (Fig. 6: max ‖q_R'‖ is ten times max ‖Ω‖
//     for the heavy top) and error-controlled integrators crawl. Switching angle sets
//     mid-run changes the coordinates of every integrator's history.
//   - Euler parameters with the kinematic relation p' = H(p) Ω (eqs. 37, 39): no
//     singularity and six velocities per body, but q' = H(q) v with a rectangular H, so the
//     integrators would need a second form of the equations. The normalization is then an
//     invariant γ(q) = 0 (eq. 40) that cannot join the holonomic constraints (G H ≡ 0 on
//     it, which breaks their full-rank assumption); it drifts unless each step is
//     re-normalized (Remark 7d), outside the integrators' error control, or enforced by the
//     stabilized form q' = H v − (∂γ/∂q)ᵀμ, 0 = γ(q) with artificial multipliers μ (eq. 45),
//     a further DAE structure every method would have to support.
//   - Lie-group integration on SO(3) (eqs. 33-34): no parametrization at all, but methods of
//     their own (lie-genalpha). LieSystem (lie.go) puts an assembled System on that route
//     with the same stored q, so every model reaches both.
//
// This package takes p as ordinary coordinates with q' = v, so that the one equation of
// package dae (M a = f − Gᵀλ, g = 0) and every integrator apply unchanged, and makes
// |p|² = 1 a holonomic constraint row per body (Remark 7c: g_i = pᵀp − 1). The price is
// one coordinate and one multiplier per body and a mass matrix M(q) that depends on p and
// is singular along p; the constraint makes the KKT matrix regular (seed 002, Lemma 1) and
// the norm is kept by the integrators' own constraint enforcement, with no
// re-normalization step: at round-off by the projected explicit methods (dopri5: 1e-16
// measured), at the Newton tolerance by the index-3 implicit ones (hht: 1e-12 at
// RTol = 1e-8).
//
// # Mass matrix and quadratic velocity force
//
// With ω' = 2 G(p) ṗ, G(p) = [−e, −ẽ + p0 I] (seed 002 eq. 38: H₀ = 2G), the kinetic energy
// is T = ½ m ṘᵀṘ + 2 ṗᵀ G(p)ᵀ J' G(p) ṗ, hence per body
//
//	M = diag(m I₃, 4 Gᵀ J' G),   f_p = −8 Ġᵀ J' G ṗ   (Ġ = G(ṗ); Haug 1989, ch. 11),
//
// derived from Lagrange's equations with the identities Ġṗ = 0 and G(p)ṗ = −G(ṗ)p. The
// quadratic velocity force does no work (ṗᵀ f_p = 0). Body.AngVel (ω') gives the initial
// ṗ = ½ G(p)ᵀ ω'.
//
// # Markers and joint equations
//
// A marker is a frame on a body: point s and axes x, y, z (Marker.Axis is z). Its global
// point is r = R + A(p)s and its axes A(p)x, …; d = r_J − r_I for a joint's markers I and J
// (Haug 1989, ch. 9, built from dot products of body vectors):
//
//	spherical       d = 0                                          rows .x .y .z
//	revolute        d = 0, z_Iᵀx_J = z_Iᵀy_J = 0                   rows .x .y .z .zx .zy   coordinate β
//	translational   x_Iᵀd = y_Iᵀd = 0, z_Iᵀx_J = z_Iᵀy_J = x_Iᵀy_J = 0   rows .dx .dy .zx .zy .xy   coordinate z_Iᵀd
//	cylindrical     x_Iᵀd = y_Iᵀd = 0, z_Iᵀx_J = z_Iᵀy_J = 0       rows .dx .dy .zx .zy    coordinate z_Iᵀd
//	universal       d = 0, z_Iᵀz_J = 0                             rows .x .y .z .zz
//	planar          z_Iᵀd = 0, z_Iᵀx_J = z_Iᵀy_J = 0               rows .d .zx .zy
//	weld            d = 0, z_Iᵀx_J = z_Iᵀy_J = x_Iᵀy_J = 0         rows .x .y .z .zx .zy .xy
//	distance        (dᵀd − L²)/2 = 0                               row  .d
//	point-on-line   x_Iᵀd = y_Iᵀd = 0                              rows .dx .dy             coordinate z_Iᵀd
//	point-on-plane  z_Iᵀd = 0                                      row  .d
//	motion          z_Iᵀd − f(t) = 0, or for a revolute            row  .c
//	                cos f·(y_Iᵀx_J) − sin f·(x_Iᵀx_J) = sin(β − f) = 0
//	rolling disk    z_C − r √(1 − u_z²) = 0                        row  .h    and Pfaffian rows .x .y
//
// with β = atan2(y_Iᵀx_J, x_Iᵀx_J) the angle from x_I to x_J about z_I. The revolute motion
// is written with sin(β − f) so that it stays smooth where β wraps at ±π; its weights
// depend on t, so G_t ≠ 0 enters g_t and γ. Constraint rows: first one normalization
// "body.norm" per body, then the joints' rows in the order joints were added, named
// "joint.suffix" (dae.Namer), so dae.Initialize's redundancy report names them (a planar
// mechanism built with spatial revolutes has redundant .z/.zx/.zy rows, reported by name).
// Coordinates are named "body.x", "body.y", "body.z", "body.p0", …, "body.p3".
//
// # Rolling disk
//
// AddRollingDisk puts a thin disk of radius r, centre and axis u given by a marker, on the
// ground plane z = 0 (disk.go): the holonomic row .h holds the lowest point of the rim on the
// plane (u_z the axis's vertical component, z_C the centre's height), and two nonholonomic rows
// in the Pfaffian form of seed 002, eq. 44, A(q) v = 0, keep that point of the disk from
// sliding along x and y. The System is a dae.Nonholonomic (NumPfaffian = 0 without disks),
// with analytic ∂(A v)/∂q, ∂(Aᵀμ)/∂q and γ_A; those matrices are dense (the Pfaffian
// interface has no sparse form). A disk lying flat (u_z = ±1) is singular.
//
// # Forces
//
// Gravity m·g; TSDA along d (singular at |d| = 0); RSDA about a revolute axis (torque
// −F about z_I on J, F = Spring(β − β₀) + Damper(β') + Actuator(t); β wraps at ±π); a
// 6-component linear bushing on the translations along I's axes and the small rotations
// (Bushing); point forces and torques in global or body axes as functions of time (Func);
// Go callbacks (ForceFunc, derivatives by central differences). Time functions and force
// laws come from package law, which every modeling route shares.
//
// Joint friction (SetFriction, JointFriction; law.Friction) in revolute and translational
// joints: F = −(μ R N_ε tanh(R c'/VReg) + Viscous·c') along the joint coordinate c, pressed
// by the joint's reaction (a revolute's pin force |(λ_x, λ_y, λ_z)| at pin radius R; a
// translational's normal forces and bending moments/arm). It depends on λ: the System is a
// dae.ReactionForce with analytic ∂/∂q, ∂/∂v, ∂/∂λ (HasReactionForce when a joint has
// friction), and ReactionPower joins the non-conservative power.
//
// # Signs: reactions and energy
//
// The generalized constraint force is −Gᵀλ (package dae). Reaction(j, q, λ) reports the part
// of −Gᵀλ of the joint's rows on each of its two bodies, as force and moment about the
// marker point, in global axes and in marker I's axes. Energies returns T, the
// gravitational and the spring potential; NonConservativePower returns P_nc = vᵀ f_nc and
// DrivingPower P_driving = Σ λ_r g_t,r over the motions' rows, so that
// Π = T + V − ∫ (P_nc + P_driving) dt (seed 001, eqs. 11-12) can be monitored
// (assembly.WorkMeter integrates both along a run).
//
// # Derivatives
//
// Every vector in a joint equation is linear in R and a homogeneous quadratic in p, so each
// component is pᵀ S_k p with constant S_k (kinematics.go): joint rows are dot products of
// such vectors with exact gradients and Hessians. From them G, γ, ∂(Gᵀλ)/∂q, and the
// spring-dampers' ∂f/∂q, ∂f/∂v; ∂(M a)/∂q and the derivatives of the quadratic velocity
// force are written out in system.go and force.go. Evaluations write every entry of their
// destination, retain nothing and do not allocate.
//
// # Sparsity
//
// Assemble records the structural pattern of G (System.Pattern). M is block diagonal. The
// System is a dae.SparseEvaluator: M, G and the coupling matrices are written once,
// against an assembly.Target, into the dense matrices or straight into the patterns'
// values at the positions assembly.Matrices finds once for each pair and row term
// (assembly.Elements).
package spatial

// Package joint is the modeling route of seed 002 §3.3 (Table 1, eqs. 46-59): open trees
// of rigid bodies in relative (joint) coordinates, whose forward dynamics is the recursive
// O(N) articulated-body recursion, and loops closed by cut joints whose closure conditions
// enter the same index-3 contract as every other route (dae.System):
//
//	M(q) q'' = f(q, q') − G(q)ᵀ λ,    0 = g(t, q).
//
// Every joint is a chain of one-degree-of-freedom primitives (a rotation about an axis or a
// translation along it) with massless frames between them: a spherical joint is three
// rotations (Cardan angles z, x, y), a universal joint two, a free joint three translations
// and a spherical joint. The joint coordinates are then plain numbers in a linear space,
// q' = v, and every integrator takes them as they are; the price is the Cardan
// singularity when the middle angle of a spherical joint reaches ±90° (the mass matrix
// becomes singular there, and the run stops with a singular-matrix or non-finite
// acceleration error naming the coordinate). Euler parameters
// with a normalization row would avoid it but make M singular along p, which the
// articulated-body recursion cannot invert joint by joint.
//
// All spatial quantities are kept in world coordinates, referred to the world origin
// (Plücker coordinates [ω; v_O]), so a parent and a child never need a frame transform:
// the recursions of Featherstone's "base coordinates" form. The articulated-body
// recursion and Newton-Euler take a composite joint's primitives as one joint of two,
// three or six degrees of freedom (multidof.go): one downdate of the body's articulated
// inertia by a k × k D (factored L Δ Lᵀ) instead of k through the massless inner frames,
// and a spherical joint's three axes through one point as one rotation about it.
//
// What the integrators get: Mass (composite-rigid-body algorithm, O(N·depth)) and Force
// (Newton-Euler, O(N)) for the contract; MassSolve (dae.MassSolver: the articulated-body
// recursion, O(N)) with which integrate solves eq. 17 by the Schur complement G M⁻¹ Gᵀ
// without forming M (consistent starts, rk4, dopri5, mdop5, daealpha's acceleration
// solve); MassMul (dae.MassMultiplier: M x by Newton-Euler, O(N)), with which the
// Newton-Krylov corrector of hht and genalpha, preconditioned by the mass part through
// MassSolve, never forms M (integrate/doc.go, "Newton matrices without M");
// StiffMassSolve (dae.StiffMassSolver: (M + k Σ Φ_mᵀ K_m Φ_m)⁻¹ b, each body's geometric
// stiffness K_m of its loads an added angular inertia in the recursion, geomstiff.go), the
// stiffness part of those correctors' preconditioner; directional derivatives
// (dae.DirectionalDerivatives: δ(M a − f), δ(Gᵀλ), G δq and δ(G v) by Newton-Euler in
// forward mode, O(N), tangent.go), radau5's exact Newton-Krylov products; and exact
// derivatives of Newton-Euler and of the cut joints' Gᵀλ (derivatives.go, cutaxes.go;
// O(N·depth) per matrix) for the other implicit methods, whose dense Newton matrices then
// cost O(N³) per factorization. A tree cannot hold a kinematic loop (every joint names an
// existing parent frame); loops are cut joints by construction. A cut joint's rows are
// point rows (Cut: a spherical joint, or a planar revolute one), slide rows along
// directions that turn with one of its frames (CutSlide: translational and cylindrical
// joints) and orientation rows on its axes (CutAxes: revolute, universal, translational
// and cylindrical joints in 3D). Cardan adds a spherical joint in any orthonormal chart, so
// that a model builder can put the expected large rotations on the first and last angles.
// Force elements between markers of frames (TSDA, RSDA, PlanarRSDA, Bushing, PlanarBushing,
// PointForce, Torque; forces.go) add their wrenches W to f as Jᵀ W through the recursion,
// their springs' potential to Energy and their dampers', actuators' and loads' power to
// NonConservativePower, with exact derivatives for the Newton matrices.
//
// Pairs that no tree joint expresses are rows outside the tree as well: a planar cam
// (Cam, cam.go) is one point row with its contact parameter eliminated; knife edges
// (KnifeEdge, knife.go) and rolling disks (RollingDisk, disk.go: also one contact row) are
// nonholonomic rows A(q) v = 0 in the Pfaffian form of seed 002, eq. 44
// (dae.Nonholonomic), each row's A from the path of its frame as a row of G is.
//
// Flexible bodies (Flexible, flex.go: the floating-frame beam of package flexbeam, seed
// 003) are never tree bodies: each floats beside the tree in the plane z = 0 with its own
// coordinates (frame x, y, θ and elastic coordinates, after the tree's in q), so M is
// block diagonal, M = diag(M_tree, M_b, …), and MassSolve is the recursion on the tree and
// a Cholesky solve per body; its joints are cut joints (FlexCut) whose rows read the
// deformed position of a beam node.
//
// Joint friction (Friction, dae.ReactionForce) acts on a tree joint's coordinate, pressed
// by the multipliers of hold rows that keep slack coordinates of the joint at zero: the
// reaction components a tree joint otherwise has no multiplier for; PlanarCutFriction acts
// on the relative angle of a planar revolute cut joint's frames, pressed by its rows
// (friction.go).
package joint

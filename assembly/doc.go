// Package assembly holds what every modeling route (planar, spatial, and the natural
// coordinates, flexible bodies and joint coordinates to come) does the same way when it
// assembles bodies, joints and force elements into a dae.System, so that a route adds its
// element kinds and its coordinates' kinematics and nothing else:
//
//   - validation that names every bad element (Checker: empty and duplicate names, missing
//     or misplaced markers and bodies, non-finite or non-positive parameters), so that
//     both routes word their errors alike;
//   - the names of coordinates and constraint rows (dae.Namer) and the lists of bodies,
//     joints and forces (Catalog, ElementInfo);
//   - pairs of bodies: a scalar coordinate's gradient ∇c and Hessian ∇²c over the pair's
//     coordinate vector p stamped into rows of G, f, ∂(Gᵀλ)/∂q and the force Jacobians at
//     the pair's columns (AddScaled, AddHessian, AddOuter; p has 6 entries for two planar
//     bodies, 14 for two spatial ones);
//   - constraint rows g = Σ W_k(t) c_k(q) − c0 − F(t) over pair coordinates, with the
//     weights and drive of rheonomic rows (Row, Term);
//   - spring-dampers, the law F = spring(c − c_free) + damper(c') + act(t) of
//     law.SpringDamper along ∇c, and their Jacobians (SpringDamper, AddJacobianQ);
//   - the sparsity patterns of dae.Sparsity built from the pairs and rows (Pattern,
//     Columns, and the exact coupling entries element by element: LocalPattern, Entries),
//     and the position of every entry an element writes in the patterns' values, found
//     once when Matrices builds the patterns from the route's Elements (pairs' columns,
//     rows' terms), so that a sparse write is vals[pos] += x with no search in a step;
//   - custom Go force elements with their central-difference Jacobians and power
//     (Customs);
//   - the energies of a state (Energies) and the work of the non-conservative forces and
//     the motions along a run (WorkMeter), which close the energy balance
//     Π = T + V − W_nc − W_driving of seed 001 (eq. 12); a route that knows its works
//     are zero by construction says so (Conservative) and the meter skips them.
//
// A route keeps the evaluation of its coordinates (value, gradient and Hessian over p) and
// its mass block. The evaluation loops over a route's rows stay in the route because Go
// moves a stack array to the heap when its address crosses an interface or a generic
// method call: the route evaluates into fixed-size arrays on its own stack and hands
// slices of them to the concrete functions here, so that no evaluation allocates and a
// System stays safe for concurrent use.
package assembly

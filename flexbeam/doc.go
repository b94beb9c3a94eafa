// Package flexbeam is the flexible body of seed 003 shared by the modeling routes: a
// planar, linearized Euler–Bernoulli beam in a floating frame of reference (Simeon 1996;
// Shabana, Dynamics of Multibody Systems, ch. 5), whose coordinates are the frame's
// origin and angle (x, y, θ) and its elastic coordinates e. Beam describes it, New
// integrates its constant invariants (beam.go), and Body adds its blocks of the floating
// frame's mass matrix M(q), of the forces f(q, v) and of their derivatives, and its
// energies, at the columns a route gives it (body.go). How markers on the beam enter a
// route's constraint rows is the route's: planar adds the node's displacement to revolute
// rows (planar/flexjoint.go).
//
// It sits under the routes with law and imports only gonum: not assembly, which imports
// integrate, whose tests build joint systems. A route passes its matrices as Matrix.
package flexbeam

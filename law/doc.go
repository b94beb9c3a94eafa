// Package law holds the scalar laws every modeling route builds its elements from: time
// functions f(t) with f' and f″ (Func: motions need them for g_t and γ; actuators and
// applied loads use f) and force laws F(x) with dF/dx (Force: springs of the deflection,
// dampers of the rate), with closed-form integrals where they exist (Potential), so that
// springs enter the potential energy.
//
// Time functions: Const, Poly, Sine, Ramp, Smoothstep, Table (natural cubic spline).
// Force laws: Linear, Polynomial (seed 001, eq. 15: SeedSpring), Piecewise and
// NewPiecewiseLinear (seed 001, eq. 16, which is piecewise polynomial: SeedDamper).
// Friction is the smoothed Coulomb-plus-viscous law of joint friction, F(c', N).
// SpringDamper combines a spring, a damper and an actuator into the tension
// F = spring(c − c_free) + damper(c') + act(t) along a scalar coordinate c, with its load,
// output readings, energy and power; the routes add the geometry of c (assembly.SpringDamper
// for body coordinates, joint's force elements for joint coordinates).
//
// Every Eval is allocation-free and safe for concurrent use. The package depends on
// nothing above the standard library, so planar, spatial and the routes to come share it
// without importing one another.
package law

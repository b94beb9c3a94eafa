package modelfile

import (
	"fmt"

	"linkage/integrate"
)

// rotations checks the rotations key of a model of dimension dim: a known route; on the Lie
// group, coordinates: body, a method of the registry's Lie column, in 3D no joint friction
// (its forces depend on λ, which spatial.LieSystem cannot declare) and in 3D no
// simulation.atol (whose names are coordinates of q; the group's tolerances are per
// velocity).
func (v *validator) rotations(dim int) {
	r := v.m.Rotations
	def, what := RotationsAngle, "θ of every body a coordinate"
	if dim == 3 {
		def, what = RotationsEulerParameters, "x and the Euler parameters of every body, with their normalization rows"
	}
	switch r {
	case "", def:
		return
	case RotationsLieGroup:
	default:
		v.errorf("rotations", "rotations = %q; want %q (the default: %s) or %q (integrated on the Lie group by %s)", r, def, what, RotationsLieGroup, DefaultLieMethod)
		return
	}
	c := v.m.Coordinates
	if dim == 3 {
		c = v.doc.Spatial.Coordinates
	}
	if c != "" && c != CoordinatesBody {
		v.errorf("rotations", "rotations: %s needs coordinates: body; coordinates: %s has no rotation to put on the group (drop rotations or use coordinates: body)", r, c)
	}
	if s := v.m.Simulation; s.Method != "" {
		if e, err := integrate.Lookup(s.Method); err == nil {
			if _, err := e.NewLieMethod(integrate.Formulation(s.Formulation)); err != nil && !e.Lie {
				v.errorf("simulation.method", "rotations: lie-group: %v", err)
			}
		}
	}
	friction := func(k int, name string) {
		v.errorf(fmt.Sprintf("joints[%d].friction", k), "joint %q: friction is not available with rotations: lie-group in 3D (its forces depend on the reactions λ, which the Lie-group form of the model, spatial.LieSystem, cannot declare); drop rotations: lie-group", name)
	}
	if dim == 2 {
		return // friction and knife edges are taken: lie-genalpha on ℝⁿ takes dae.ReactionForce and dae.Nonholonomic
	}
	for k, jt := range v.doc.Spatial.Joints {
		if jt.Friction != nil {
			friction(k, jt.Name)
		}
	}
	if len(v.m.Simulation.ATol) > 0 {
		v.errorf("simulation.atol", "simulation.atol is not available with rotations: lie-group: its names are coordinates of q (BODY.p0 …), while lie-genalpha controls the error of the 6 velocities of each body; use simulation.tol")
	}
}

package joint

import "gonum.org/v1/gonum/mat"

// GeometricStiffnessUnclipped is GeometricStiffness without the positive part: the body
// matrices K_m as the loads give them, for the preconditioner probe and the tests.
func (s *System) GeometricStiffnessUnclipped(kg []float64, q, v, a, lambda []float64) {
	s.m.kinematics(s.w, q, v)
	s.geometricStiffness(kg, a, lambda, false)
}

// GeometricStiffnessDense returns K_g = Σ_m Φ_mᵀ K_m Φ_m (nt × nt) from the body matrices kg
// at q, formed densely from the frames' axes (stiffnessDense).
func (s *System) GeometricStiffnessDense(q, kg []float64) *mat.Dense {
	s.m.kinematics(s.w, q, nil)
	return stiffnessDense(s, kg)
}

// UsePrimitives makes s's articulated-body recursion take every primitive as a joint of
// its own (the recursion before multidof.go), for the tests that compare the two.
func (s *System) UsePrimitives() {
	s.w.groups, s.w.sole = nil, nil
	s.fac = [2]abaFactor{newABAFactor(s.nt), newABAFactor(s.nt)}
}

// Groups returns the sizes of the joints of s's articulated-body recursion.
func (s *System) Groups() []int {
	var k []int
	for _, g := range s.w.groups {
		k = append(k, g.last-g.first+1)
	}
	return k
}

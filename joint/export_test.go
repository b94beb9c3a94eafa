package joint

// GeometricStiffnessUnclipped is GeometricStiffness without the positive part: the body
// matrices K_m as the loads give them, for the preconditioner probe and the tests.
func (s *System) GeometricStiffnessUnclipped(kg []float64, q, v, a []float64) {
	s.m.kinematics(s.w, q, v)
	s.m.geometricStiffness(s.w, s.d, kg, a, false)
}

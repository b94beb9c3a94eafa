package joint

import "gonum.org/v1/gonum/mat"

// VelocityBlocksDense returns Σ_m J_mᵀ B_m J_m (nt × nt) at (q, v), a body-local part of the
// velocity derivative −f_v of the joint route's forces (BenchmarkNewtonVelocityTerms):
// with spatial, B_m = ∂(V ×* I V)/∂V, the derivative of body m's bias force in base
// coordinates at the world origin (J_m's columns the joint axes s_j on m's path); without,
// only the angular gyroscopic block G_m = ∂(ω × J_c ω)/∂ω = ω̃ J_c − (J_c ω)~ about the centre of mass
// (J_m the angular rows Φ_m). With sym, the symmetric part of each B_m or G_m.
func (s *System) VelocityBlocksDense(q, v []float64, spatial, sym bool) *mat.Dense {
	m, w := s.m, s.w
	m.kinematics(w, q, v)
	n := len(m.prims)
	K := mat.NewDense(n, n, nil)
	for b := range n {
		if w.bare[b] {
			continue
		}
		var B [6][6]float64
		V, I := w.V[b], &w.I[b]
		if spatial {
			IV := I.mulv(V)
			for k := range 6 {
				var e sv
				e[k] = 1
				col := crossF(e, IV).add(crossF(V, I.mulv(e)))
				for r := range 6 {
					B[r][k] = col[r]
				}
			}
		} else {
			ms := I[3][3]
			x := vec3{I[4][2], I[5][0], I[3][1]}
			c := x.scale(1 / ms)
			var Jc mat3
			for r := range 3 {
				for k := range 3 {
					Jc[r][k] = I[r][k] + x[r]*c[k]
				}
				Jc[r][r] -= x.dot(c)
			}
			om := V.ang()
			Jw := Jc.mulv(om)
			for k := range 3 {
				var e vec3
				e[k] = 1
				col := om.cross(Jc.mulv(e)).add(e.cross(Jw))
				for r := range 3 {
					B[r][k] = col[r]
				}
			}
		}
		if sym {
			for r := range 6 {
				for k := range r {
					a := (B[r][k] + B[k][r]) / 2
					B[r][k], B[k][r] = a, a
				}
			}
		}
		var path []int
		for j := b; j != Ground; j = m.prims[j].parent {
			path = append(path, j)
		}
		for _, i := range path {
			si := w.s[i]
			var Bs sv
			for r := range 6 {
				for k := range 6 {
					Bs[r] += B[r][k] * si[k]
				}
			}
			for _, j := range path {
				K.Set(j, i, K.At(j, i)+w.s[j].dot(Bs))
			}
		}
	}
	return K
}

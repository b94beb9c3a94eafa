package integrate

// hermiteInterpolate writes the dense output at t between the states a and b (a.T < b.T)
// into dst, for the second-order methods that keep q, v and q̈ = a at both ends of a step:
// cubic Hermite interpolation of q from (q, v) and of v from (v, q̈) (third order on
// smooth solutions, above the methods' second order), linear interpolation of q̈, λ and
// the first-order states X. dst needs the sizes of a.
func hermiteInterpolate(dst, a, b *State, t float64) {
	h, s, done := stepFraction(dst, a, b, t)
	if done {
		return
	}
	h00 := (1 + 2*s) * (1 - s) * (1 - s)
	h10 := s * (1 - s) * (1 - s)
	h01 := s * s * (3 - 2*s)
	h11 := s * s * (s - 1)
	for i := range dst.Q {
		dst.Q[i] = h00*a.Q[i] + h*h10*a.V[i] + h01*b.Q[i] + h*h11*b.V[i]
		dst.V[i] = h00*a.V[i] + h*h10*a.A[i] + h01*b.V[i] + h*h11*b.A[i]
		dst.A[i] = (1-s)*a.A[i] + s*b.A[i]
	}
	for k := range dst.Lambda {
		dst.Lambda[k] = (1-s)*a.Lambda[k] + s*b.Lambda[k]
	}
	for k := range dst.X {
		dst.X[k] = (1-s)*a.X[k] + s*b.X[k]
	}
}

// stepFraction begins the dense output at t on the step from a to b: it sets dst.T = t and
// returns h = b.T − a.T and s = (t − a.T)/h. A step of zero length has one state, so then
// it copies b into dst and reports done.
func stepFraction(dst, a, b *State, t float64) (h, s float64, done bool) {
	h = b.T - a.T
	dst.T = t
	if h == 0 {
		dst.CopyFrom(b)
		return 0, 0, true
	}
	return h, (t - a.T) / h, false
}

package joint

import "math"

// Forward-mode derivatives for the force elements (forces.go): each quantity carries its
// value and its change along one perturbation of the frames (a column of ∂/∂q), so the
// Hessian terms ∂(Jᵀ)/∂q F of every element kind come out of the same arithmetic that
// computes the element's gradient, exactly.

// dnum is a scalar and its directional derivative.
type dnum struct{ v, d float64 }

// dvec is a vector and its directional derivative.
type dvec struct{ v, d vec3 }

// dsv is a spatial force vector and its directional derivative.
type dsv struct{ v, d sv }

func (a dnum) mul(b dnum) dnum { return dnum{a.v * b.v, a.d*b.v + a.v*b.d} }

func (a dnum) div(b dnum) dnum { return dnum{a.v / b.v, (a.d*b.v - a.v*b.d) / (b.v * b.v)} }

func (a dnum) add(b dnum) dnum { return dnum{a.v + b.v, a.d + b.d} }

func dsqrt(a dnum) dnum {
	r := math.Sqrt(a.v)
	return dnum{r, a.d / (2 * r)}
}

func (a dvec) add(b dvec) dvec { return dvec{a.v.add(b.v), a.d.add(b.d)} }
func (a dvec) sub(b dvec) dvec { return dvec{a.v.sub(b.v), a.d.sub(b.d)} }

func (a dvec) cross(b dvec) dvec {
	return dvec{a.v.cross(b.v), a.d.cross(b.v).add(a.v.cross(b.d))}
}

func (a dvec) dot(b dvec) dnum { return dnum{a.v.dot(b.v), a.d.dot(b.v) + a.v.dot(b.d)} }

func (a dvec) scale(s dnum) dvec { return dvec{a.v.scale(s.v), a.d.scale(s.v).add(a.v.scale(s.d))} }

// djoin is the spatial vector [ang; lin] of two dual vectors.
func djoin(ang, lin dvec) dsv { return dsv{join(ang.v, lin.v), join(ang.d, lin.d)} }

func (a dsv) add(b dsv) dsv { return dsv{a.v.add(b.v), a.d.add(b.d)} }

func (a dsv) scale(s float64) dsv { return dsv{a.v.scale(s), a.d.scale(s)} }

package planar

import (
	"math"

	"linkage/law"
)

// Andrews returns Andrews' squeezing mechanism in body coordinates (seed 000, section 4.3:
// seven bodies, 21 coordinates, 20 constraints, one degree of freedom), with the
// parameters and initial angles of the IVP test set (Mazzia & Iavernaro 2003, II.13;
// /work/shared/problems/andrews.json; the bodies as in Hairer & Wanner 1996, VII.7). The
// test set's angles q = (β, Θ, γ, Φ, δ, Ω, ε) are the body angles
//
//	θ₁ = β, θ₂ = β + Θ, θ₃ = γ, θ₄ = Φ + δ, θ₅ = δ, θ₆ = Ω + ε, θ₇ = ε
//
// (AndrewsAngles converts back). Body 1 turns about the origin O under the motor torque
// mom; body 2 joins it at distance rr and reaches the point E at distance d; body 3 turns
// about B and reaches E at ss; bodies 5 and 4 (about A, joint F at zt) and 7 and 6 (about A,
// joint G at u) close the other two loops at E, which gives ten revolutes: O, P (1-2), B,
// E3 (2-3), A5, F (5-4), E4 (2-4), A7, G (7-6), E6 (2-6). A spring of stiffness c0 and rest
// length l0 (a TSDA) joins the point D of body 3 to the fixed point C. There is no
// gravity. The centres of mass lie where the test set's mass matrix puts them (body 2 at
// da from P towards E, body 4 at e − ea from F, body 6 at zf − fa from G, bodies 1, 3, 5, 7
// at ra, √(sa² + sb²), √(ta² + tb²), √(ua² + ub²) from their pivots); for bodies 3, 5 and 7
// the direction of the centre does not enter the dynamics (fixed pivot, no gravity) and is
// taken as local (sa, −sb), (ta, tb), (ua, ub) from the pivot.
func Andrews() *Model {
	const (
		m1, m2, m3, m4, m5, m6, m7 = 0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498
		xa, ya, xb, yb, xc, yc     = -0.06934, -0.00227, -0.03635, 0.03273, 0.014, 0.072
		c0                         = 4530.0
		i1, i2, i3, i4, i5, i6, i7 = 2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5
		d, da, e, ea, rr, ra, l0   = 28e-3, 115e-4, 2e-2, 1421e-5, 7e-3, 92e-5, 7785e-5
		ss, sa, sb, sc, sd, ta, tb = 35e-3, 1874e-5, 1043e-5, 18e-3, 2e-2, 2308e-5, 916e-5
		u, ua, ub, zf, zt, fa, mom = 4e-2, 1228e-5, 449e-5, 2e-2, 4e-2, 1421e-5, 33e-3
	)
	// Initial angles of the test set (andinit), to double precision.
	beta, Theta, gamma := -0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449
	Phi, delta := 0.222668390165885884674473185609, 0.487364979543842550225598953530
	Omega, eps := -0.222668390165885884674473185609, 1.23054744454982119249735015568
	e1 := func(th float64) Vec { return Vec{math.Cos(th), math.Sin(th)} }
	add := func(p, q Vec) Vec { return Vec{p[0] + q[0], p[1] + q[1]} }
	scale := func(k float64, p Vec) Vec { return Vec{k * p[0], k * p[1]} }

	th := [8]float64{0, beta, beta + Theta, gamma, Phi + delta, delta, Omega + eps, eps}
	A, B, C := Vec{xa, ya}, Vec{xb, yb}, Vec{xc, yc}
	P := scale(rr, e1(beta))
	F := add(A, scale(zt, e1(delta)))
	G := add(A, rotate(Vec{0, -u}, eps))
	cm := [8]Vec{
		1: scale(ra, e1(beta)),
		2: add(P, scale(-da, e1(th[2]))),
		3: add(B, rotate(Vec{sa, -sb}, gamma)),
		4: add(F, rotate(Vec{0, -(e - ea)}, th[4])),
		5: add(A, rotate(Vec{ta, tb}, delta)),
		6: add(G, scale(zf-fa, e1(th[6]))),
		7: add(A, rotate(Vec{ua, ub}, eps)),
	}
	mass := [8]float64{0, m1, m2, m3, m4, m5, m6, m7}
	inertia := [8]float64{0, i1, i2, i3, i4, i5, i6, i7}

	m := NewModel()
	var body [8]BodyID
	for k := 1; k <= 7; k++ {
		body[k] = m.AddBody(Body{Name: "body" + string(rune('0'+k)), Mass: mass[k], Inertia: inertia[k], Pos: cm[k], Angle: th[k]})
	}
	mk := func(b int, p Vec) MarkerID { return m.AddMarker(Marker{Body: body[b], Point: p}) }
	ground := func(p Vec) MarkerID { return m.AddMarker(Marker{Body: Ground, Point: p}) }
	// Local points (body frame: origin at the centre of mass, x axis at θ_k).
	m.AddRevolute("O", ground(Vec{}), mk(1, Vec{-ra, 0}))
	m.AddRevolute("P", mk(1, Vec{rr - ra, 0}), mk(2, Vec{da, 0}))
	m.AddRevolute("B", ground(B), mk(3, Vec{-sa, sb}))
	eOn2 := Vec{da - d, 0}
	m.AddRevolute("E3", mk(2, eOn2), mk(3, Vec{-sa, sb - ss}))
	m.AddRevolute("A5", ground(A), mk(5, Vec{-ta, -tb}))
	m.AddRevolute("F", mk(5, Vec{zt - ta, -tb}), mk(4, Vec{0, e - ea}))
	m.AddRevolute("E4", mk(2, eOn2), mk(4, Vec{0, -ea}))
	m.AddRevolute("A7", ground(A), mk(7, Vec{-ua, -ub}))
	m.AddRevolute("G", mk(7, Vec{-ua, -u - ub}), mk(6, Vec{-(zf - fa), 0}))
	m.AddRevolute("E6", mk(2, eOn2), mk(6, Vec{fa, 0}))
	m.AddTSDA(TSDA{Name: "spring", I: ground(C), J: mk(3, Vec{sd - sa, sb - sc}), K: c0, FreeLength: l0})
	m.AddTorque("motor", body[1], law.Const{Value: mom})
	return m
}

// AndrewsAngles returns the test set's angles (β, Θ, γ, Φ, δ, Ω, ε) of a state q of the
// System assembled from Andrews().
func AndrewsAngles(q []float64) [7]float64 {
	th := func(k int) float64 { return q[3*(k-1)+2] }
	return [7]float64{th(1), th(2) - th(1), th(3), th(4) - th(5), th(5), th(6) - th(7), th(7)}
}

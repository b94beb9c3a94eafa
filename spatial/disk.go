package spatial

import (
	"math"

	"linkage/assembly"
	"linkage/dae"

	"gonum.org/v1/gonum/mat"
)

// disk.go: the rolling disk, a thin rigid disk of radius r rolling without slipping on the
// ground plane z = 0 (the plane of the global x and y axes; gravity is whatever the model
// sets). Its centre is the point of a marker on the disk body and its axis the marker's z
// axis, u = A(p) z'. The lowest point of the rim is P = C + ρ with
//
//	ρ = r (u_z u − e_z)/φ,   φ = √(1 − u_z²)   (|ρ| = r, ρ ⊥ u, pointing down the disk's plane),
//
// and the disk adds one holonomic row and two Pfaffian rows (seed 002, eq. 44):
//
//	g  = z_C − r φ = 0                       (row "name.h": P on the plane, coordContact)
//	A v = e_aᵀ(Ṙ + ω × ℓ) = 0,  a = x, y     (rows "name.x", "name.y": the material point at P
//	                                           does not slide; Pfaffian, b = 0)
//
// with ℓ = P − R the lever from the centre of mass and ω = 2 E(p) ṗ. The normal component
// of the contact point's velocity is the holonomic row's derivative (P is the lowest point
// of the rim, so its height is stationary along the rim), so it is not a third Pfaffian
// row. In q = (R, p) of the disk body, with L = ∂ℓ/∂p,
//
//	A_a = [e_aᵀ, 2 (E(p)ᵀ(ℓ × e_a))ᵀ],
//	∂(A_a v)/∂p = −2 (E(ṗ)ᵀ(ℓ × e_a))ᵀ + (e_a × ω)ᵀ L      (∂(E(p)ṗ)/∂p = −E(ṗ)),
//	γ_A,a = −∂(A_a v)/∂q · v = −(e_a × ω)·(L ṗ)            (E(ṗ)ṗ = 0),
//	∂(Aᵀμ)/∂p = 2 T_E(ℓ × m) − 2 E(p)ᵀ m̃ L,   m = (μ_x, μ_y, 0),
//
// and L = ∂(A(p)s')/∂p + ∂ρ/∂u ∂u/∂p with
//
//	∂ρ/∂u = r ((u e_zᵀ + u_z I)/φ + u_z (u_z u − e_z) e_zᵀ/φ³).
//
// Everything is singular where the disk lies flat (u_z = ±1), where the lowest point of
// the rim is not unique. The Pfaffian matrices are dense (dae.Nonholonomic has no sparse
// form); the holonomic row is a joint row and takes part in the sparse patterns.

type diskData struct {
	name   string
	col    int // column of the disk body's x
	pair   int // (ground origin, disk marker)
	radius float64
}

// AddRollingDisk adds a thin disk of the given radius > 0 rolling without slipping on the
// ground plane z = 0: marker mk, on a moving body, is the disk's centre and its z axis
// (Marker.Axis) the disk's axis. It adds the holonomic row "name.h" (the lowest point of
// the rim is on the plane) and two nonholonomic rows "name.x", "name.y" (that point does
// not slide along the global x and y axes; dae.Nonholonomic, see disk.go), so methods that
// cannot take velocity constraints refuse the system. Reaction of the returned joint is
// the normal load of the row "name.h" only: the rolling (tangential) loads are the
// Pfaffian multipliers μ, which λ does not hold. A disk lying flat is singular.
func (m *Model) AddRollingDisk(name string, mk MarkerID, radius float64) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindRollingDisk, i: mk, length: radius})
}

// addDisk builds rolling disk js on the pair (ground origin, its marker) and returns its
// contact row, reporting a bad marker or radius through ck.
func (s *System) addDisk(what string, js jointSpec, markerBody []int, ck *assembly.Checker) (row, bool) {
	ck.Positive(what, "radius", js.length)
	if !ck.Marker(what, int(js.i), markerBody) {
		return row{}, false
	}
	if markerBody[js.i-1] == 0 {
		ck.Bad("%s: marker %d is on the ground; want a marker on the moving disk body (its centre and axis)", what, js.i)
		return row{}, false
	}
	if !(js.length > 0) || math.IsInf(js.length, 0) {
		return row{}, false
	}
	if s.groundOrigin == nil {
		f := newMarkerFrame(Marker{}) // the global frame: origin, axes e_x, e_y, e_z
		s.groundOrigin = &f
	}
	mk := &s.markers[js.i-1]
	pr := pairRef{bi: Ground, bj: mk.Body, mi: s.groundOrigin, mj: &mk.frame}
	for k := range 7 {
		pr.col[k], pr.col[7+k] = -1, mk.col+k
	}
	s.pairs = append(s.pairs, pr)
	p := len(s.pairs) - 1
	s.disks = append(s.disks, diskData{name: js.name, col: mk.col, pair: p, radius: js.length})
	return row{N: 1, Terms: [2]rowTerm{{Pair: p, Coord: coord{kind: coordContact, radius: js.length}, W: 1}}}, true
}

// NumPfaffian returns two rows per rolling disk (dae.Nonholonomic).
func (s *System) NumPfaffian() int { return 2 * len(s.disks) }

// PfaffianName names rolling disk k/2's rows "name.x" and "name.y" (dae.PfaffianNamer).
func (s *System) PfaffianName(k int) string { return s.disks[k/2].name + [2]string{".x", ".y"}[k%2] }

// lever returns p of disk d's body at q, the lever ℓ = P − R from the centre of mass to the
// lowest point of the rim and L = ∂ℓ/∂p (disk.go).
func (s *System) lever(d *diskData, q []float64) (p [4]float64, l Vec3, L [3][4]float64) {
	var k pairKin
	s.pairs[d.pair].kinOf(q, &k, 1<<vD|1<<vZJ)
	u, uz := k.v[vZJ].val, k.v[vZJ].val[2]
	phi := math.Sqrt(1 - uz*uz)
	r := d.radius
	var w Vec3 // u_z u − e_z
	for i := range 3 {
		w[i] = uz * u[i]
	}
	w[2]--
	var drho [3][3]float64 // ∂ρ/∂u
	for i := range 3 {
		drho[i][i] = r * uz / phi
		drho[i][2] += r * (u[i]/phi + uz*w[i]/(phi*phi*phi))
	}
	for i := range 3 {
		l[i] = k.v[vD].val[i] - q[d.col+i] + r*w[i]/phi
		for j := range 4 {
			L[i][j] = k.v[vD].jac[i][10+j] +
				drho[i][0]*k.v[vZJ].jac[0][10+j] + drho[i][1]*k.v[vZJ].jac[1][10+j] + drho[i][2]*k.v[vZJ].jac[2][10+j]
		}
	}
	return k.pj, l, L
}

// unit returns e_a.
func unit(a int) (e Vec3) {
	e[a] = 1
	return e
}

// Pfaffian writes the rolling disks' rows A and b = 0 (dae.Nonholonomic).
func (s *System) Pfaffian(A *mat.Dense, b []float64, _ float64, q []float64) {
	A.Zero()
	clear(b)
	for i := range s.disks {
		d := &s.disks[i]
		p, l, _ := s.lever(d, q)
		E := eMat(&p)
		for a := range 2 {
			row := 2*i + a
			A.Set(row, d.col+a, 1)
			w := mulGT(&E, l.Cross(unit(a)))
			for j := range 4 {
				A.Set(row, d.col+3+j, 2*w[j])
			}
		}
	}
}

// PfaffianGamma writes γ_A,a = −(e_a × ω)·(L ṗ) (dae.Nonholonomic).
func (s *System) PfaffianGamma(dst []float64, _ float64, q, v []float64) {
	for i := range s.disks {
		d := &s.disks[i]
		p, _, L := s.lever(d, q)
		pd := bodyP(v, d.col)
		E := eMat(&p)
		omega := mulG(&E, &pd).Scale(2)
		ldot := mulG(&L, &pd)
		for a := range 2 {
			dst[2*i+a] = -unit(a).Cross(omega).Dot(ldot)
		}
	}
}

// PfaffianRateDerivative writes ∂(A v)/∂q, nonzero in the disk body's p only
// (dae.Nonholonomic).
func (s *System) PfaffianRateDerivative(dst *mat.Dense, _ float64, q, v []float64) {
	dst.Zero()
	for i := range s.disks {
		d := &s.disks[i]
		p, l, L := s.lever(d, q)
		pd := bodyP(v, d.col)
		E, Ed := eMat(&p), eMat(&pd)
		omega := mulG(&E, &pd).Scale(2)
		for a := range 2 {
			w := mulGT(&Ed, l.Cross(unit(a)))
			c := unit(a).Cross(omega)
			for j := range 4 {
				dst.Set(2*i+a, d.col+3+j, -2*w[j]+c[0]*L[0][j]+c[1]*L[1][j]+c[2]*L[2][j])
			}
		}
	}
}

// PfaffianForceDerivative writes ∂(Aᵀμ)/∂q = 2 T_E(ℓ × m) − 2 E(p)ᵀ m̃ L in the disk
// body's p block (dae.Nonholonomic).
func (s *System) PfaffianForceDerivative(dst *mat.Dense, _ float64, q, mu []float64) {
	dst.Zero()
	for i := range s.disks {
		d := &s.disks[i]
		p, l, L := s.lever(d, q)
		E := eMat(&p)
		m := Vec3{mu[2*i], mu[2*i+1], 0}
		T := teMat(l.Cross(m))
		for j := range 4 {
			w := mulGT(&E, m.Cross(Vec3{L[0][j], L[1][j], L[2][j]}))
			for r := range 4 {
				c, cj := d.col+3+r, d.col+3+j
				dst.Set(c, cj, dst.At(c, cj)+2*T[r][j]-2*w[r])
			}
		}
	}
}

// ContactPoint returns the lowest point of rolling disk joint j's rim at q (the point
// that touches the plane where the row "name.h" holds); ok is false when j is no
// rolling disk.
func (s *System) ContactPoint(j JointID, q []float64) (pt Vec3, ok bool) {
	for i := range s.disks {
		if d := &s.disks[i]; d.pair == s.joints[j-1].pair {
			_, l, _ := s.lever(d, q)
			return Vec3{q[d.col], q[d.col+1], q[d.col+2]}.Add(l), true
		}
	}
	return Vec3{}, false
}

var (
	_ dae.Nonholonomic  = (*System)(nil)
	_ dae.PfaffianNamer = (*System)(nil)
)

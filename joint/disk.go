package joint

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// disk.go: a thin disk of radius r rolling without slipping on the ground plane z = 0.
// Its centre C is a point of frame a and its axis u = R_a n a direction fixed in it; the
// lowest point of the rim is
//
//	P = C + ρ,   ρ = r (u_z u − e_z)/φ,   φ = √(1 − u_z²),
//
// and the material point of frame a at P, whose velocity is v_P = V_lin + ω × P (V the
// frame's spatial velocity), does not move along e_x, e_y (two Pfaffian rows, seed 002
// eq. 44) nor along e_z, which is the derivative of the holonomic row g = e_z·P = z_C − r φ
// (P is the lowest point of the rim, so its height is stationary along the rim). The three
// rows are e·v_P for e = e_x, e_y, e_z, and with A = dV/dt the frame's spatial acceleration
// (at q” = 0 for γ) and Ṗ = v_C + ∂ρ/∂u (ω × u),
//
//	d(e·v_P)/dt = e·(A_lin + α × P + ω × Ṗ),
//	∂ρ/∂u = r ((u e_zᵀ + u_z I)/φ + u_z (u_z u − e_z) e_zᵀ/φ³)   (spatial/disk.go).
//
// Turning joint k (s_k = [ω_k; v_k], parent velocity V_λ) changes, when a is in its
// subtree, V by s_k × (V − V_λ) and P by δC + ∂ρ/∂u (ω_k × u), δC = ω_k × C + v_k. The row
// acts as the world force μ e at P. Everything is singular where the disk lies flat
// (u_z = ±1): the run stops with a non-finite value there.

// disk is a rolling disk on the ground plane: centre c and axis n of frame a, radius r.
type disk struct {
	name string
	a    int
	c, n vec3
	r    float64
}

// diskPoint is a disk's contact geometry at one state.
type diskPoint struct {
	C, u, P vec3
	phi     float64
}

var worldAxes = [3]vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// RollingDisk adds a thin disk of radius r > 0 rolling without slipping on the ground
// plane z = 0 (world axes): point c of frame a (frame coordinates) is its centre, n its
// axis. It adds the holonomic row NAME.h (the lowest point of the rim on the plane, before
// the drives) and the Pfaffian rows NAME.x, NAME.y (that point of the disk does not slide;
// dae.Nonholonomic, after the knife edges'). See disk.go.
func (m *Model) RollingDisk(name string, a int, c, n [3]float64, r float64) {
	switch {
	case a < 0 || a >= len(m.prims):
		m.fail(fmt.Errorf("joint: rolling disk %q: frame %d is not a moving frame (%d frames); want the disk's frame", name, a, len(m.prims)))
	case vec3(n).dot(n) == 0:
		m.fail(fmt.Errorf("joint: rolling disk %q: zero axis, want the disk's axis", name))
	case !(r > 0) || math.IsInf(r, 0):
		m.fail(fmt.Errorf("joint: rolling disk %q: radius %g, want a finite radius > 0", name, r))
	default:
		m.disks = append(m.disks, disk{name: name, a: a, c: c, n: unit(n), r: r})
	}
}

// diskNames appends the names of the disks' holonomic rows.
func (m *Model) diskNames(names []string) []string {
	for _, d := range m.disks {
		names = append(names, d.name+".h")
	}
	return names
}

// diskPoint returns the contact geometry of d from the positions in w.
func (s *System) diskPoint(d *disk) diskPoint {
	var k diskPoint
	k.C, _, _ = s.w.point(d.a, d.c)
	k.u, _, _ = s.w.turned(d.a, d.n)
	k.phi = math.Sqrt(1 - k.u[2]*k.u[2])
	k.P = k.C.add(k.u.scale(k.u[2]).sub(worldAxes[2]).scale(d.r / k.phi))
	return k
}

// drho is ∂ρ/∂u δu.
func (d *disk) drho(k diskPoint, du vec3) vec3 {
	phi3 := k.phi * k.phi * k.phi
	return k.u.scale(du[2]).add(du.scale(k.u[2])).scale(d.r / k.phi).
		add(k.u.scale(k.u[2]).sub(worldAxes[2]).scale(d.r * k.u[2] * du[2] / phi3))
}

// diskConstraint writes the rows z_C − r φ from dst[k] on and returns the next row.
func (s *System) diskConstraint(dst []float64, k int) int {
	for i := range s.m.disks {
		dst[k] = s.diskPoint(&s.m.disks[i]).P[2]
		k++
	}
	return k
}

// diskJacobian writes the holonomic rows of G from row k on: e_z·v_P.
func (s *System) diskJacobian(dst *mat.Dense, k int) int {
	for i := range s.m.disks {
		d := &s.m.disks[i]
		s.pathRow(dst.RawRowView(k), d.a, s.diskPoint(d).P, worldAxes[2], 1)
		k++
	}
	return k
}

// diskGamma writes −e·(A_lin + α × P + ω × Ṗ) for e = e_z (holonomic rows, from dst[k] on,
// returning the next row) or, with pfaffian, e_x, e_y of each disk; w.A holds the
// accelerations at q” = 0.
func (s *System) diskGamma(dst []float64, k int, pfaffian bool) int {
	for i := range s.m.disks {
		d := &s.m.disks[i]
		p := s.diskPoint(d)
		V, A := s.w.V[d.a], s.w.A[d.a]
		_, vc, _ := s.w.point(d.a, d.c)
		pdot := vc.add(d.drho(p, V.ang().cross(p.u)))
		acc := A.lin().add(A.ang().cross(p.P)).add(V.ang().cross(pdot))
		for _, e := range diskRows(pfaffian) {
			dst[k] = -e.dot(acc)
			k++
		}
	}
	return k
}

// diskRows are the directions of the holonomic row (e_z) or of the Pfaffian rows (e_x, e_y).
func diskRows(pfaffian bool) []vec3 {
	if pfaffian {
		return worldAxes[:2]
	}
	return worldAxes[2:]
}

// diskForceColumn adds to column k of dst (s.d.inSub marking the subtree of k) the change
// of Σ μ_e e at P over the disks' rows (holonomic or Pfaffian), multipliers from row on; it
// returns the next row. The force is fixed in the world; P moves when a is in the subtree.
func (s *System) diskForceColumn(dst *mat.Dense, k int, mu []float64, row int, pfaffian bool) int {
	for i := range s.m.disks {
		d := &s.m.disks[i]
		p := s.diskPoint(d)
		var f vec3
		for _, e := range diskRows(pfaffian) {
			f = f.add(e.scale(mu[row]))
			row++
		}
		dp := s.diskMove(d, p, k)
		s.wrenchColumn(dst, k, d.a, join(p.P.cross(f), f), join(dp.cross(f), vec3{}))
	}
	return row
}

// diskMove is δP when joint k (s.d.inSub marking its subtree) turns by one unit.
func (s *System) diskMove(d *disk, p diskPoint, k int) vec3 {
	if !s.d.inSub[d.a] {
		return vec3{}
	}
	sk := s.w.s[k]
	dc := sk.ang().cross(p.C).add(sk.lin())
	return dc.add(d.drho(p, sk.ang().cross(p.u)))
}

// diskRateColumn writes column k of ∂(A v)/∂q for the disks' Pfaffian rows from row on:
// e·(δV_lin + δω × P + ω × δP), δV = s_k × (V − V_λ), and returns the next row.
func (s *System) diskRateColumn(dst *mat.Dense, k, row int) int {
	for i := range s.m.disks {
		d := &s.m.disks[i]
		if !s.d.inSub[d.a] {
			row += 2
			continue
		}
		p := s.diskPoint(d)
		Vl, _ := s.m.parentMotion(s.w, k)
		V := s.w.V[d.a]
		dV := crossM(s.w.s[k], V.sub(Vl))
		x := dV.lin().add(dV.ang().cross(p.P)).add(V.ang().cross(s.diskMove(d, p, k)))
		for _, e := range worldAxes[:2] {
			dst.Set(row, k, e.dot(x))
			row++
		}
	}
	return row
}

// diskPfaffian writes the disks' Pfaffian rows of A from row on: e·v_P, e = e_x, e_y.
func (s *System) diskPfaffian(A *mat.Dense, row int) {
	for i := range s.m.disks {
		d := &s.m.disks[i]
		P := s.diskPoint(d).P
		for _, e := range worldAxes[:2] {
			s.pathRow(A.RawRowView(row), d.a, P, e, 1)
			row++
		}
	}
}

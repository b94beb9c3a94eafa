package joint

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"linkage/flexbeam"
	"linkage/linalg"
)

// flex.go: flexible bodies beside the tree. A flexible body (flexbeam: the floating-frame
// beam of seed 003) is never a tree body: it floats in the plane z = 0 with its own
// coordinates q_b = (x, y, θ, e), the body route's, which follow the tree's in q. Its mass
// block is its own, so
//
//	M = diag(M_tree, M_b1, M_b2, …),
//
// MassSolve is the articulated-body recursion on the tree and a Cholesky solve of each
// small block, MassMul likewise, and its forces and their derivatives are flexbeam's. Every
// joint touching it is a cut joint (FlexCut): point a of a tree frame and node x_i of the
// beam coincide along in-plane world directions e,
//
//	g = e·(r_a − r_b),   r_b = R + A(θ) p,   p = (x_i, 0) + δ(e),
//
// with δ the node's elastic displacement in the beam's frame (linear in e). With
// ∂A/∂θ = A S (S the rotation by π/2) its gradient in q_b is −e·(I, A S p, A ∂δ/∂e), its
// part of γ is e·A(−θ̇² p + 2θ̇ S δ̇) (r̈_b less the accelerations' terms) and its part of
// ∂(Gᵀλ)/∂q, with f = Σ λ e, is θθ ↦ f·A p, θe_k ↦ −f·A S ∂δ/∂e_k.

// flexBody is a flexible body of a Model.
type flexBody struct {
	name string
	beam flexbeam.Beam
	inv  *flexbeam.Invariants
}

// flexState is a flexible body of a System: its columns in q (global), the same body on
// its block's own columns (local: 0 and 3) and its block of M (MassSolve, MassMul).
type flexState struct {
	global, local flexbeam.Body
	blk           *mat.Dense
}

// size returns the number of coordinates of the body, 3 + ne.
func (b *flexState) size() int { return 3 + b.global.Inv.NE }

// flexCut is a FlexCut: point pa of frame a on node of flexible body fb along dirs.
type flexCut struct {
	name string
	a    int
	pa   vec3
	fb   int
	x    float64          // the node's position along the beam
	du   []flexbeam.Entry // the node's u and w as linear forms in e
	dw   []flexbeam.Entry
	dirs []vec3
	off  int // first row, counted from the System's first flexible cut row
}

// Flexible adds a flexible body (a planar beam along its frame's x axis, flexbeam.Beam)
// beside the tree and returns its index for FlexCut. Its coordinates (name.x, name.y,
// name.theta and the elastic ones, flexbeam.Beam.ElasticCoordinates) follow the tree's in q,
// in the order the bodies were added.
func (m *Model) Flexible(name string, beam flexbeam.Beam) int {
	if bad := flexbeam.Check(name, &beam); bad != nil {
		m.fail(fmt.Errorf("joint: %s", strings.Join(bad, "; ")))
		return -1
	}
	m.flex = append(m.flex, flexBody{name: name, beam: beam, inv: flexbeam.New(&beam)})
	return len(m.flex) - 1
}

// FlexCut closes a loop through a flexible body: point pa of frame a (Ground allowed) and
// the beam's node at x (a node of flexible body fb, flexbeam.Beam.Nodes) coincide along
// each in-plane world direction in dirs (the x and y axes for a revolute joint).
func (m *Model) FlexCut(name string, a int, pa [3]float64, fb int, x float64, dirs ...[3]float64) {
	if a < Ground || a >= len(m.prims) || fb < 0 || fb >= len(m.flex) || len(dirs) == 0 {
		m.fail(fmt.Errorf("joint: cut joint %q: frame %d, flexible body %d, %d directions: want an existing frame, an existing flexible body and at least one direction", name, a, fb, len(dirs)))
		return
	}
	b := &m.flex[fb]
	node := b.inv.NodeAt(x, b.beam.Length)
	if node < 0 {
		m.fail(fmt.Errorf("joint: cut joint %q: x = %g is not a node of flexible body %q (nodes at %v)", name, x, b.name, b.inv.Nodes))
		return
	}
	c := flexCut{name: name, a: a, pa: pa, fb: fb, x: b.inv.Nodes[node], du: b.inv.NodeU[node], dw: b.inv.NodeW[node]}
	for _, d := range dirs {
		if d[2] != 0 {
			m.fail(fmt.Errorf("joint: cut joint %q: direction %v leaves the plane of flexible body %q; want z = 0", name, d, b.name))
			return
		}
		c.dirs = append(c.dirs, unit(d))
	}
	if k := len(m.flexCuts); k > 0 {
		last := &m.flexCuts[k-1]
		c.off = last.off + len(last.dirs)
	}
	m.flexCuts = append(m.flexCuts, c)
}

// numberFlex gives the flexible bodies their columns after the n tree coordinates and the
// flexible cuts their rows from row on; it returns the number of coordinates and the next
// row, and names both.
func (s *System) numberFlex(n, row int) (nq, next int) {
	m := s.m
	nq = n
	for i := range m.flex {
		b := &m.flex[i]
		n := 3 + b.inv.NE
		s.flex = append(s.flex, flexState{global: flexbeam.Body{Name: b.name, Col: nq, ECol: nq + 3, Inv: b.inv},
			local: flexbeam.Body{Name: b.name, Col: 0, ECol: 3, Inv: b.inv}, blk: mat.NewDense(n, n, nil)})
		for _, c := range []string{".x", ".y", ".theta"} {
			s.coordNames = append(s.coordNames, b.name+c)
		}
		for _, c := range b.inv.CoordNames {
			s.coordNames = append(s.coordNames, b.name+c)
		}
		nq += n
	}
	s.flexRow = row
	for _, c := range m.flexCuts {
		for k := range c.dirs {
			s.names = append(s.names, fmt.Sprintf("%s[%d]", c.name, k))
		}
		row += len(c.dirs)
	}
	return nq, row
}

// checkFlex refuses flexible bodies under gravity out of their plane.
func (m *Model) checkFlex() error {
	if len(m.flex) > 0 && m.Gravity[2] != 0 {
		return fmt.Errorf("joint: flexible body %q moves in the plane z = 0, but gravity %v has a z component", m.flex[0].name, m.Gravity)
	}
	return nil
}

func (m *Model) gravity2() [2]float64 { return [2]float64{m.Gravity[0], m.Gravity[1]} }

// flexMass adds the flexible bodies' blocks to M, whose rows and columns past the tree's
// are zero.
func (s *System) flexMass(dst *mat.Dense, q []float64) {
	for i := range s.flex {
		s.flex[i].global.WriteMass(dense{dst}, q)
	}
}

// factor factors the block of M of body b at q into b.blk (its lower triangle holds L,
// M_b = L Lᵀ); false when M_b is not positive definite.
func (b *flexState) factor(q []float64) bool {
	n := b.size()
	b.blk.Zero()
	b.local.WriteMass(dense{b.blk}, q[b.global.Col:b.global.Col+n])
	return linalg.Cholesky(b.blk.RawMatrix().Data, n) == nil
}

// flexSolve writes x = M_b⁻¹ r on every flexible body's columns (NaN where M_b is not
// positive definite, so the run stops with a non-finite acceleration).
func (s *System) flexSolve(x, q, r []float64) {
	for i := range s.flex {
		b := &s.flex[i]
		c, n := b.global.Col, b.size()
		copy(x[c:c+n], r[c:c+n])
		if !b.factor(q) {
			for k := c; k < c+n; k++ {
				x[k] = math.NaN()
			}
			continue
		}
		linalg.CholeskySolve(b.blk.RawMatrix().Data, n, x[c:c+n])
	}
}

// flexMul writes dst = M_b x on every flexible body's columns.
func (s *System) flexMul(dst, q, x []float64) {
	for i := range s.flex {
		b := &s.flex[i]
		c, n := b.global.Col, b.size()
		b.blk.Zero()
		b.local.WriteMass(dense{b.blk}, q[c:c+n])
		for r := range n {
			row := b.blk.RawRowView(r)
			var sum float64
			for k, v := range row {
				sum += v * x[c+k]
			}
			dst[c+r] = sum
		}
	}
}

// flexForce writes the flexible bodies' f (flexbeam: inertial, elastic and gravity terms)
// on their columns.
func (s *System) flexForce(dst, q, v []float64) {
	for k := s.nt; k < len(dst); k++ {
		dst[k] = 0
	}
	for i := range s.flex {
		s.flex[i].global.AddForce(dst, q, v, s.m.gravity2())
	}
}

// clearFlex zeroes the rows and columns of dst past the tree's.
func (s *System) clearFlex(dst *mat.Dense) {
	r, c := dst.Dims()
	for i := range r {
		row := dst.RawRowView(i)
		lo := s.nt
		if i >= s.nt {
			lo = 0
		}
		for j := lo; j < c; j++ {
			row[j] = 0
		}
	}
}

// flexEnergy returns the flexible bodies' kinetic and potential (gravity and strain)
// energies.
func (s *System) flexEnergy(q, v []float64) (kinetic, potential float64) {
	for i := range s.flex {
		k, g, strain := s.flex[i].global.Energies(q, v, s.m.gravity2())
		kinetic, potential = kinetic+k, potential+g+strain
	}
	return kinetic, potential
}

// node returns, for cut c at x (q or v), p = (x_i, 0) + δ when point, else δ alone, in
// the beam's frame, with the beam's angle and its rate's column.
func (c *flexCut) node(b *flexState, x []float64, point bool) [2]float64 {
	var p [2]float64
	if point {
		p[0] = c.x
	}
	ec := b.global.ECol
	for _, t := range c.du {
		p[0] += t.V * x[ec+t.I]
	}
	for _, t := range c.dw {
		p[1] += t.V * x[ec+t.I]
	}
	return p
}

// rot returns A(θ) p, and rotPerp A(θ) S p.
func rot(p [2]float64, sn, cs float64) [2]float64 {
	return [2]float64{cs*p[0] - sn*p[1], sn*p[0] + cs*p[1]}
}

func rotPerp(p [2]float64, sn, cs float64) [2]float64 { return rot([2]float64{-p[1], p[0]}, sn, cs) }

// flexPoint returns r_b of cut c at q, and sin θ, cos θ, p.
func (s *System) flexPoint(c *flexCut, q []float64) (r [2]float64, sn, cs float64, p [2]float64) {
	b := &s.flex[c.fb]
	col := b.global.Col
	sn, cs = math.Sincos(q[col+2])
	p = c.node(b, q, true)
	ap := rot(p, sn, cs)
	return [2]float64{q[col] + ap[0], q[col+1] + ap[1]}, sn, cs, p
}

// flexConstraint writes the flexible cuts' rows e·(r_a − r_b); the kinematics at q are in
// s.w.
func (s *System) flexConstraint(dst, q []float64) {
	for i := range s.m.flexCuts {
		c := &s.m.flexCuts[i]
		ra, _, _ := s.w.point(c.a, c.pa)
		rb, _, _, _ := s.flexPoint(c, q)
		for k, e := range c.dirs {
			dst[s.flexRow+c.off+k] = e.dot(ra.sub(vec3{rb[0], rb[1], 0}))
		}
	}
}

// flexJacobian writes the flexible cuts' rows of G.
func (s *System) flexJacobian(dst *mat.Dense, q []float64) {
	for i := range s.m.flexCuts {
		c := &s.m.flexCuts[i]
		b := &s.flex[c.fb]
		col, ec := b.global.Col, b.global.ECol
		ra, _, _ := s.w.point(c.a, c.pa)
		_, sn, cs, p := s.flexPoint(c, q)
		asp := rotPerp(p, sn, cs)
		ax, ay := rot([2]float64{1, 0}, sn, cs), rot([2]float64{0, 1}, sn, cs)
		for k, e := range c.dirs {
			row := dst.RawRowView(s.flexRow + c.off + k)
			s.pathRow(row, c.a, ra, e, 1)
			row[col] -= e[0]
			row[col+1] -= e[1]
			row[col+2] -= e[0]*asp[0] + e[1]*asp[1]
			for _, t := range c.du {
				row[ec+t.I] -= t.V * (e[0]*ax[0] + e[1]*ax[1])
			}
			for _, t := range c.dw {
				row[ec+t.I] -= t.V * (e[0]*ay[0] + e[1]*ay[1])
			}
		}
	}
}

// flexGamma writes the flexible cuts' γ; s.w holds the velocity-product accelerations.
func (s *System) flexGamma(dst, q, v []float64) {
	for i := range s.m.flexCuts {
		c := &s.m.flexCuts[i]
		b := &s.flex[c.fb]
		_, _, aa := s.w.point(c.a, c.pa)
		_, sn, cs, p := s.flexPoint(c, q)
		w := v[b.global.Col+2]
		ap, asd := rot(p, sn, cs), rotPerp(c.node(b, v, false), sn, cs)
		ab := [2]float64{-w*w*ap[0] + 2*w*asd[0], -w*w*ap[1] + 2*w*asd[1]}
		for k, e := range c.dirs {
			dst[s.flexRow+c.off+k] = -e.dot(aa) + e[0]*ab[0] + e[1]*ab[1]
		}
	}
}

// flexCutColumn adds the flexible cuts' parts of ∂(Gᵀλ)/∂q: the tree side as a
// point force (cutColumn) in column k, called for every tree column k with s.d.inSub set.
func (s *System) flexCutColumn(dst *mat.Dense, k int, lambda []float64) {
	for i := range s.m.flexCuts {
		c := &s.m.flexCuts[i]
		s.cutColumn(dst, k, c.a, c.pa, c.force(lambda[s.flexRow:]))
	}
}

// force returns f = Σ λ e over the cut's rows (lambda from the first flexible cut row on).
func (c *flexCut) force(lambda []float64) vec3 {
	var f vec3
	for k, e := range c.dirs {
		f = f.add(e.scale(lambda[c.off+k]))
	}
	return f
}

// flexCutHessian adds the beam side of the flexible cuts' ∂(Gᵀλ)/∂q (the header).
func (s *System) flexCutHessian(dst *mat.Dense, q, lambda []float64) {
	for i := range s.m.flexCuts {
		c := &s.m.flexCuts[i]
		b := &s.flex[c.fb]
		th, ec := b.global.Col+2, b.global.ECol
		f := c.force(lambda[s.flexRow:])
		_, sn, cs, p := s.flexPoint(c, q)
		ap := rot(p, sn, cs)
		dst.Set(th, th, dst.At(th, th)+f[0]*ap[0]+f[1]*ap[1])
		for dir, list := range [2][]flexbeam.Entry{c.du, c.dw} {
			var d [2]float64
			d[dir] = 1
			asd := rotPerp(d, sn, cs)
			h := -(f[0]*asd[0] + f[1]*asd[1])
			for _, t := range list {
				dst.Set(th, ec+t.I, dst.At(th, ec+t.I)+t.V*h)
				dst.Set(ec+t.I, th, dst.At(ec+t.I, th)+t.V*h)
			}
		}
	}
}

// FlexibleColumn returns the column in q of flexible body fb's frame x (then y, θ and its
// elastic coordinates).
func (s *System) FlexibleColumn(fb int) int { return s.flex[fb].global.Col }

// StrainEnergy returns ½ eᵀ K e of flexible body fb at q.
func (s *System) StrainEnergy(fb int, q []float64) float64 {
	b := &s.flex[fb].global
	return b.Inv.StrainEnergy(q[b.ECol : b.ECol+b.Inv.NE])
}

// dense is a dense matrix as the flexbeam.Matrix a flexible body adds to (one pointer:
// passing it allocates nothing).
type dense struct{ m *mat.Dense }

func (d dense) Add(i, j int, x float64) {
	row := d.m.RawRowView(i)
	row[j] += x
}

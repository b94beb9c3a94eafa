package flexbeam

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// beam.go: (Beam) ⇒ the constant invariants of a linearized Euler–Bernoulli beam in a
// floating frame of reference (Simeon 1996; Shabana, Dynamics of Multibody Systems, ch. 5),
// the integrals every mass, force and energy term of a flexible body is built from.
//
// A material point at x ∈ [0, l] on the frame's x axis moves to ρ(x) = (x + u(x), w(x)) in
// the frame, with the axial displacement u = N_u(x) e and the lateral one w = N_w(x) e
// linear in the elastic coordinates e. With μ = density·A (mass per length):
//
//	m = μ l,   J₀ = μ l³/3 + density·I·l (the section's rotary inertia in the frame rotation),
//	c_u = ∫μ N_u,   c_w = ∫μ N_w,   d_u = ∫μ x N_u,   d_w = ∫μ x N_w,
//	M_ee = ∫μ (N_uᵀN_u + N_wᵀN_w),   B = ∫μ (N_uᵀN_w − N_wᵀN_u),
//	K = ∫(E A N_u′ᵀN_u′ + E I N_w″ᵀN_w″).
//
// The test set's crank (problems/crank.go) names these ρ·c1 = c_u, ρ·c2 = c_w, ρ·c12 = d_u,
// ρ·c21 = d_w, MQ = M_ee, ρ·BQ = B, KQ = K.

// Frame chooses the floating frame of a beam: the boundary conditions its elastic
// displacements satisfy in the frame, which fix the frame to the beam.
type Frame int

const (
	// Tangent is the tangent frame: u = w = w′ = 0 at node 0 (the beam is clamped in its
	// frame, which follows the tangent at its first end).
	Tangent Frame = iota
	// Chord is the chord frame: u = w = 0 at node 0 and w = 0 at the last node (the
	// beam is pinned-pinned in its frame, whose x axis is the chord of its ends).
	Chord
)

// Beam makes a body flexible: a planar, linearized Euler–Bernoulli beam of the given length
// along the x axis of the body frame, from the frame's origin (node 0). The body's
// coordinates (x, y, θ) are those of the frame's origin and angle, followed by the
// elastic coordinates e at the end of q. Two discretizations:
//
//   - Elements > 0: k finite elements of length l/k, linear in u and cubic Hermite in w,
//     nodal coordinates (u_i, w_i, w′_i) at nodes i = 0..k, less those fixed by Frame;
//   - Modes > 0: Simeon's Ritz basis (the IVP test set's crank): w = Σ_j q_j sin(jπx/l),
//     j = 1..Modes, and one quadratic axial element with u at x = l/2 and x = l; only
//     with Frame = Chord.
//
// NoAxial drops the axial coordinates (u ≡ 0, the inextensible beam of Yen, Petzold and
// Raha 1998, section 4.3).
type Beam struct {
	Length   float64 // l > 0 [m]
	Elements int     // k ≥ 1 finite elements (or 0 with Modes > 0)
	Modes    int     // number of sine modes of Simeon's basis (or 0 with Elements > 0)
	E        float64 // Young's modulus > 0 [Pa]
	A        float64 // cross-section area > 0 [m²]
	I        float64 // second moment of area > 0 [m⁴]
	Density  float64 // > 0 [kg/m³]
	Frame    Frame
	NoAxial  bool
}

// Invariants holds the invariants of one beam (the header of this file); the ne×ne matrices
// are kept as their nonzero entries (banded for elements), so a beam of k elements costs
// O(k) memory and time.
type Invariants struct {
	NE             int
	m, sx, j0      float64 // m, ∫μx, J₀
	cu, cw, du, dw []float64
	mee, b, k      []Entry
	Nodes          []float64 // node positions x_i
	NodeU, NodeW   [][]Entry // u and w at node i as Σ coef·e_col (col in 0..ne−1)
	NodeSlope      [][]Entry // w′ at node i
	CoordNames     []string  // suffix of each elastic coordinate, e.g. ".w2"
	lateral, axial []int     // elastic coordinates of w and of u
}

// Entry is one nonzero of a matrix or of a linear form: row i, column j, value v (j unused
// in a linear form).
type Entry struct {
	I, J int
	V    float64
}

// shapeSample is the value of the shape functions of one coordinate at a point.
type shapeSample struct {
	col             int
	nu, nw, du, ddw float64 // N_u, N_w, N_u′, N_w″
}

// segment is a part of [0, l] on which the shape functions are smooth; eval writes the
// samples of the coordinates that are nonzero on it at x.
type segment struct {
	x0, x1 float64
	eval   func(x float64, dst []shapeSample) []shapeSample
}

// gauss6 are the 6-point Gauss–Legendre nodes and weights on [−1, 1] (exact to degree 11).
var gauss6 = [6][2]float64{
	{-0.9324695142031521, 0.1713244923791704},
	{-0.6612093864662645, 0.3607615730481386},
	{-0.2386191860831969, 0.4679139345726910},
	{0.2386191860831969, 0.4679139345726910},
	{0.6612093864662645, 0.3607615730481386},
	{0.9324695142031521, 0.1713244923791704},
}

// New integrates the invariants of b (validated by the caller).
func New(b *Beam) *Invariants {
	var segs []segment
	var inv *Invariants
	if b.Modes > 0 {
		inv, segs = simeonBasis(b)
	} else {
		inv, segs = elementBasis(b)
	}
	mu := b.Density * b.A
	l := b.Length
	inv.m, inv.sx, inv.j0 = mu*l, mu*l*l/2, mu*l*l*l/3+b.Density*b.I*l
	ne := inv.NE
	inv.cu, inv.cw, inv.du, inv.dw = make([]float64, ne), make([]float64, ne), make([]float64, ne), make([]float64, ne)
	mee, bb, kk := map[[2]int]float64{}, map[[2]int]float64{}, map[[2]int]float64{}
	var buf []shapeSample
	for _, sg := range segs {
		half := (sg.x1 - sg.x0) / 2
		for _, g := range gauss6 {
			x := sg.x0 + half*(1+g[0])
			w := half * g[1]
			buf = sg.eval(x, buf[:0])
			for _, p := range buf {
				inv.cu[p.col] += w * mu * p.nu
				inv.cw[p.col] += w * mu * p.nw
				inv.du[p.col] += w * mu * x * p.nu
				inv.dw[p.col] += w * mu * x * p.nw
				for _, r := range buf {
					key := [2]int{p.col, r.col}
					mee[key] += w * mu * (p.nu*r.nu + p.nw*r.nw)
					bb[key] += w * mu * (p.nu*r.nw - p.nw*r.nu)
					kk[key] += w * (b.E*b.A*p.du*r.du + b.E*b.I*p.ddw*r.ddw)
				}
			}
		}
	}
	inv.mee, inv.b, inv.k = entries(mee), entries(bb), entries(kk)
	return inv
}

// entries lists the nonzeros of a map in row-major order (drops exact zeros and the
// rounding noise of a vanishing integral, |v| ≤ 1e-15·max|v|).
func entries(m map[[2]int]float64) []Entry {
	var top float64
	for _, v := range m {
		top = math.Max(top, math.Abs(v))
	}
	out := make([]Entry, 0, len(m))
	for k, v := range m {
		if math.Abs(v) > 1e-15*top {
			out = append(out, Entry{k[0], k[1], v})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].I != out[b].I {
			return out[a].I < out[b].I
		}
		return out[a].J < out[b].J
	})
	return out
}

// elementBasis numbers the nodal coordinates of k elements (node by node: u, w, w′, less
// those the frame fixes) and returns one segment per element.
func elementBasis(b *Beam) (*Invariants, []segment) {
	k := b.Elements
	he := b.Length / float64(k)
	inv := &Invariants{}
	// dof[i] = columns of (u_i, w_i, w′_i), −1 where fixed.
	dof := make([][3]int, k+1)
	for i := range dof {
		for c := range 3 {
			fixed := (c == 0 && (b.NoAxial || i == 0)) ||
				(c == 1 && (i == 0 || (b.Frame == Chord && i == k))) ||
				(c == 2 && i == 0 && b.Frame == Tangent)
			dof[i][c] = -1
			if !fixed {
				dof[i][c] = inv.NE
				inv.NE++
				inv.CoordNames = append(inv.CoordNames, fmt.Sprintf(".%s%d", [3]string{"u", "w", "slope"}[c], i))
				if c == 0 {
					inv.axial = append(inv.axial, dof[i][c])
				} else {
					inv.lateral = append(inv.lateral, dof[i][c])
				}
			}
		}
	}
	one := func(col int, v float64) []Entry {
		if col < 0 {
			return nil
		}
		return []Entry{{I: col, V: v}}
	}
	for i := range k + 1 {
		inv.Nodes = append(inv.Nodes, float64(i)*b.Length/float64(k))
		inv.NodeU = append(inv.NodeU, one(dof[i][0], 1))
		inv.NodeW = append(inv.NodeW, one(dof[i][1], 1))
		inv.NodeSlope = append(inv.NodeSlope, one(dof[i][2], 1))
	}
	segs := make([]segment, k)
	for e := range k {
		x0 := float64(e) * b.Length / float64(k)
		d0, d1 := dof[e], dof[e+1]
		segs[e] = segment{x0: x0, x1: x0 + he, eval: func(x float64, dst []shapeSample) []shapeSample {
			s := (x - x0) / he
			// Linear axial: N = (1−s, s); cubic Hermite lateral on (w_e, w′_e, w_e+1, w′_e+1).
			h := [4]float64{1 - 3*s*s + 2*s*s*s, he * (s - 2*s*s + s*s*s), 3*s*s - 2*s*s*s, he * (-s*s + s*s*s)}
			h2 := [4]float64{(-6 + 12*s) / (he * he), (-4 + 6*s) / he, (6 - 12*s) / (he * he), (-2 + 6*s) / he}
			add := func(col int, nu, nw, du, ddw float64) {
				if col >= 0 {
					dst = append(dst, shapeSample{col, nu, nw, du, ddw})
				}
			}
			add(d0[0], 1-s, 0, -1/he, 0)
			add(d1[0], s, 0, 1/he, 0)
			add(d0[1], 0, h[0], 0, h2[0])
			add(d0[2], 0, h[1], 0, h2[1])
			add(d1[1], 0, h[2], 0, h2[2])
			add(d1[2], 0, h[3], 0, h2[3])
			return dst
		}}
	}
	return inv, segs
}

// simeonBasis is the Ritz basis of Simeon (1996) and RESMBS: sine modes w_j = sin(jπx/l)
// first, then the quadratic axial element's u(l/2), u(l) (shape functions 4ξ(1−ξ) and
// ξ(2ξ−1), ξ = x/l). Markers may sit at x = 0 and x = l.
func simeonBasis(b *Beam) (*Invariants, []segment) {
	l, n := b.Length, b.Modes
	inv := &Invariants{NE: n}
	for j := range n {
		inv.CoordNames = append(inv.CoordNames, fmt.Sprintf(".mode%d", j+1))
		inv.lateral = append(inv.lateral, j)
	}
	if !b.NoAxial {
		inv.NE += 2
		inv.CoordNames = append(inv.CoordNames, ".umid", ".uend")
		inv.axial = []int{n, n + 1}
	}
	inv.Nodes = []float64{0, l}
	inv.NodeU = [][]Entry{nil, nil}
	inv.NodeW = [][]Entry{nil, nil} // sin(jπ) = 0 at both ends
	inv.NodeSlope = make([][]Entry, 2)
	if !b.NoAxial {
		inv.NodeU[1] = []Entry{{I: n + 1, V: 1}}
	}
	for j := range n {
		k := float64(j+1) * math.Pi / l
		inv.NodeSlope[0] = append(inv.NodeSlope[0], Entry{I: j, V: k})
		inv.NodeSlope[1] = append(inv.NodeSlope[1], Entry{I: j, V: k * math.Cos(float64(j+1)*math.Pi)})
	}
	eval := func(x float64, dst []shapeSample) []shapeSample {
		for j := range n {
			k := float64(j+1) * math.Pi / l
			s := math.Sin(k * x)
			dst = append(dst, shapeSample{col: j, nw: s, ddw: -k * k * s})
		}
		if !b.NoAxial {
			xi := x / l
			dst = append(dst,
				shapeSample{col: n, nu: 4 * xi * (1 - xi), du: 4 * (1 - 2*xi) / l},
				shapeSample{col: n + 1, nu: xi * (2*xi - 1), du: (4*xi - 1) / l})
		}
		return dst
	}
	const parts = 16 // sin(nπx/l) needs more than one 6-point rule for n > 1
	segs := make([]segment, parts)
	for p := range parts {
		segs[p] = segment{x0: l * float64(p) / parts, x1: l * float64(p+1) / parts, eval: eval}
	}
	return inv, segs
}

// NodeAt returns the node at x (within 1e-9·l), or −1.
func (inv *Invariants) NodeAt(x, l float64) int {
	for i, xn := range inv.Nodes {
		if math.Abs(x-xn) <= 1e-9*l {
			return i
		}
	}
	return -1
}

// StrainEnergy returns ½ eᵀ K e.
func (inv *Invariants) StrainEnergy(e []float64) float64 {
	var s float64
	for _, t := range inv.k {
		s += e[t.I] * t.V * e[t.J]
	}
	return s / 2
}

// Frequencies returns the natural frequencies ω [rad/s] of the beam in its frame, the
// roots of det(K − ω² M_ee) = 0, in increasing order: with M_ee = L Lᵀ (Cholesky), the
// eigenvalues of the symmetric L⁻¹ K L⁻ᵀ. It costs O(ne³): for reports, not for steps.
func (inv *Invariants) Frequencies() ([]float64, error) {
	n := inv.NE
	sym := func(es []Entry) *mat.SymDense {
		s := mat.NewSymDense(n, nil)
		for _, e := range es {
			if e.I <= e.J {
				s.SetSym(e.I, e.J, e.V)
			}
		}
		return s
	}
	var ch mat.Cholesky
	if !ch.Factorize(sym(inv.mee)) {
		return nil, fmt.Errorf("flexbeam: M_ee is not positive definite")
	}
	var L mat.TriDense
	ch.LTo(&L)
	var x, c mat.Dense
	if err := x.Solve(&L, sym(inv.k)); err != nil { // L⁻¹ K
		return nil, err
	}
	if err := c.Solve(&L, x.T()); err != nil { // L⁻¹ (L⁻¹ K)ᵀ = L⁻¹ K L⁻ᵀ
		return nil, err
	}
	cs := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			cs.SetSym(i, j, (c.At(i, j)+c.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(cs, false) {
		return nil, fmt.Errorf("flexbeam: the eigenvalues of K, M_ee did not converge")
	}
	ev := es.Values(nil)
	out := make([]float64, len(ev))
	for i, v := range ev {
		out[i] = math.Sqrt(math.Max(v, 0))
	}
	sort.Float64s(out)
	return out, nil
}

package natural

import (
	"fmt"
	"math"
	"math/cmplx"
	"slices"

	"linkage/assembly"
)

// assemble.go: Model ⇒ System. Revolute joints merge marker points into shared points;
// every body gets two basic points (its joint points first, then its centre of mass and a
// point at its radius of gyration while it has fewer than two); columns, rows and pairs are
// fixed here and evaluations only walk flat slices.

var rowSuffixes = [...][]string{
	kindRevolute:      nil, // a shared point: no rows
	kindTranslational: {"n", "theta"},
	kindDistance:      {"d"},
	kindWeld:          {"x", "y", "theta"},
	kindPointOnLine:   {"n"},
	kindMotion:        {"c"},
}

// pointTol is the relative distance below which two points of one body, or two fixed
// points, count as the same point.
const pointTol = 1e-12

// builder holds the state of one Assemble.
type builder struct {
	m          *Model
	s          *System
	ck         *assembly.Checker
	names      assembly.CatalogWriter
	markerBody []int // −1 for a bad marker
	parent     []int // union-find over markers, joined by revolute joints
	pointOf    map[int]int
}

// Assemble validates the model and builds its System. The error joins one message per bad
// element, each naming it: empty or duplicate names, non-positive mass or inertia,
// non-finite values, unknown markers or joints, a joint on one body, revolute joints that
// tie two different points of one body together or fix one point at two places, a body held
// at two fixed points whose distance is not the body's, a motion on a joint without a joint
// coordinate.
func (m *Model) Assemble() (*System, error) {
	bd := &builder{m: m, s: &System{gravity: m.gravity, sdRange: map[string][2]int{}}, ck: assembly.NewChecker("natural"), pointOf: map[int]int{}}
	bd.names = assembly.WriteCatalog(&bd.s.Catalog)
	if !finite(m.gravity[0]) || !finite(m.gravity[1]) {
		bd.ck.Bad("gravity = %v is not finite", m.gravity)
	}
	bd.checkBodies()
	bd.checkMarkers()
	revolutes := bd.joinRevolutes()
	bd.sharedPoints(revolutes) // a conflict is reported and one of its places kept, so assembly goes on
	bd.bodies()
	bd.joints()
	bd.forces()
	if err := bd.ck.Err(); err != nil {
		return nil, err
	}
	s := bd.s
	s.driven = assembly.DrivenRows(s.rows)
	s.pattern = s.buildPattern()
	s.massPattern = s.buildMassPattern()
	s.coupling = s.buildCoupling()
	rowPairs := make([][]int, s.nc)
	for r := range s.rows {
		rowPairs[r] = slices.Repeat([]int{s.rowPair[r]}, s.rows[r].N)
	}
	s.Matrices.Init(s, s, s.nq, s.nc, assembly.Elements{Pairs: assembly.PairColumns(s.pairs, func(p *pairRef) []int { return p.col[:] }), RowPairs: rowPairs})
	return s, nil
}

func (bd *builder) checkBodies() {
	for k, b := range bd.m.bodies {
		bd.ck.Body(k, b.Name)
		if k == 0 {
			continue
		}
		what := fmt.Sprintf("body %q", b.Name)
		bd.ck.Positive(what, "mass", b.Mass)
		bd.ck.Positive(what, "inertia", b.Inertia)
		for _, x := range []float64{b.Pos[0], b.Pos[1], b.Angle, b.Vel[0], b.Vel[1], b.AngVel} {
			if !finite(x) {
				bd.ck.Bad("%s: initial pose or velocity (%v, %g, %v, %g) is not finite", what, b.Pos, b.Angle, b.Vel, b.AngVel)
				break
			}
		}
	}
}

func (bd *builder) checkMarkers() {
	bd.markerBody = make([]int, len(bd.m.markers))
	for k, mk := range bd.m.markers {
		bd.markerBody[k] = -1
		label := assembly.MarkerLabel(mk.Name, k+1)
		if !bd.ck.MarkerBody(label, int(mk.Body), len(bd.m.bodies)) {
			continue
		}
		if !finite(mk.Point[0]) || !finite(mk.Point[1]) || !finite(mk.Angle) {
			bd.ck.Bad("%s: point %v or angle %g is not finite", label, mk.Point, mk.Angle)
			continue
		}
		bd.markerBody[k] = int(mk.Body)
	}
}

func (bd *builder) find(i int) int {
	for bd.parent[i] != i {
		bd.parent[i] = bd.parent[bd.parent[i]]
		i = bd.parent[i]
	}
	return i
}

// joinRevolutes claims every joint's name, checks the markers of joints between markers and
// merges the markers of each good revolute joint; it returns the indices of those joints.
func (bd *builder) joinRevolutes() []int {
	bd.parent = make([]int, len(bd.m.markers))
	for k := range bd.parent {
		bd.parent[k] = k
	}
	var revs []int
	for k, js := range bd.m.joints {
		kind := jointKindNames[js.kind]
		bd.ck.Name(kind, js.name, k+1)
		if js.kind != kindRevolute {
			continue
		}
		what := fmt.Sprintf("%s %q", kind, js.name)
		if !bd.ck.MarkerPair(what, int(js.i), int(js.j), bd.markerBody) {
			continue
		}
		a, b := bd.find(int(js.i-1)), bd.find(int(js.j-1))
		bd.parent[a] = b
		revs = append(revs, k)
	}
	return revs
}

// sharedPoints makes one point of every set of markers joined by revolute joints and
// reports sets that tie two different points of one body together or fix one point at two
// places on the ground.
func (bd *builder) sharedPoints(revs []int) {
	s := bd.s
	for _, k := range revs {
		js := bd.m.joints[k]
		root := bd.find(int(js.i - 1))
		if _, ok := bd.pointOf[root]; ok {
			continue
		}
		p := pointData{name: js.name, col: -1, body: -1}
		for mk := range bd.m.markers {
			if bd.markerBody[mk] < 0 || bd.find(mk) != root {
				continue
			}
			bd.addMember(&p, mk, js.name)
		}
		bd.pointOf[root] = len(s.points)
		s.points = append(s.points, p)
	}
}

// addMember adds marker mk to point p (named after joint) unless its body holds p already at
// the same local point; a different local point, or a second fixed place, is reported.
func (bd *builder) addMember(p *pointData, mk int, joint string) {
	m := bd.m.markers[mk]
	if m.Body == Ground {
		if p.body == Ground && !same(p.fixed, m.Point) {
			bd.ck.Bad("revolute %q: its point is pinned to the ground at %v and at %v (marker %q); want one place", joint, p.fixed, m.Point, m.Name)
		}
		p.body, p.fixed, p.local = Ground, m.Point, m.Point
		return
	}
	for _, mb := range p.members {
		if mb.body != m.Body {
			continue
		}
		if !same(mb.s, m.Point) {
			bd.ck.Bad("revolute %q: the joints at this point tie points %v and %v of body %q together; want one point of each body",
				joint, mb.s, m.Point, bd.m.bodies[m.Body].Name)
		}
		return
	}
	p.members = append(p.members, member{body: m.Body, s: m.Point, slot: -1, link: -1})
	if p.body < 0 {
		p.body, p.local = m.Body, m.Point
	}
}

// same reports whether two points coincide to pointTol relative to their size.
func same(a, b Vec) bool {
	scale := math.Max(1, math.Max(math.Hypot(a[0], a[1]), math.Hypot(b[0], b[1])))
	return math.Hypot(a[0]-b[0], a[1]-b[1]) <= pointTol*scale
}

// bodies chooses each body's basic points, numbers the columns of the points in the order
// the bodies first hold them, and adds the rigid row of every body and the link rows of
// every point a body holds beyond its basic two.
func (bd *builder) bodies() {
	s := bd.s
	held := make([][]int, len(bd.m.bodies)) // points of each body, in joint order
	for pi, p := range s.points {
		for _, mb := range p.members {
			held[mb.body] = append(held[mb.body], pi)
		}
	}
	s.bodies = make([]bodyData, len(bd.m.bodies))
	s.frames = make([]frame, len(bd.m.bodies))
	s.bodies[0] = bodyData{Body: bd.m.bodies[0], sj: Vec{1, 0}, L: 1, rigid: -1}
	s.frames[0] = frame{col: [4]int{-1, -1, -1, -1}, fixed: [4]float64{0, 0, 1, 0}}
	bd.names.AddBody(bd.m.bodies[0].Name, "ground", nil)
	for k := 1; k < len(bd.m.bodies); k++ {
		pts := bd.ownPoints(BodyID(k), held[k])
		var rows []int
		bd.frame(BodyID(k), pts[:2])
		b := &s.bodies[k]
		b.rigid = bd.rigidRow(BodyID(k))
		rows = append(rows, b.rigid)
		for _, pi := range pts[2:] {
			bd.column(pi)
			rows = append(rows, bd.linkRows(BodyID(k), pi)...)
		}
		bd.names.AddBody(b.Name, "body", rows)
	}
}

// ownPoints returns the points of body k, its own points added when it holds fewer than two:
// its centre of mass, else a point at its radius of gyration √(J/m) along its x axis.
func (bd *builder) ownPoints(k BodyID, pts []int) []int {
	s := bd.s
	b := bd.m.bodies[k]
	cands := []struct {
		suffix string
		at     Vec
	}{{".cm", Vec{}}, {".ref", Vec{math.Sqrt(b.Inertia / b.Mass), 0}}}
	for _, c := range cands {
		if len(pts) >= 2 {
			break
		}
		if len(pts) == 1 && same(bd.localOf(s.points[pts[0]], k), c.at) {
			continue
		}
		s.points = append(s.points, pointData{name: b.Name + c.suffix, col: -1, body: k, local: c.at,
			members: []member{{body: k, s: c.at, slot: -1, link: -1}}})
		pts = append(pts, len(s.points)-1)
	}
	return pts
}

// localOf returns the position of point p in body k's frame.
func (bd *builder) localOf(p pointData, k BodyID) Vec {
	for _, mb := range p.members {
		if mb.body == k {
			return mb.s
		}
	}
	panic("natural: point not held by the body")
}

// column gives point pi its two columns (and names) unless it is fixed or has them already.
func (bd *builder) column(pi int) {
	s := bd.s
	p := &s.points[pi]
	if p.col >= 0 || p.body == Ground {
		return
	}
	p.col = s.nq
	s.nq += 2
	bd.names.AddCoordinates(p.name, ".x", ".y")
}

// frame makes points basic[0], basic[1] the basic points of body k: its frame's slots, its
// mass matrix and the complex coordinates of its centre.
func (bd *builder) frame(k BodyID, basic []int) {
	s := bd.s
	b := bodyData{Body: bd.m.bodies[k], basic: [2]int{basic[0], basic[1]}}
	var f frame
	for slot, pi := range basic {
		bd.column(pi)
		p := &s.points[pi]
		for mi := range p.members {
			if p.members[mi].body == k {
				p.members[mi].slot = slot
			}
		}
		loc := bd.localOf(*p, k)
		if slot == 0 {
			b.si = loc
		} else {
			b.sj = loc
		}
		for c := range 2 {
			f.col[2*slot+c] = -1
			if p.col >= 0 {
				f.col[2*slot+c] = p.col + c
			} else {
				f.fixed[2*slot+c] = p.fixed[c]
			}
		}
	}
	e0 := cplx(b.sj) - cplx(b.si)
	b.L = cmplx.Abs(e0)
	b.zc = -cplx(b.si) / e0
	b.mass = massMatrix(b.Mass, b.Inertia, b.si, b.zc, b.L)
	if f.col[0] < 0 && f.col[2] < 0 {
		fi, fj := Vec{f.fixed[0], f.fixed[1]}, Vec{f.fixed[2], f.fixed[3]}
		if d := math.Hypot(fj[0]-fi[0], fj[1]-fi[1]); math.Abs(d-b.L) > pointTol*math.Max(1, b.L) {
			bd.ck.Bad("body %q: its points %v and %v are %g apart on the body but pinned to the ground at %v and %v, %g apart; want equal distances",
				b.Name, b.si, b.sj, b.L, fi, fj, d)
		}
	}
	s.bodies[k] = b
	s.frames[k] = f
}

// massMatrix returns the constant mass matrix of a rigid element over its basic points
// (García de Jalón & Bayo 1994, sec. 3.3): with r(s) = C(s)(r_i, r_j), C = [(1−c₁)I − c₂R,
// c₁I + c₂R] and (c₁, c₂) the complex coordinate of s, M = ∫ CᵀC dm, which needs only
//
//	∫ dm = m,  ∫ c dm = m c(0) = m z_c,  ∫ |c|² dm = (J + m|s_i|²)/L².
func massMatrix(m, J float64, si Vec, zc complex128, L float64) (M [4][4]float64) {
	k2 := (J + m*dot(si, si)) / (L * L)
	c1, c2 := real(zc), imag(zc)
	ii := m - 2*m*c1 + k2
	ij := m*c1 - k2
	jj := k2
	// M_ij = ij·I + m c₂ R with R = [0 −1; 1 0].
	M[0][0], M[1][1] = ii, ii
	M[2][2], M[3][3] = jj, jj
	M[0][2], M[1][3] = ij, ij
	M[0][3], M[1][2] = -m*c2, m*c2
	for a := range 2 {
		for b := 2; b < 4; b++ {
			M[b][a] = M[a][b]
		}
	}
	return M
}

// newPair returns a pair of the frames fa, fb with maps rI, uI on side A, rJ, uJ on side B.
func (s *System) newPair(fa, fb int, zI, zuI, zJ, zuJ complex128) int {
	pr := pairRef{fa: fa, fb: fb, rI: pointMap(0, zI), uI: axisMap(0, zuI), rJ: pointMap(1, zJ), uJ: axisMap(1, zuJ)}
	for k := range 4 {
		pr.col[k], pr.fixed[k] = s.frames[fa].col[k], s.frames[fa].fixed[k]
		pr.col[4+k], pr.fixed[4+k] = s.frames[fb].col[k], s.frames[fb].fixed[k]
	}
	pr.d = pr.rJ.sub(&pr.rI)
	pr.nI = pr.uI.rot90()
	s.pairs = append(s.pairs, pr)
	return len(s.pairs) - 1
}

// rigidRow adds body k's row (|r_j − r_i|² − L²)/(2L) = 0, scaled so that its gradient has
// unit length (seed 001: constraints scaled to unity for the penalty methods).
func (bd *builder) rigidRow(k BodyID) int {
	s := bd.s
	b := &s.bodies[k]
	p := s.newPair(int(k), int(k), 0, 1, 1, 1)
	r := row{Terms: [2]term{{Pair: p, Coord: coord{kind: coordDist2}, W: 1 / b.L}}, N: 1, C0: b.L / 2}
	return bd.addRow(b.Name+".rigid", r, p)
}

// linkRows adds the rows r_k − r(s_k) = 0 that tie point pi, held by body k beyond its basic
// points, to the body's basic points (linear: r(s) = r_i + Z e).
func (bd *builder) linkRows(k BodyID, pi int) []int {
	s := bd.s
	p := &s.points[pi]
	f := frame{}
	for slot := range 2 {
		for c := range 2 {
			f.col[2*slot+c] = -1
			if p.col >= 0 {
				f.col[2*slot+c] = p.col + c
			} else {
				f.fixed[2*slot+c] = p.fixed[c]
			}
		}
	}
	s.frames = append(s.frames, f)
	b := &s.bodies[k]
	z := (cplx(bd.localOf(*p, k)) - cplx(b.si)) / (cplx(b.sj) - cplx(b.si))
	pair := s.newPair(len(s.frames)-1, int(k), 0, 1, z, 1)
	name := b.Name + "." + p.name
	first := bd.addRow(name+".x", row{Terms: [2]term{{Pair: pair, Coord: coord{kind: coordDx}, W: 1}}, N: 1}, pair)
	bd.addRow(name+".y", row{Terms: [2]term{{Pair: pair, Coord: coord{kind: coordDy}, W: 1}}, N: 1}, pair)
	for mi := range p.members {
		if p.members[mi].body == k {
			p.members[mi].link = first
		}
	}
	return []int{first, first + 1}
}

// addRow appends a named row on pair p and returns its index.
func (bd *builder) addRow(name string, r row, p int) int {
	s := bd.s
	s.rows = append(s.rows, r)
	s.rowPair = append(s.rowPair, p)
	s.nc++
	return bd.names.AddRow(name)
}

// markerPair returns the pair of markers i (side A) and j (side B), after checking them.
func (bd *builder) markerPair(what string, i, j MarkerID) (int, bool) {
	if !bd.ck.MarkerPair(what, int(i), int(j), bd.markerBody) {
		return -1, false
	}
	zi, zui := bd.markerCoords(i)
	zj, zuj := bd.markerCoords(j)
	return bd.s.newPair(bd.markerBody[i-1], bd.markerBody[j-1], zi, zui, zj, zuj), true
}

// markerCoords returns the complex coordinates of marker mk's point and x axis in its
// body's basic points.
func (bd *builder) markerCoords(mk MarkerID) (z, zu complex128) {
	m := bd.m.markers[mk-1]
	b := &bd.s.bodies[m.Body]
	e0 := cplx(b.sj) - cplx(b.si)
	return (cplx(m.Point) - cplx(b.si)) / e0, cmplx.Rect(1, m.Angle) / e0
}

// joints adds the rows of every joint and motion, in the order they were added.
func (bd *builder) joints() {
	s := bd.s
	m := bd.m
	s.joints = make([]jointData, len(m.joints))
	for k, js := range m.joints {
		kind := jointKindNames[js.kind]
		what := fmt.Sprintf("%s %q", kind, js.name)
		jd := jointData{name: js.name, kind: js.kind, pair: -1, point: -1}
		one := func(c coordKind) row { return row{Terms: [2]term{{Pair: jd.pair, Coord: coord{kind: c}, W: 1}}, N: 1} }
		var rs []row
		switch js.kind {
		case kindMotion:
			rs = bd.motionRows(what, js, k)
			if len(rs) > 0 {
				jd.pair = rs[0].Terms[0].Pair
			}
		case kindRevolute:
			if p, ok := bd.markerPair(what, js.i, js.j); ok {
				jd.pair, jd.angle = p, true
				jd.point = bd.pointOf[bd.find(int(js.i-1))]
				jd.bi, jd.bj = m.markers[js.i-1].Body, m.markers[js.j-1].Body
			}
		default:
			p, ok := bd.markerPair(what, js.i, js.j)
			if !ok {
				break
			}
			jd.pair = p
			switch js.kind {
			case kindTranslational:
				rs = []row{one(coordNormal), one(coordCross)}
				jd.coord = coord{kind: coordAlong}
			case kindDistance:
				bd.ck.Positive(what, "length", js.length)
				r := one(coordDist2)
				r.C0 = js.length * js.length / 2
				rs = []row{r}
			case kindWeld:
				rs = []row{one(coordDx), one(coordDy), one(coordCross)}
			case kindPointOnLine:
				rs = []row{one(coordNormal)}
				jd.coord = coord{kind: coordAlong}
			}
		}
		jd.first, jd.nrows = s.nc, len(rowSuffixes[js.kind])
		if rs == nil {
			rs = make([]row, jd.nrows)
		}
		for _, r := range rs {
			s.rows = append(s.rows, r)
			s.rowPair = append(s.rowPair, max(jd.pair, 0))
		}
		s.nc += jd.nrows
		bd.names.AddJoint(js.name, kind, rowSuffixes[js.kind])
		s.joints[k] = jd
	}
}

// motionRows returns the row of motion js (joint number self): sin(β − f) = 0 on a revolute
// joint, u_I·d − f = 0 on a translational or point-on-line joint.
func (bd *builder) motionRows(what string, js jointSpec, self int) []row {
	if js.drive == nil {
		bd.ck.Bad("%s: no motion function", what)
	}
	if !bd.ck.EarlierJoint(what, int(js.a), self) {
		return nil
	}
	d := bd.s.joints[js.a-1]
	switch {
	case d.pair < 0 || js.drive == nil:
		return nil
	case d.angle:
		r := row{Drive: js.drive, Trig: true, N: 2}
		r.Terms[0] = term{Pair: d.pair, Coord: coord{kind: coordCross}, W: 1, Kind: assembly.WeightCos}
		r.Terms[1] = term{Pair: d.pair, Coord: coord{kind: coordDot}, W: 1, Kind: assembly.WeightNegSin}
		return []row{r}
	case d.kind == kindTranslational || d.kind == kindPointOnLine:
		return []row{{Terms: [2]term{{Pair: d.pair, Coord: d.coord, W: 1}}, N: 1, Drive: js.drive}}
	}
	bd.ck.Bad("%s: joint %q is a %s, which has no joint coordinate (want revolute, translational or point-on-line)",
		what, d.name, jointKindNames[d.kind])
	return nil
}

// forces adds gravity and the force elements.
func (bd *builder) forces() {
	s := bd.s
	m := bd.m
	if m.gravity != (Vec{}) {
		bd.names.AddForce("gravity", "gravity")
	}
	for k, fs := range m.forces {
		kind := forceKindNames[fs.kind]
		what := fmt.Sprintf("%s %q", kind, fs.name)
		bd.ck.Name(kind, fs.name, k+1)
		bd.names.AddForce(fs.name, kind)
		firstSD := len(s.sds)
		switch fs.kind {
		case kindTSDA:
			e := fs.tsda
			bd.ck.SpringDamper(what, e.K, e.C, "FreeLength", e.FreeLength, true)
			if p, ok := bd.markerPair(what, e.I, e.J); ok {
				s.sds = append(s.sds, assembly.NewSpringDamper(p, coord{kind: coordLength}, e.FreeLength, e.Spring, e.Damper, e.K, e.C, e.Actuator))
			}
		case kindRSDA:
			bd.rsda(what, fs.rsda)
		case kindBushing:
			e := fs.bushing
			bd.ck.Finite(what, "Kx", e.Kx, "Ky", e.Ky, "Ktheta", e.Ktheta, "Cx", e.Cx, "Cy", e.Cy, "Ctheta", e.Ctheta)
			if p, ok := bd.markerPair(what, e.I, e.J); ok {
				s.sds = append(s.sds,
					assembly.NewSpringDamper(p, coord{kind: coordAlong}, 0, nil, nil, e.Kx, e.Cx, nil),
					assembly.NewSpringDamper(p, coord{kind: coordNormal}, 0, nil, nil, e.Ky, e.Cy, nil),
					assembly.NewSpringDamper(p, coord{kind: coordAngle}, 0, nil, nil, e.Ktheta, e.Ctheta, nil))
			}
		case kindPointForce:
			if !bd.ck.Marker(what, int(fs.marker), bd.markerBody) {
				break
			}
			b := bd.markerBody[fs.marker-1]
			if b == 0 {
				bd.ck.Bad("%s: marker %d is on the ground, where a force does nothing", what, fs.marker)
				break
			}
			z, zu := bd.markerCoords(fs.marker)
			p := s.newPair(b, b, z, zu, 0, 1)
			s.pointForces = append(s.pointForces, pointForce{pair: p, fx: fs.fx, fy: fs.fy, global: fs.global})
		case kindTorque:
			if !bd.ck.MovingBody(what, int(fs.body), len(m.bodies)) {
				break
			}
			if fs.torque == nil {
				bd.ck.Bad("%s: no torque function", what)
				break
			}
			s.torques = append(s.torques, torqueElem{body: fs.body, tau: fs.torque})
		}
		if len(s.sds) > firstSD {
			s.sdRange[fs.name] = [2]int{firstSD, len(s.sds)}
		}
	}
}

// rsda adds an RSDA along the wrapped angle from its free angle.
func (bd *builder) rsda(what string, e RSDA) {
	bd.ck.SpringDamper(what, e.K, e.C, "FreeAngle", e.FreeAngle, false)
	i, j := e.I, e.J
	if e.Joint != 0 {
		isRev := func(j int) bool { return bd.m.joints[j-1].kind == kindRevolute }
		if !bd.ck.RevoluteJoint(what, int(e.Joint), len(bd.m.joints), isRev) {
			return
		}
		i, j = bd.m.joints[e.Joint-1].i, bd.m.joints[e.Joint-1].j
	}
	if p, ok := bd.markerPair(what, i, j); ok {
		bd.s.sds = append(bd.s.sds, assembly.NewSpringDamper(p, coord{kind: coordAngle, ref: e.FreeAngle}, 0, e.Spring, e.Damper, e.K, e.C, e.Actuator))
	}
}

func finite(x float64) bool { return assembly.IsFinite(x) }
